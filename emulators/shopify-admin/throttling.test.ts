import { afterEach, describe, expect, it } from "vitest";
import { bucketSettingsFromEnv, EmulatorEnvError } from "./env";
import { startTestEmulator, type TestEmulator } from "./test-helpers";

let t: TestEmulator | undefined;
afterEach(async () => {
  await t?.emulator.close();
  t = undefined;
});

const TWENTY_ORDERS = "{ orders(first: 20) { nodes { id } } }"; // 2 + 20 x 1 = 22 points

describe("cost-based throttling", () => {
  it("reports the cost model: objects 1, scalars 0, connections 2 + page size x node cost, mutations 10", async () => {
    t = await startTestEmulator();
    const cost = async (query: string) => (await t!.post(query)).body.extensions?.cost?.requestedQueryCost;
    expect(await cost("{ shop { name } }")).toBe(1);
    expect(await cost("{ shop { name billingAddress { city } } }")).toBe(2);
    expect(await cost("{ orders(first: 10) { nodes { id } } }")).toBe(12);
    expect(await cost("{ orders(first: 10) { edges { cursor node { id shippingAddress { city } } } pageInfo { hasNextPage } } }")).toBe(22);
    expect(await cost("{ orders(first: 5) { nodes { id lineItems(first: 10) { nodes { id variant { id } } } } } }")).toBe(2 + 5 * (1 + 2 + 10 * 2));
    expect(await cost('mutation { fulfillmentCancel(id: "gid://shopify/Fulfillment/1") { userErrors { message } } }')).toBe(10);
  });

  it("charges the requested cost up front and refunds what was not returned", async () => {
    t = await startTestEmulator({ now: () => 0 });
    const { body } = await t.post('{ orders(first: 100, query: "name:#1002") { nodes { id } } }');
    expect(body.extensions?.cost).toEqual({
      requestedQueryCost: 102,
      actualQueryCost: 3,
      throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 1997, restoreRate: 100 },
    });
  });

  it("throttles when the bucket cannot pay, then recovers as the clock restores points", async () => {
    let clock = 1_000_000;
    t = await startTestEmulator({ bucket: { size: 50, restoreRate: 10 }, now: () => clock });
    const first = await t.post(TWENTY_ORDERS);
    expect(first.body.extensions?.cost?.throttleStatus).toEqual({ maximumAvailable: 50, currentlyAvailable: 28, restoreRate: 10 });
    const second = await t.post(TWENTY_ORDERS);
    expect(second.body.extensions?.cost?.throttleStatus.currentlyAvailable).toBe(6);
    const throttled = await t.post(TWENTY_ORDERS);
    expect(throttled.status).toBe(200);
    expect(throttled.body.data).toBeUndefined();
    expect(throttled.body.errors).toEqual([
      { message: "Throttled", extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" } },
    ]);
    expect(throttled.body.extensions?.cost).toEqual({
      requestedQueryCost: 22,
      actualQueryCost: null,
      throttleStatus: { maximumAvailable: 50, currentlyAvailable: 6, restoreRate: 10 },
    });
    clock += 1500; // +15 points: 21, still one short
    expect((await t.post(TWENTY_ORDERS)).body.errors?.[0]?.extensions.code).toBe("THROTTLED");
    clock += 100; // +1 point: 22
    const recovered = await t.post(TWENTY_ORDERS);
    expect(recovered.body.errors).toBeUndefined();
    expect(recovered.body.extensions?.cost?.throttleStatus.currentlyAvailable).toBe(0);
    clock += 60_000; // never above the bucket size
    const full = await t.post("{ shop { name } }");
    expect(full.body.extensions?.cost?.throttleStatus.currentlyAvailable).toBe(49);
  });

  it("rejects a single query above 1000 points with MAX_COST_EXCEEDED, without charging it", async () => {
    t = await startTestEmulator({ now: () => 0 });
    const { body } = await t.post("{ orders(first: 250) { nodes { lineItems(first: 250) { nodes { id } } } } }");
    expect(body.errors?.[0]?.extensions.code).toBe("MAX_COST_EXCEEDED");
    expect(body.extensions?.cost?.throttleStatus.currentlyAvailable).toBe(2000);
  });

  it("gives parse, validation and variable errors a zero cost extension with the bucket's status, without charging", async () => {
    let clock = 1_000_000;
    t = await startTestEmulator({ bucket: { size: 50, restoreRate: 10 }, now: () => clock });
    expect((await t.post(TWENTY_ORDERS)).body.extensions?.cost?.throttleStatus.currentlyAvailable).toBe(28);
    const status = { maximumAvailable: 50, currentlyAvailable: 28, restoreRate: 10 };
    const rejected = [
      ["parseError", "{ shop { name }"],
      ["undefinedField", "{ shop { noSuchField } }"],
      ["missingRequiredArguments", "{ order { id } }"],
      ["INVALID_VARIABLE", "query($n: Int!) { orders(first: $n) { nodes { id } } }"],
      ["OPERATION_NOT_FOUND", "query A { shop { name } } query B { shop { name } }"],
    ] as const;
    for (const [code, query] of rejected) {
      const { status: httpStatus, body } = await t.post(query, code === "INVALID_VARIABLE" ? { n: "twenty" } : {});
      expect(httpStatus, query).toBe(200);
      expect(body.errors?.[0]?.extensions.code, query).toBe(code);
      expect(body.data, query).toBeUndefined();
      expect(body.extensions?.cost, query).toEqual({ requestedQueryCost: 0, actualQueryCost: null, throttleStatus: status });
    }
    // The bucket still restores while requests are rejected, and reports it.
    clock += 1000;
    expect((await t.post("{ shop { nope } }")).body.extensions?.cost?.throttleStatus.currentlyAvailable).toBe(38);
    // A wrong token stays a bare 401, as on Shopify; a missing query is a bare 400.
    const wrong = await t.post("{ shop { nope } }", {}, "shpat_wrong");
    expect(wrong).toEqual({ status: 401, body: { errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" } });
    const missing = await t.post("   ");
    expect(missing).toEqual({ status: 400, body: { errors: { query: "Required parameter missing or invalid" } } });
  });

  it("keeps one bucket per shop", async () => {
    const seed = JSON.parse(await import("node:fs").then((fs) => fs.readFileSync(new URL("./seed/default.json", import.meta.url), "utf8")));
    const other = { ...seed.shops[0], domain: "other-shop.myshopify.com", accessToken: "shpat_other_shop", orders: [] };
    t = await startTestEmulator({ seed: { shops: [seed.shops[0], other] }, bucket: { size: 30, restoreRate: 1 }, now: () => 0 });
    expect((await t.post(TWENTY_ORDERS)).body.errors).toBeUndefined();
    expect((await t.post(TWENTY_ORDERS)).body.errors?.[0]?.extensions.code).toBe("THROTTLED");
    const otherShop = await t.post("{ orders(first: 20) { nodes { id } } }", {}, "shpat_other_shop");
    expect(otherShop.body.errors).toBeUndefined();
    expect(otherShop.body.data?.orders.nodes).toEqual([]);
  });

  it("models each plan's bucket and restore rate, chosen per shop in the seed", async () => {
    const seed = JSON.parse(await import("node:fs").then((fs) => fs.readFileSync(new URL("./seed/default.json", import.meta.url), "utf8")));
    const shop = (name: string, plan?: string) => ({ ...seed.shops[0], domain: `${name}.myshopify.com`, accessToken: `shpat_${name}_shop`, orders: [], ...(plan ? { plan } : {}) });
    let clock = 0;
    t = await startTestEmulator({
      seed: { shops: [shop("standard", "standard"), shop("advanced", "advanced"), shop("plus", "plus"), shop("unnamed")] },
      now: () => clock,
    });
    const status = async (name: string) => (await t!.post("{ shop { name } }", {}, `shpat_${name}_shop`)).body.extensions?.cost?.throttleStatus;
    expect(await status("standard")).toEqual({ maximumAvailable: 2000, currentlyAvailable: 1999, restoreRate: 100 });
    expect(await status("advanced")).toEqual({ maximumAvailable: 4000, currentlyAvailable: 3999, restoreRate: 200 });
    expect(await status("plus")).toEqual({ maximumAvailable: 20000, currentlyAvailable: 19999, restoreRate: 1000 });
    expect(await status("unnamed")).toEqual({ maximumAvailable: 2000, currentlyAvailable: 1999, restoreRate: 100 });
    // Each restores at its own rate: drain 900 points from the Advanced shop, then 1 s restores 200.
    const big = "{ orders(first: 1) { nodes { lineItems(first: 99) { nodes { id variant { id inventoryItem { id } } } } } } }";
    const drained = await t.post(big, {}, "shpat_advanced_shop");
    expect(drained.body.errors).toBeUndefined();
    const after = drained.body.extensions!.cost!.throttleStatus.currentlyAvailable;
    clock += 1000;
    expect((await status("advanced"))?.currentlyAvailable).toBe(Math.min(4000, after + 200) - 1);
    const health = (await t.inspect("/__admin/health")).body as { buckets: Record<string, { plan: string; size: number; restoreRate: number }> };
    expect(health.buckets["plus.myshopify.com"]).toEqual({ plan: "plus", size: 20000, restoreRate: 1000 });
    expect(health.buckets["unnamed.myshopify.com"]).toEqual({ plan: "standard", size: 2000, restoreRate: 100 });
  });

  it("gives shops whose seed names no plan the plan chosen by option (SHOPIFY_EMULATOR_PLAN)", async () => {
    t = await startTestEmulator({ ...bucketSettingsFromEnv({ SHOPIFY_EMULATOR_PLAN: "plus" }), now: () => 0 });
    const { body } = await t.post("{ shop { name } }");
    expect(body.extensions?.cost?.throttleStatus).toEqual({ maximumAvailable: 20000, currentlyAvailable: 19999, restoreRate: 1000 });
  });

  it("reads the plan and an explicit bucket from the environment, naming a bad value", () => {
    expect(bucketSettingsFromEnv({})).toEqual({ plan: undefined, bucket: undefined });
    expect(bucketSettingsFromEnv({ SHOPIFY_EMULATOR_PLAN: "advanced", SHOPIFY_EMULATOR_BUCKET_SIZE: "" })).toEqual({ plan: "advanced", bucket: undefined });
    expect(bucketSettingsFromEnv({ SHOPIFY_EMULATOR_BUCKET_SIZE: "50" })).toEqual({ plan: undefined, bucket: { size: 50, restoreRate: 100 } });
    expect(() => bucketSettingsFromEnv({ SHOPIFY_EMULATOR_PLAN: "gold" })).toThrow(EmulatorEnvError);
    expect(() => bucketSettingsFromEnv({ SHOPIFY_EMULATOR_PLAN: "gold" })).toThrow(/SHOPIFY_EMULATOR_PLAN.*standard, advanced, plus/);
    expect(() => bucketSettingsFromEnv({ SHOPIFY_EMULATOR_RESTORE_RATE: "fast" })).toThrow(/SHOPIFY_EMULATOR_RESTORE_RATE/);
  });
});
