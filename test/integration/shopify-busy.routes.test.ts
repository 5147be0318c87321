/**
 * Issue 10 item 4: when the shop's Shopify budget stays short past the wait bound, the order page and the orders list
 * answer 503 "Shopify is busy" (which the layout's boundary shows, translated, and retries) and "Create label" answers
 * a notice; no 500 and nothing bought. The routes are called as Remix calls them, with the app's real Admin client
 * against the Shopify emulator (a small bucket, and a clock the test moves) and the label sandbox.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { DEMO_SHOP, DEMO_TOKEN, startTestEmulator, type TestEmulator } from "../../emulators/shopify-admin/test-helpers";
import { DEMO_ACCOUNT, startLabelSandbox, type LabelSandbox } from "../../emulators/label-sandbox/server";
import type { PrismaClient } from "../../app/generated/prisma/client";
import { withShopifyBudget, type AdminClock } from "../../app/shopify/admin-client";
import { InProcessShopifyBudget } from "../../app/shopify/budget";
import { shopifyBusyFromRouteError } from "../../app/shopify/busy";
import { appTestEnv } from "../helpers/app-env";
import { createTestDatabaseUrl } from "../helpers/test-db";
import { realAdminFor } from "../helpers/real-admin";

const SWISS_ORDER = "7100001035";

const signedIn = vi.hoisted(() => ({ current: undefined as undefined | { shop: string; admin: unknown } }));
vi.mock("../../app/auth.server", () => ({
  requireAdmin: async () => {
    if (!signedIn.current) throw new Response("Unauthorized", { status: 401 });
    const { shop, admin } = signedIn.current;
    return { admin, shop, session: { id: `offline_${shop}`, shop }, demo: false };
  },
}));

type Route = {
  loader?: (args: LoaderFunctionArgs) => Promise<unknown>;
  action?: (args: ActionFunctionArgs) => Promise<unknown>;
};

const database = createTestDatabaseUrl();
let db: PrismaClient;
let emulator: TestEmulator;
let sandbox: LabelSandbox;
let libraryAdmin: Awaited<ReturnType<typeof realAdminFor>>;
let routes: Record<"home" | "order" | "settings", Route>;
const clock: AdminClock & { time: number } = {
  time: 1_000_000,
  now: () => clock.time,
  sleep: async (ms: number) => {
    clock.time += ms;
  },
};

beforeAll(async () => {
  // 300 points restoring 10 per second: one page load fits, a drained bucket takes seconds to refill.
  [emulator, sandbox] = await Promise.all([startTestEmulator({ bucket: { size: 300, restoreRate: 10 }, now: clock.now }), startLabelSandbox({ port: 0 })]);
  Object.assign(process.env, appTestEnv(database.url), { LABEL_SERVICE_STAGING_URL: sandbox.url });
  db = (await import("../../app/db.server")).default;
  libraryAdmin = await realAdminFor(emulator.emulator.url, db, DEMO_SHOP, DEMO_TOKEN);
  routes = {
    home: await import("../../app/routes/app._index"),
    order: await import("../../app/routes/app.orders.$id"),
    settings: await import("../../app/routes/app.settings"),
  };
  const { saveShippingSettings } = await import("../../app/settings/shipping-settings.server");
  const { DEMO_SHIPPING_SETTINGS } = await import("../../app/demo/seed-demo-shop.server");
  await saveShippingSettings(db, DEMO_SHOP, DEMO_SHIPPING_SETTINGS);
});

afterAll(async () => {
  await Promise.all([emulator.emulator.close(), sandbox.close()]);
  await db.$disconnect();
  database.cleanup();
});

beforeEach(async () => {
  await fetch(`${sandbox.url}/__admin/reset`, { method: "POST" });
  clock.time += 60_000; // a full bucket
  // The page may wait 2 s for Shopify's budget; this shop's budget is tracked from the first answer on.
  signedIn.current = { shop: DEMO_SHOP, admin: withShopifyBudget(libraryAdmin, { shop: DEMO_SHOP, budget: new InProcessShopifyBudget(clock.now), clock, maxWaitMs: 2000 }) };
});

/** Another client of the same app and shop spends the bucket down to about nothing. */
async function drainBucket() {
  const heavy = "{ orders(first: 29) { nodes { id } } }"; // 31 points
  for (;;) {
    const { body } = await emulator.post(heavy);
    if (body.errors) return;
  }
}

function get(route: Route, path: string, params: Record<string, string> = {}) {
  return route.loader!({ request: new Request(`https://app.test${path}`), params, context: {} });
}

function post(route: Route, path: string, fields: Record<string, string>, params: Record<string, string> = {}, locale = "en") {
  const request = new Request(`https://app.test${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": locale },
  });
  return route.action!({ request, params, context: {} });
}

async function thrownResponse(promise: Promise<unknown>): Promise<Response> {
  try {
    await promise;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
  throw new Error("expected the route to throw a Response");
}

describe("Shopify's budget stays short longer than a page may wait", () => {
  it("the order page answers 503 'Shopify is busy' with Retry-After, which the layout's boundary recognises; later it loads", async () => {
    await drainBucket();
    const response = await thrownResponse(get(routes.order, `/app/orders/${SWISS_ORDER}`, { id: SWISS_ORDER }));
    expect(response.status).toBe(503);
    const seconds = Number(response.headers.get("Retry-After"));
    expect(seconds).toBeGreaterThan(2);
    const body = await response.json();
    expect(shopifyBusyFromRouteError({ status: response.status, data: body })).toEqual({ code: "shopify_busy", retryAfterSeconds: seconds });
    // Once Shopify's bucket has refilled, the same page loads. Retry-After is the wait of the call that was refused;
    // the page makes more than one call (the order, then the shop's time zone), so wait for a full bucket here.
    clock.time += Math.max(seconds, 30) * 1000;
    const page = (await get(routes.order, `/app/orders/${SWISS_ORDER}`, { id: SWISS_ORDER })) as { orderName: string };
    expect(page.orderName).toBe("#1035");
  });

  it("the orders list answers the same 503", async () => {
    await drainBucket();
    const response = await thrownResponse(get(routes.home, "/app"));
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ code: "shopify_busy" });
  });

  it("'Create label' answers 'Shopify is busy' in the merchant's language and buys nothing", async () => {
    const saved = await post(routes.settings, "/app/settings", { intent: "saveAccount", environment: "staging", ...DEMO_ACCOUNT });
    expect(saved).toMatchObject({ ok: true });
    await drainBucket();
    const en = (await post(routes.order, `/app/orders/${SWISS_ORDER}`, { intent: "create" }, { id: SWISS_ORDER })) as { tone: string; notice: { key: string; values: { seconds: string } } };
    expect(en.tone).toBe("warning");
    expect(en.notice.key).toBe("shopify.busy.action");
    expect(Number(en.notice.values.seconds)).toBeGreaterThan(0);
    const { translator } = await import("../../app/i18n/translate.server");
    expect(translator("en")("shopify.busy.action", en.notice.values)).toMatch(/^Shopify is busy.*nothing was bought/);
    expect(translator("fr")("shopify.busy.action", en.notice.values)).toMatch(/^Shopify est occupé.*rien n'a été acheté/);
    const bought = (await (await fetch(`${sandbox.url}/__admin/labels`)).json()) as { count: number };
    expect(bought.count).toBe(0);
    expect(await db.purchaseAttempt.count()).toBe(0);
  });
});
