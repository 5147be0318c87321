/**
 * The layout route remembers Shopify's `?locale=` in a cookie, so the app's own links and form posts (bare
 * `/app/...` URLs) keep the admin user's language. Checked on the loader and `headers` export directly, and through
 * Remix's own request handler (document and single-fetch data requests, a child route's action), with only the
 * embedded-auth step replaced.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, ServerBuild } from "@remix-run/node";
import { createRequestHandler } from "@remix-run/server-runtime";
import type { PrismaClient } from "../generated/prisma/client";
import { appTestEnv } from "../../test/helpers/app-env";
import { createTestDatabaseUrl } from "../../test/helpers/test-db";
import { LOCALE_COOKIE, localeFromRequest } from "../i18n/locale";
import type * as RootRoute from "../root";
import type * as AppRoute from "./app";
import { REMIX_FUTURE } from "../remix-future";

vi.mock("../auth.server", () => ({
  requireAdmin: async () => ({
    admin: {},
    shop: "shop-a.myshopify.com",
    session: { id: "offline_shop-a.myshopify.com" },
    demo: false,
  }),
}));

const database = createTestDatabaseUrl();
let db: PrismaClient;
let app: typeof AppRoute;
let root: typeof RootRoute;

beforeAll(async () => {
  Object.assign(process.env, appTestEnv(database.url));
  db = (await import("../db.server")).default;
  app = await import("./app");
  root = await import("../root");
});

afterAll(async () => {
  await db.$disconnect();
  database.cleanup();
});

const SHOPIFY_LAUNCH = "https://etiquette.test/app?embedded=1&host=aG9zdA&locale=fr&shop=shop-a.myshopify.com";

function loaderArgs(url: string, headers: Record<string, string> = {}): LoaderFunctionArgs {
  return { request: new Request(url, { headers }), params: {}, context: {} };
}

/** What the loader hands Remix: the data and, with `data()`, its response init. */
function unwrap(result: unknown): { data: { locale: string }; headers: Headers } {
  if (result && typeof result === "object" && "type" in result && result.type === "DataWithResponseInit") {
    const { data, init } = result as unknown as { data: { locale: string }; init: ResponseInit | null };
    return { data, headers: new Headers(init?.headers) };
  }
  return { data: result as { locale: string }, headers: new Headers() };
}

/** The cookie a browser would send back for the Set-Cookie values. */
function cookieFrom(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

describe("app layout loader", () => {
  it("sets the locale cookie when Shopify opens the app with ?locale=", async () => {
    const { data, headers } = unwrap(await app.loader(loaderArgs(SHOPIFY_LAUNCH, { "accept-language": "en-US" })));
    expect(data.locale).toBe("fr");
    const [cookie] = headers.getSetCookie();
    expect(cookie).toMatch(new RegExp(`^${LOCALE_COOKIE}=fr;`));
    for (const attribute of ["Path=/", "HttpOnly", "Secure", "SameSite=None", "Partitioned"])
      expect(cookie).toContain(attribute);
    expect(cookie).toMatch(/Max-Age=\d{6,}/);
  });

  it("uses the cookie on a bare /app URL, over the browser's language, and does not set it again", async () => {
    const { data, headers } = unwrap(
      await app.loader(
        loaderArgs("https://etiquette.test/app/labels", { cookie: `${LOCALE_COOKIE}=fr`, "accept-language": "en-US" }),
      ),
    );
    expect(data.locale).toBe("fr");
    expect(headers.getSetCookie()).toEqual([]);
  });

  it("the headers export keeps Shopify's (parent) headers and adds the loader's cookie", async () => {
    const { headers: loaderHeaders } = unwrap(await app.loader(loaderArgs(SHOPIFY_LAUNCH)));
    const parentHeaders = new Headers({
      "Content-Security-Policy": "frame-ancestors https://shop-a.myshopify.com https://admin.shopify.com;",
    });
    const headers = new Headers(
      (app.headers as Exclude<HeadersFunction, undefined>)({
        loaderHeaders,
        parentHeaders,
        actionHeaders: new Headers(),
        errorHeaders: undefined,
      }),
    );
    expect(headers.get("Content-Security-Policy")).toContain("frame-ancestors");
    expect(cookieFrom(headers)).toBe(`${LOCALE_COOKIE}=fr`);
  });

  it("the root loader (<html lang>) reads the cookie too", async () => {
    const result = await root.loader(
      loaderArgs("https://etiquette.test/app/settings", { cookie: `${LOCALE_COOKIE}=fr`, "accept-language": "en" }),
    );
    expect(unwrap(result).data.locale).toBe("fr");
  });
});

describe("through Remix's request handler", () => {
  /** A child of the layout, like app.orders.$id: its loader and action read the language from the request. */
  const child = {
    loader: async ({ request }: LoaderFunctionArgs) => ({ locale: localeFromRequest(request) }),
    action: async ({ request }: ActionFunctionArgs) => ({ locale: localeFromRequest(request) }),
    default: () => null,
  };

  function handler() {
    const build = {
      mode: "test",
      entry: {
        // Document requests: no rendering, just the status and headers Remix computed for the page.
        module: {
          default: (_request: Request, status: number, headers: Headers) => new Response("page", { status, headers }),
        },
      },
      routes: {
        root: { id: "root", path: "", module: root },
        "routes/app": { id: "routes/app", parentId: "root", path: "app", module: app },
        "routes/app.orders.$id": {
          id: "routes/app.orders.$id",
          parentId: "routes/app",
          path: "orders/:id",
          module: child,
        },
      },
      assets: { entry: { module: "/entry.js", imports: [] }, routes: {}, url: "/manifest.js", version: "test" },
      publicPath: "/",
      assetsBuildDirectory: "public/build",
      future: REMIX_FUTURE,
      isSpaMode: false,
    } as unknown as ServerBuild;
    return createRequestHandler(build, "test");
  }

  it("sends the cookie on the page Shopify opens, and the child route's next post keeps the language", async () => {
    const handle = handler();
    const page = await handle(
      new Request("https://etiquette.test/app/orders/1?embedded=1&locale=fr&shop=shop-a.myshopify.com", {
        headers: { "accept-language": "en" },
      }),
    );
    expect(page.status).toBe(200);
    const cookie = cookieFrom(page.headers);
    expect(cookie).toBe(`${LOCALE_COOKIE}=fr`);

    // The browser's next request: a form post to the bare URL (single fetch), with the cookie and an English browser.
    const post = await handle(
      new Request("https://etiquette.test/app/orders/1.data", {
        method: "POST",
        headers: { cookie, "accept-language": "en", "content-type": "application/x-www-form-urlencoded" },
        body: "intent=retry",
      }),
    );
    expect(post.status).toBe(200);
    expect(await post.text()).toContain('"locale","fr"');
  });

  it("sends the cookie on a single-fetch data request that carries ?locale=", async () => {
    const response = await handler()(
      new Request("https://etiquette.test/app/orders/1.data?locale=fr", { headers: { "accept-language": "en" } }),
    );
    expect(cookieFrom(response.headers)).toBe(`${LOCALE_COOKIE}=fr`);
  });
});
