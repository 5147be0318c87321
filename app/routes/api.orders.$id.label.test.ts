/**
 * The order action's API with real session tokens: HS256 JWTs signed with the app's API secret, carrying the claims
 * Shopify sends (iss, dest, aud, sub, exp, nbf, iat, jti, sid), checked by the Shopify library itself
 * (`authenticate.admin`) with the shops' offline sessions in the database. Demo mode is off here: the token path.
 * Valid → the data of the token's shop only; expired, signed with another secret, for another app or shop, missing →
 * no data. The summary and purchase are replaced by recorders (tested against the emulators in
 * test/integration/order-label-api.test.ts), so no network is used.
 */
import { createHmac, randomUUID } from "node:crypto";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import type { PrismaClient } from "../generated/prisma/client";
import { appTestEnv, TEST_API_KEY } from "../../test/helpers/app-env";
import type * as OrderLabelApi from "../extensions/order-label-api.server";
import type * as Route from "./api.orders.$id.label";
import { createTestDatabaseUrl } from "../../test/helpers/test-db";

const calls = vi.hoisted(() => ({ summary: [] as { shop: string; orderId: string; locale: string }[], create: [] as { shop: string; orderId: string; locale: string }[] }));

vi.mock("../extensions/order-label-api.server", async (original) => ({
  ...(await original<typeof OrderLabelApi>()),
  loadOrderLabelSummary: async (_db: unknown, _admin: unknown, shop: string, orderId: string, locale: string) => {
    calls.summary.push({ shop, orderId, locale });
    return { orderId: `gid://shopify/Order/${orderId}`, orderName: `#${orderId}`, shopSeen: shop, state: "ready" };
  },
  createOrderLabel: async (context: { shop: string }, orderId: string, locale: string) => {
    calls.create.push({ shop: context.shop, orderId, locale });
    return { outcome: "labelled", shopSeen: context.shop };
  },
}));
vi.mock("../labels/context.server", () => ({
  labelContextFromAdmin: async (shop: string) => ({ shop }),
}));

const SHOP_A = "shop-a.myshopify.com";
const SHOP_B = "shop-b.myshopify.com";
const database = createTestDatabaseUrl();
let db: PrismaClient;
let route: typeof Route;

/**
 * Shopify's token exchange, for a shop with no offline session: it refuses the token (as Shopify does for a shop that
 * has not installed the app). Any other outgoing request fails the test.
 */
const exchanges: string[] = [];
const shopify = setupServer(
  http.post("https://:shop/admin/oauth/access_token", ({ params }) => {
    exchanges.push(String(params.shop));
    return HttpResponse.json({ error: "invalid_subject_token", error_description: "not installed" }, { status: 400 });
  }),
);

const base64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

/** A session token as the admin signs it (HS256 with the app's secret). */
function sessionToken(claims: Partial<Record<string, string | number>> = {}, secret = API_SECRET_KEY): string {
  const now = Math.floor(Date.now() / 1000);
  const shop = String(claims.shop ?? SHOP_A);
  const payload = {
    iss: `https://${shop}/admin`,
    dest: `https://${shop}`,
    aud: TEST_API_KEY,
    sub: "84738473",
    exp: now + 60,
    nbf: now - 5,
    iat: now - 5,
    jti: randomUUID(),
    sid: randomUUID(),
    ...claims,
  };
  delete (payload as Record<string, unknown>).shop;
  const unsigned = `${base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }))}.${base64url(JSON.stringify(payload))}`;
  return `${unsigned}.${createHmac("sha256", secret).update(unsigned).digest("base64url")}`;
}

function request(method: "GET" | "POST", token?: string, orderId = "1001"): { request: Request; params: { id: string }; context: object } {
  const headers = new Headers({ Origin: "https://admin.shopify.com", Accept: "application/json" });
  if (token) headers.set("Authorization", `Bearer ${token}`);
  if (method === "POST") headers.set("Content-Type", "application/json");
  return {
    request: new Request(`https://etiquette.test/api/orders/${orderId}/label?locale=fr`, { method, headers, body: method === "POST" ? "{}" : undefined }),
    params: { id: orderId },
    context: {},
  };
}

