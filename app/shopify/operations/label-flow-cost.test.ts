/**
 * The label flow's reads against the emulator's cost model, on the seeded demo orders: each asks for at most 1.5x the
 * points it spends (Shopify reserves the requested cost before running a query), and none drops a line, a fulfillment
 * order, a fulfillment or a tracking number of a larger order: those are read on with follow-up pages.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../../emulators/shopify-admin/test-helpers";
import { costRecorder, type OperationPoints } from "../../../test/helpers/cost-recorder";
import type { AdminGraphqlClient } from "../admin-client";
import { fetchFulfillmentContext } from "./fulfillment";
import { fetchOrderForLabel } from "./order-for-label";

/** A client posting to the emulator with the demo shop's token (answers as the library's Response would be). */
function emulatorClient(url: string, token = "shpat_etiquette_demo"): AdminGraphqlClient {
  return {
    async graphql(query, options) {
      const response = await fetch(`${url}/admin/api/2026-10/graphql.json`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Shopify-Access-Token": token },
        body: JSON.stringify({ query, variables: options?.variables ?? {} }),
      });
      return new Response(await response.text(), { status: response.status });
    },
  };
}

/** The whole order straight from the emulator, with pages far larger than any seeded order (the reference). */
const EVERYTHING = `query Everything($id: ID!) { order(id: $id) {
  lineItems(first: 100) { nodes { id } }
  fulfillmentOrders(first: 10) { nodes { id lineItems(first: 40) { nodes { id remainingQuantity } } } }
  fulfillments(first: 20) { id trackingInfo(first: 20) { number } }
} }`;

const sum = (tally: Map<string, OperationPoints>, prefix: string) =>
  [...tally].filter(([name]) => name.startsWith(prefix)).reduce((total, [, points]) => ({ requested: total.requested + points.requested, actual: total.actual + points.actual }), { requested: 0, actual: 0 });

describe("the label flow's reads on the seeded demo orders", () => {
  let t: TestEmulator;
  let orderIds: string[];
  beforeAll(async () => {
    t = await startTestEmulator({ plan: "plus" });
    orderIds = ((await t.gql("{ orders(first: 100) { nodes { id } } }")).orders.nodes as { id: string }[]).map((order) => order.id);
  });
  afterAll(async () => {
    await t.emulator.close();
  });

  it("request at most 1.5x the points they spend, per query and with their follow-up pages", async () => {
    const tally = new Map<string, OperationPoints>();
    const admin = costRecorder(emulatorClient(t.emulator.url), tally);
    expect(orderIds.length).toBe(64);
    for (const id of orderIds) {
      await fetchOrderForLabel(admin, id);
      await fetchFulfillmentContext(admin, id);
    }
    for (const [name, points] of tally) {
      expect(points.throttled, name).toBe(0);
      expect(points.requested, `${name}: requested ${points.requested}, spent ${points.actual}`).toBeLessThanOrEqual(1.5 * points.actual);
    }
    for (const flow of ["OrderForLabel", "FulfillmentContext"]) {
      const { requested, actual } = sum(tally, flow);
      expect(requested, `${flow} with its pages: requested ${requested}, spent ${actual}`).toBeLessThanOrEqual(1.5 * actual);
    }
    // Before this trimming, OrderForLabel alone requested 940 and FulfillmentContext 673 points per order.
    expect(tally.get("OrderForLabel")!.requested / orderIds.length).toBeLessThan(100);
    expect(tally.get("FulfillmentContext")!.requested / orderIds.length).toBeLessThan(50);
  });

  it("read every line item, fulfillment order and fulfillment of every demo order, as a single large read does", async () => {
    const admin = emulatorClient(t.emulator.url);
    for (const id of orderIds) {
      const reference = (await t.gql(EVERYTHING, { id })).order as {
        lineItems: { nodes: { id: string }[] };
        fulfillmentOrders: { nodes: { id: string; lineItems: { nodes: { id: string; remainingQuantity: number }[] } }[] };
        fulfillments: { id: string; trackingInfo: { number: string }[] }[];
      };
      const order = (await fetchOrderForLabel(admin, id))!;
      expect(order.lineItems.nodes.map((line) => line.id), id).toEqual(reference.lineItems.nodes.map((line) => line.id));
      expect(order.fulfillmentOrders.nodes.map((fo) => [fo.id, fo.lineItems.nodes.map((line) => line.id)]), id).toEqual(
        reference.fulfillmentOrders.nodes.map((fo) => [fo.id, fo.lineItems.nodes.map((line) => line.id)]),
      );
      const context = (await fetchFulfillmentContext(admin, id))!;
      expect(context.fulfillmentOrders.nodes.map((fo) => [fo.id, fo.lineItems.nodes]), id).toEqual(reference.fulfillmentOrders.nodes.map((fo) => [fo.id, fo.lineItems.nodes]));
      expect(context.fulfillments.map((f) => [f.id, f.trackingInfo.map((info) => info.number)]), id).toEqual(
        reference.fulfillments.map((f) => [f.id, f.trackingInfo.map((info) => info.number)]),
      );
    }
  });
});

