import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "./test-helpers";

let t: TestEmulator;
beforeEach(async () => {
  t = await startTestEmulator({ now: () => Date.parse("2026-11-22T10:00:00Z") });
});
afterEach(async () => {
  await t.emulator.close();
});

const SPLIT = `query S($id: ID!) { order(id: $id) { name
  fulfillmentOrders(first: 5) { nodes { id assignedLocation { name location { id } } lineItems(first: 10) { nodes { lineItem { id } } } } } } }`;

describe("locations", () => {
  it("lists the shop's locations with their addresses, the primary one first", async () => {
    const data = await t.gql("{ locations(first: 10) { nodes { id name address { address1 zip city countryCode phone } } } }");
    expect(data.locations.nodes.map((node: { name: string }) => node.name)).toEqual(["Atelier Paris 12e", "Entrepôt Lyon"]);
    expect(data.locations.nodes[1]).toMatchObject({ id: "gid://shopify/Location/71000002", address: { zip: "69003", city: "Lyon", countryCode: "FR" } });
  });

  it("gives a split order one fulfillment order per location, each with only its own lines", async () => {
    const data = await t.gql(SPLIT, { id: "gid://shopify/Order/7100001062" });
    const nodes = data.order.fulfillmentOrders.nodes;
    expect(nodes.map((node: { assignedLocation: { location: { id: string } } }) => node.assignedLocation.location.id)).toEqual([
      "gid://shopify/Location/71000001",
      "gid://shopify/Location/71000002",
    ]);
    const lines = nodes.map((node: { lineItems: { nodes: unknown[] } }) => node.lineItems.nodes.length);
    expect(lines).toEqual([2, 1]);
  });

  it("fulfils a Lyon fulfillment order from Lyon", async () => {
    const data = await t.gql(SPLIT, { id: "gid://shopify/Order/7100001062" });
    const lyon = data.order.fulfillmentOrders.nodes[1];
    const created = await t.gql(
      `mutation F($f: FulfillmentInput!) { fulfillmentCreate(fulfillment: $f) { fulfillment { location { name } originAddress { city } } userErrors { message } } }`,
      { f: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: lyon.id }], trackingInfo: { number: "6A1" } } },
    );
    expect(created.fulfillmentCreate.fulfillment).toEqual({ location: { name: "Entrepôt Lyon" }, originAddress: { city: "Lyon" } });
  });
});