/** The answer, whether the route returned it or the library threw it. */
async function answer(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

const get = (token?: string, orderId?: string) => answer(() => route.loader(request("GET", token, orderId) as LoaderFunctionArgs));
const post = (token?: string) => answer(() => route.action(request("POST", token) as ActionFunctionArgs));

beforeAll(async () => {
  shopify.listen({ onUnhandledRequest: "error" });
  Object.assign(process.env, appTestEnv(database.url), { ETIQUETTE_DEMO: "" });
  db = (await import("../db.server")).default;
  const far = new Date(Date.now() + 365 * 24 * 3600 * 1000);
  for (const shop of [SHOP_A, SHOP_B]) {
    await db.session.create({
      data: { id: `offline_${shop}`, shop, state: "", isOnline: false, scope: "read_orders,write_orders", accessToken: `token-${shop}`, expires: far, refreshToken: "r", refreshTokenExpires: far },
    });
  }
  route = await import("./api.orders.$id.label");
});
afterAll(async () => {
  shopify.close();
  await db.$disconnect();
  database.cleanup();
});
beforeEach(() => {
  calls.summary.length = 0;
  calls.create.length = 0;
});

describe("GET /api/orders/:id/label with a session token", () => {
  it("a valid token gets its own shop's summary, in the caller's language, with CORS for the admin", async () => {
    const response = await get(sessionToken());
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ orderName: "#1001", shopSeen: SHOP_A });
    expect(calls.summary).toEqual([{ shop: SHOP_A, orderId: "1001", locale: "fr" }]);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBeTruthy();
  });

  it("a valid token of the other shop gets that shop's data, never shop A's", async () => {
    const response = await get(sessionToken({ shop: SHOP_B }));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ shopSeen: SHOP_B });
    expect(calls.summary.map((call) => call.shop)).toEqual([SHOP_B]);
  });

  it.each([
    ["expired", () => sessionToken({ exp: Math.floor(Date.now() / 1000) - 120, iat: Math.floor(Date.now() / 1000) - 300, nbf: Math.floor(Date.now() / 1000) - 300 })],
    ["signed with another secret", () => sessionToken({}, "not-the-app-secret")],
    ["issued for another app (aud)", () => sessionToken({ aud: "another-app-key" })],
    ["for a shop that is not installed", () => sessionToken({ shop: "shop-c.myshopify.com" })],
    ["missing", () => undefined],
  ])("a token %s gets no data", async (_case, token) => {
    const response = await get(token());
    expect(response.status).toBe(401);
    expect(calls.summary).toEqual([]);
    const body = await response.text();
    expect(body).not.toContain("#1001");
  });

  it("the missing token's 401 is JSON in the caller's language, and the not-installed shop was refused by Shopify's token exchange", async () => {
    const response = await get(undefined);
    expect(response.status).toBe(401);
    expect(((await response.json()) as { message: string }).message).toMatch(/admin Shopify/);
    expect(exchanges).toContain("shop-c.myshopify.com");
  });

  it("answers the admin's CORS preflight (OPTIONS, no token) from the loader", async () => {
    const preflight = new Request("https://etiquette.test/api/orders/1001/label", {
      method: "OPTIONS",
      headers: { Origin: "https://admin.shopify.com", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,content-type" },
    });
    const response = await answer(() => route.loader({ request: preflight, params: { id: "1001" }, context: {} } as LoaderFunctionArgs));
    expect(response.status).toBe(204);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBeTruthy();
    expect(response.headers.get("Access-Control-Allow-Headers")?.toLowerCase()).toContain("authorization");
    expect(calls.summary).toEqual([]);
  });

  it("refuses an order id Shopify does not give, in the caller's language", async () => {
    const response = await get(sessionToken(), "1001;drop");
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/identifiant de commande/);
    expect(calls.summary).toEqual([]);
  });
});

describe("POST /api/orders/:id/label (Create label) with a session token", () => {
  it("a valid token creates through the token's shop", async () => {
    const response = await post(sessionToken({ shop: SHOP_B }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ outcome: "labelled", shopSeen: SHOP_B });
    expect(calls.create).toEqual([{ shop: SHOP_B, orderId: "1001", locale: "fr" }]);
  });

  it.each([
    ["expired", () => sessionToken({ exp: Math.floor(Date.now() / 1000) - 120, iat: Math.floor(Date.now() / 1000) - 300, nbf: Math.floor(Date.now() / 1000) - 300 })],
    ["signed with another secret", () => sessionToken({}, "not-the-app-secret")],
    ["missing", () => undefined],
  ])("a token %s buys nothing", async (_case, token) => {
    const response = await post(token());
    expect(response.status).toBe(401);
    expect(calls.create).toEqual([]);
  });
});