describe("an order larger than the first pages", () => {
  let t: TestEmulator;
  const BIG = "gid://shopify/Order/7100009001";
  beforeAll(async () => {
    const seed = JSON.parse(readFileSync(new URL("../../../emulators/shopify-admin/seed/default.json", import.meta.url), "utf8"));
    const shop = seed.shops[0];
    const template = shop.orders.find((order: { number: number }) => order.number === 1033);
    const variants = (shop.products as { variants: { id: number }[] }[]).flatMap((product) => product.variants.map((variant) => variant.id));
    // 60 lines (more than the 50 the old query read), three earlier fulfillments of one line each.
    const lineItems = Array.from({ length: 60 }, (_, index) => ({ id: 13900000001 + index, variantId: variants[index % variants.length], quantity: 1, taxRate: 0.2 }));
    const fulfillments = [0, 1, 2].map((index) => ({
      createdAt: "2026-10-25T10:00:00Z",
      trackingCompany: "Colissimo",
      trackingNumber: `6A9${index}000000001`,
      trackingUrl: "https://www.laposte.fr/outils/suivre-vos-envois?code=x",
      lineItems: [{ lineItemId: lineItems[index]!.id, quantity: 1 }],
    }));
    shop.orders = [{ ...template, id: 7100009001, number: 9001, lineItems, fulfillments, closedAt: null }];
    t = await startTestEmulator({ seed, plan: "plus" });
  });
  afterAll(async () => {
    await t.emulator.close();
  });

  it("has all its 60 line items and all their fulfillment order lines read, in pages", async () => {
    const tally = new Map<string, OperationPoints>();
    const order = (await fetchOrderForLabel(costRecorder(emulatorClient(t.emulator.url), tally), BIG))!;
    expect(order.lineItems.nodes).toHaveLength(60);
    expect(new Set(order.lineItems.nodes.map((line) => line.id)).size).toBe(60);
    const foLines = order.fulfillmentOrders.nodes.flatMap((fo) => fo.lineItems.nodes.map((line) => line.lineItem.id));
    expect(new Set(foLines)).toEqual(new Set(order.lineItems.nodes.map((line) => line.id)));
    expect(tally.get("OrderForLabelLineItems")!.calls).toBeGreaterThan(1);
    for (const [name, points] of tally) expect(points.requested, name).toBeLessThanOrEqual(1000);
  });

  it("has every fulfillment and every tracking number read before a push decides whether to create one", async () => {
    const admin = emulatorClient(t.emulator.url);
    const before = (await fetchFulfillmentContext(admin, BIG))!;
    expect(before.fulfillments).toHaveLength(3);
    // A fulfillment whose tracking list outgrew the first page (parcels added to it).
    const target = before.fulfillments[2]!;
    const numbers = ["6A9200000001", "6A9200000002", "6A9200000003", "6A9200000004"];
    const update = await t.post(
      `mutation Add($id: ID!, $info: FulfillmentTrackingInput!) { fulfillmentTrackingInfoUpdate(fulfillmentId: $id, trackingInfoInput: $info) { userErrors { message } } }`,
      { id: target.id, info: { company: "Colissimo", numbers, urls: numbers.map(() => "https://www.laposte.fr/") } },
    );
    expect(update.body.errors).toBeUndefined();
    const after = (await fetchFulfillmentContext(admin, BIG))!;
    expect(after.fulfillments.find((f) => f.id === target.id)!.trackingInfo.map((info) => info.number)).toEqual(numbers);
    expect(after.fulfillmentOrders.nodes.flatMap((fo) => fo.lineItems.nodes)).toHaveLength(60);
  });
});
