/**
 * readOrdersForLabel against the Shopify emulator's bulk operations: the very orders fetchOrderForLabel reads, for
 * every order of the demo shop, for a handful of points in all.
 */
import { parse, validate } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startShopifyEmulator, type ShopifyEmulator } from "../../../emulators/shopify-admin/server";
import { DEMO_TOKEN } from "../../../emulators/shopify-admin/test-helpers";
import { loadAdminSchema } from "../../../shopify-schema/load";
import { costRecorder, type OperationPoints } from "../../../test/helpers/cost-recorder";
import type { AdminGraphqlClient } from "../admin-client";
import { fetchOrderForLabel } from "./order-for-label";
import { assembleOrders, bulkQueryFor, FULFILLMENT_ORDER_LINES_BULK_QUERY, ORDERS_FOR_LABEL_BULK_QUERY, readOrdersForLabel } from "./orders-bulk";

function emulatorClient(emulator: ShopifyEmulator): AdminGraphqlClient {
  return {
    graphql: (query, options) =>
      fetch(`${emulator.url}/admin/api/2026-10/graphql.json`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Shopify-Access-Token": DEMO_TOKEN },
        body: JSON.stringify({ query, variables: options?.variables ?? {} }),
      }),
  };
}

const total = (tally: Map<string, OperationPoints>) => [...tally.values()].reduce((sum, entry) => sum + entry.actual, 0);

describe("the bulk query (static)", () => {
  it("validates against the pinned schema, without page sizes, searching by ids", () => {
    const orders = bulkQueryFor(ORDERS_FOR_LABEL_BULK_QUERY, "Order", ["gid://shopify/Order/1", "gid://shopify/Order/2"]);
    const lines = bulkQueryFor(FULFILLMENT_ORDER_LINES_BULK_QUERY, "FulfillmentOrder", ["gid://shopify/FulfillmentOrder/3"]);
    for (const query of [orders, lines]) expect(validate(loadAdminSchema(), parse(query)).map((e) => e.message)).toEqual([]);
    expect(orders).toContain('orders(query: "id:1 OR id:2")');
    expect(lines).toContain('query: "id:3"');
    expect(ORDERS_FOR_LABEL_BULK_QUERY + FULFILLMENT_ORDER_LINES_BULK_QUERY).not.toMatch(/first:/);
    expect(() => bulkQueryFor(ORDERS_FOR_LABEL_BULK_QUERY, "Order", ["gid://shopify/LineItem/1"])).toThrow(/not a Order id/);
  });

  it("puts children back under their parents whatever the order of the lines", () => {
    const money = { shopMoney: { amount: "1.0", currencyCode: "EUR" }, presentmentMoney: { amount: "1.0", currencyCode: "EUR" } };
    const lines = [
      { id: "gid://shopify/FulfillmentOrderLineItem/9", remainingQuantity: 1, totalQuantity: 1, lineItem: { id: "gid://shopify/LineItem/5" }, __parentId: "gid://shopify/FulfillmentOrder/7" },
      { id: "gid://shopify/FulfillmentOrder/7", status: "OPEN", deliveryMethod: null, supportedActions: [], assignedLocation: { name: "A", countryCode: "FR" }, __parentId: "gid://shopify/Order/1" },
      { id: "gid://shopify/Order/1", name: "#1", displayFulfillmentStatus: "UNFULFILLED", currencyCode: "EUR", presentmentCurrencyCode: "EUR", totalShippingPriceSet: money },
      { id: "gid://shopify/LineItem/5", title: "T", name: "T", quantity: 1, currentQuantity: 1, requiresShipping: true, isGiftCard: false, priceAfterAllDiscountsBeforeTaxesSet: money, variant: null, __parentId: "gid://shopify/Order/1" },
    ];
    const jsonl = (items: object[]) => items.map((line) => JSON.stringify(line)).join("\n");
    const orders = assembleOrders(jsonl(lines.slice(1)), jsonl([lines[0]!, { id: "gid://shopify/FulfillmentOrder/7" }]));
    const order = orders.get("gid://shopify/Order/1");
    expect(order?.lineItems.nodes.map((line) => line.id)).toEqual(["gid://shopify/LineItem/5"]);
    expect(order?.fulfillmentOrders.nodes[0]?.lineItems.nodes.map((line) => line.id)).toEqual(["gid://shopify/FulfillmentOrderLineItem/9"]);
    expect(() => assembleOrders(JSON.stringify({ id: "gid://shopify/LineItem/5", __parentId: "gid://shopify/Order/404" }))).toThrow(/unknown parent/);
  });
});

