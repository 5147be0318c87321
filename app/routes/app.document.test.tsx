/**
 * The app's pages carry one Polaris language (decision 0189): the document of a page under the layout, rendered for
 * real through Remix's request handler (root, layout, a page using Polaris), preloads only the merchant's dictionary,
 * renders Polaris's own words in that language, and has App Bridge's script only inside the admin (not in the demo).
 */
import type { ServerBuild } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { createRequestHandler, type EntryContext } from "@remix-run/server-runtime";
import { Badge } from "@shopify/polaris";
import { renderToString } from "react-dom/server";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { appTestEnv, TEST_API_KEY } from "../../test/helpers/app-env";
import { POLARIS_DICTIONARY_URLS, PolarisDictionariesContext } from "../i18n/polaris";
import { POLARIS_DICTIONARIES } from "../i18n/polaris.server";
import { REMIX_FUTURE } from "../remix-future";
import type * as RootRoute from "../root";
import type * as AppRoute from "./app";

const session = vi.hoisted(() => ({ demo: false }));
vi.mock("../auth.server", () => ({
  requireAdmin: async () => ({ admin: {}, shop: "shop-a.myshopify.com", session: {}, demo: session.demo }),
}));
vi.mock("../db.server", () => ({ default: {} }));
vi.mock("../settings/environment.server", () => ({ getEnvironment: async () => ({ environment: "staging" }) }));

const APP_BRIDGE = "https://cdn.shopify.com/shopifycloud/app-bridge.js";
let root: typeof RootRoute;
let app: typeof AppRoute;

beforeAll(async () => {
  Object.assign(process.env, appTestEnv("file:./unused.db"));
  root = await import("../root");
  app = await import("./app");
});

/** A page of the app: a Polaris badge, whose hidden tone label comes from Polaris's dictionary. */
const page = { default: () => <Badge tone="success">42</Badge> };

function handler() {
  const route = (id: string, parentId: string | undefined, path: string, hasLoader: boolean) => ({
    id,
    parentId,
    path,
    module: `/${id}.js`,
    imports: [],
    hasAction: false,
    hasLoader,
    hasClientAction: false,
    hasClientLoader: false,
    hasErrorBoundary: id !== "routes/page",
  });
  const build = {
    mode: "test",
    entry: {
      module: {
        // What entry.server renders, minus its streaming and job queue.
        default: (request: Request, status: number, headers: Headers, context: EntryContext) => {
          headers.set("Content-Type", "text/html");
          const html = renderToString(
            <PolarisDictionariesContext.Provider value={POLARIS_DICTIONARIES}>
              <RemixServer context={context} url={request.url} />
            </PolarisDictionariesContext.Provider>,
          );
          return new Response(`<!DOCTYPE html>${html}`, { status, headers });
        },
      },
    },
    routes: {
      root: { id: "root", path: "", module: root },
      "routes/app": { id: "routes/app", parentId: "root", path: "app", module: app },
      "routes/page": { id: "routes/page", parentId: "routes/app", path: "page", module: page },
      "routes/login": { id: "routes/login", parentId: "root", path: "login", module: { default: () => <p>login</p> } },
    },
    assets: {
      entry: { module: "/entry.client.js", imports: [] },
      routes: {
        root: route("root", undefined, "", true),
        "routes/app": route("routes/app", "root", "app", true),
        "routes/page": route("routes/page", "routes/app", "page", false),
        "routes/login": route("routes/login", "root", "login", false),
      },
      url: "/manifest.js",
      version: "test",
    },
    publicPath: "/",
    assetsBuildDirectory: "public/build",
    future: REMIX_FUTURE,
    isSpaMode: false,
  } as unknown as ServerBuild;
  return createRequestHandler(build, "test");
}

async function documentOf(url: string, demo: boolean): Promise<string> {
  session.demo = demo;
  const response = await handler()(new Request(url, { headers: { "accept-language": "en" } }));
  expect(response.status).toBe(200);
  return response.text();
}

const preloads = (html: string) => [...html.matchAll(/<link[^>]*data-polaris-dictionary[^>]*>/g)].map(([tag]) => tag);

describe("an app page's document", () => {
  it("in French inside the admin: French Polaris words, only the French dictionary preloaded, App Bridge's script", async () => {
    const html = await documentOf("https://etiquette.test/app/page?embedded=1&locale=fr&shop=shop-a.myshopify.com", false);
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain("Réussite"); // Polaris.Badge.TONE_LABELS.success in fr.json
    expect(html).not.toContain(">Success<");
    const [preload, ...others] = preloads(html);
    expect(others).toEqual([]);
    expect(preload).toContain(`href="${POLARIS_DICTIONARY_URLS.fr}"`);
    expect(preload).toContain('rel="preload"');
    expect(preload).toContain('as="fetch"');
    expect(preload).toContain('crossorigin="anonymous"');
    expect(preload).toContain('data-polaris-dictionary="fr"');
    expect(html).not.toContain(POLARIS_DICTIONARY_URLS.en);
    expect(html).toContain(`<script src="${APP_BRIDGE}" data-api-key="${TEST_API_KEY}"></script>`);
  });

  it("in English in the demo: English Polaris words, the English dictionary, no App Bridge", async () => {
    const html = await documentOf("https://etiquette.test/app/page?locale=en", true);
    expect(html).toContain("Success");
    expect(html).not.toContain("Réussite");
    const [preload, ...others] = preloads(html);
    expect(others).toEqual([]);
    expect(preload).toContain(`href="${POLARIS_DICTIONARY_URLS.en}"`);
    expect(preload).toContain('data-polaris-dictionary="en"');
    expect(html).not.toContain(APP_BRIDGE);
  });

  it("a page outside the layout (no Polaris from it) preloads no dictionary", async () => {
    const html = await documentOf("https://etiquette.test/login?locale=fr", false);
    expect(html).toContain("login");
    expect(preloads(html)).toEqual([]);
  });
});