describe("readOrdersForLabel against the emulator", () => {
  let emulator: ShopifyEmulator;
  let orderIds: string[];
  beforeAll(async () => {
    emulator = await startShopifyEmulator({ port: 0, bulkDurationMs: 50 });
    const response = await emulatorClient(emulator).graphql("{ orders(first: 250) { nodes { id } } }");
    orderIds = ((await response.json()) as { data: { orders: { nodes: { id: string }[] } } }).data.orders.nodes.map((node) => node.id);
  });
  afterAll(async () => {
    await emulator.close();
  });

  it("returns exactly what fetchOrderForLabel returns, for every order of the demo, for a few points in all", async () => {
    expect(orderIds.length).toBeGreaterThan(20);
    const tally = new Map<string, OperationPoints>();
    const bulk = await readOrdersForLabel(costRecorder(emulatorClient(emulator), tally), [...orderIds, "gid://shopify/Order/1"], { pollMs: 20 });
    const bulkPoints = total(tally);
    expect(bulk.get("gid://shopify/Order/1")).toBeNull();

    const direct = new Map<string, OperationPoints>();
    const client = costRecorder(emulatorClient(emulator), direct);
    for (const id of orderIds) expect(bulk.get(id)).toEqual(await fetchOrderForLabel(client, id));
    const directPoints = total(direct);

    // The mutation (10) and a few one-point polls, against ~25-80 points per order read directly.
    expect(tally.get("OrdersForLabelBulkRun")?.calls).toBe(2);
    expect(bulkPoints).toBeLessThanOrEqual(2 * 10 + 12);
    console.log(`${orderIds.length} orders: bulk ${bulkPoints} points (${(bulkPoints / orderIds.length).toFixed(2)} per order), direct ${directPoints} (${(directPoints / orderIds.length).toFixed(1)} per order)`);
  }, 60_000);

  it("reads two chunks at once, never more, and returns what one chunk returns", async () => {
    await fetch(`${emulator.url}/__admin/reset`, { method: "POST" });
    const inner = emulatorClient(emulator);
    const open = new Set<string>();
    let most = 0;
    let started = 0;
    const client: AdminGraphqlClient = {
      graphql: async (query, options) => {
        const response = await inner.graphql(query, options);
        const body = (await response.clone().json()) as { data?: { bulkOperationRunQuery?: { bulkOperation?: { id: string } }; bulkOperation?: { status: string } } };
        const id = body.data?.bulkOperationRunQuery?.bulkOperation?.id;
        if (id) {
          if (String(options?.variables?.query).includes("orders(")) started += 1;
          open.add(id);
          most = Math.max(most, open.size);
        }
        if (body.data?.bulkOperation?.status === "COMPLETED") open.delete(String(options?.variables?.id));
        return response;
      },
    };
    const ids = orderIds.slice(0, 9);
    const heard: string[][] = [];
    const chunked = await readOrdersForLabel(client, ids, { pollMs: 20, ordersPerOperation: 3, onOrders: (orders) => heard.push(orders.map((order) => order.id)) });
    expect(heard.map((chunk) => chunk.length)).toEqual([3, 3, 3]); // each chunk heard as soon as it was read
    expect(heard.flat().sort()).toEqual([...ids].sort());
    expect(started).toBe(3); // three chunks of orders (each followed by its fulfillment orders' lines)
    expect(most).toBe(2);
    expect(chunked).toEqual(await readOrdersForLabel(inner, ids, { pollMs: 20 }));
  }, 60_000);

  it("waits for a free slot when the shop already runs 5 bulk operations", async () => {
    await fetch(`${emulator.url}/__admin/reset`, { method: "POST" }); // a full bucket again
    const client = emulatorClient(emulator);
    const runs = await Promise.all(Array.from({ length: 7 }, () => readOrdersForLabel(client, orderIds.slice(0, 3), { pollMs: 20 })));
    for (const run of runs) expect([...run.values()].every((order) => order !== null)).toBe(true);
  }, 60_000);
});
