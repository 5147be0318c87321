import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "./test-helpers";

let t: TestEmulator;
beforeEach(async () => {
  t = await startTestEmulator({ now: () => Date.parse("2026-11-22T10:00:00Z") });
});
afterEach(async () => {
  await t.emulator.close();
});

const CONTEXT = `query C($id: ID!) { order(id: $id) { id name displayFulfillmentStatus
  fulfillments { id status displayStatus trackingInfo { company number url } }
  fulfillmentOrders(first: 5) { nodes { id status supportedActions { action } deliveryMethod { methodType }
    lineItems(first: 20) { nodes { id remainingQuantity totalQuantity lineItem { id } } } } } } }`;

const CREATE = `mutation F($fulfillment: FulfillmentInput!, $message: String) {
  fulfillmentCreate(fulfillment: $fulfillment, message: $message) {
    fulfillment { id status name totalQuantity trackingInfo { company number url } fulfillmentLineItems(first: 20) { nodes { quantity lineItem { id } } } }
    userErrors { field message } } }`;

const TRACKING = { company: "Colissimo", number: "6A12345678901", url: "https://www.laposte.fr/outils/suivre-vos-envois?code=6A12345678901" };

async function context(orderId: string) {
  return (await t.gql(CONTEXT, { id: orderId })).order;
}

/** An open, unfulfilled order whose only fulfillment order holds several line items. */
async function unfulfilledOrder() {
  const data = await t.gql('{ orders(first: 250, query: "fulfillment_status:unshipped status:open", sortKey: ORDER_NUMBER) { nodes { id name } } }');
  for (const node of data.orders.nodes) {
    const order = await context(node.id);
    const fos = order.fulfillmentOrders.nodes;
    if (fos.length === 1 && fos[0].deliveryMethod.methodType === "SHIPPING" && fos[0].lineItems.nodes.length >= 2) return order;
  }
  throw new Error("the default seed should have such an order");
}

describe("fulfillmentCreate", () => {
  it("fulfils everything that remains when line items are omitted, stores tracking and notifies the customer", async () => {
    const order = await unfulfilledOrder();
    const fo = order.fulfillmentOrders.nodes[0];
    const data = await t.gql(CREATE, { fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo.id }], trackingInfo: TRACKING, notifyCustomer: true } });
    expect(data.fulfillmentCreate.userErrors).toEqual([]);
    const created = data.fulfillmentCreate.fulfillment;
    expect(created.status).toBe("SUCCESS");
    expect(created.trackingInfo).toEqual([TRACKING]);
    const total = fo.lineItems.nodes.reduce((sum: number, li: { remainingQuantity: number }) => sum + li.remainingQuantity, 0);
    expect(created.totalQuantity).toBe(total);

    const after = await context(order.id);
    expect(after.displayFulfillmentStatus).toBe("FULFILLED");
    expect(after.fulfillmentOrders.nodes[0].status).toBe("CLOSED");
    expect(after.fulfillmentOrders.nodes[0].supportedActions).toEqual([]);
    expect(after.fulfillments).toEqual([{ id: created.id, status: "SUCCESS", displayStatus: "FULFILLED", trackingInfo: [TRACKING] }]);

    const number = order.name.slice(1);
    const inspected = await t.inspect(`/__admin/orders/${number}`);
    expect(inspected.status).toBe(200);
    expect(inspected.body.fulfillments).toHaveLength(1);
    expect(inspected.body.notifications).toEqual([
      expect.objectContaining({ kind: "fulfillment_created", fulfillmentId: created.id, trackingNumbers: [TRACKING.number], sentAt: "2026-11-22T10:00:00Z" }),
    ]);
    const byName = await t.inspect(`/__admin/orders/${encodeURIComponent(order.name)}`);
    expect(byName.body.order.id).toBe(order.id);
    const all = await t.inspect("/__admin/notifications");
    expect(all.body.notifications).toHaveLength(1);
  });

  it("records no notification when notifyCustomer is false or omitted", async () => {
    const order = await unfulfilledOrder();
    const fo = order.fulfillmentOrders.nodes[0];
    const data = await t.gql(CREATE, { fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo.id }], trackingInfo: TRACKING } });
    expect(data.fulfillmentCreate.userErrors).toEqual([]);
    expect((await t.inspect("/__admin/notifications")).body.notifications).toEqual([]);
  });

  it("fulfils part of a fulfillment order: IN_PROGRESS and PARTIALLY_FULFILLED, then the rest", async () => {
    const order = await unfulfilledOrder();
    const fo = order.fulfillmentOrders.nodes[0];
    const firstLine = fo.lineItems.nodes[0];
    const data = await t.gql(CREATE, {
      fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo.id, fulfillmentOrderLineItems: [{ id: firstLine.id, quantity: 1 }] }], trackingInfo: TRACKING },
    });
    expect(data.fulfillmentCreate.fulfillment.fulfillmentLineItems.nodes).toEqual([{ quantity: 1, lineItem: { id: firstLine.lineItem.id } }]);
    let after = await context(order.id);
    expect(after.displayFulfillmentStatus).toBe("PARTIALLY_FULFILLED");
    expect(after.fulfillmentOrders.nodes[0].status).toBe("IN_PROGRESS");
    expect(after.fulfillmentOrders.nodes[0].lineItems.nodes[0].remainingQuantity).toBe(firstLine.remainingQuantity - 1);
    await t.gql(CREATE, { fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo.id }] } });
    after = await context(order.id);
    expect(after.displayFulfillmentStatus).toBe("FULFILLED");
    expect(after.fulfillments).toHaveLength(2);
  });

  it("refuses a quantity above what remains, and changes nothing", async () => {
    const order = await unfulfilledOrder();
    const fo = order.fulfillmentOrders.nodes[0];
    const line = fo.lineItems.nodes[0];
    const data = await t.gql(CREATE, {
      fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo.id, fulfillmentOrderLineItems: [{ id: line.id, quantity: line.remainingQuantity + 1 }] }] },
    });
    expect(data.fulfillmentCreate.fulfillment).toBeNull();
    expect(data.fulfillmentCreate.userErrors).toEqual([
      {
        field: ["fulfillment", "lineItemsByFulfillmentOrder", "0", "fulfillmentOrderLineItems", "0", "quantity"],
        message: `Invalid fulfillment order line item quantity requested: ${line.remainingQuantity + 1} for ${line.id}, ${line.remainingQuantity} remaining.`,
      },
    ]);
    expect(await context(order.id)).toEqual(order);
  });

  it("refuses a closed fulfillment order (no double fulfilment)", async () => {
    const order = await unfulfilledOrder();
    const fo = order.fulfillmentOrders.nodes[0];
    const input = { fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo.id }], trackingInfo: TRACKING, notifyCustomer: true } };
    await t.gql(CREATE, input);
    const again = await t.gql(CREATE, input);
    expect(again.fulfillmentCreate.fulfillment).toBeNull();
    expect(again.fulfillmentCreate.userErrors[0].message).toMatch(/has an unfulfillable status= closed/);
    expect((await t.inspect("/__admin/notifications")).body.notifications).toHaveLength(1);
  });

  it("lets only one of two concurrent identical requests fulfil (no duplicate fulfillment or notification)", async () => {
    const order = await unfulfilledOrder();
    const input = { fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: order.fulfillmentOrders.nodes[0].id }], trackingInfo: TRACKING, notifyCustomer: true } };
    const results = await Promise.all([t.post(CREATE, input), t.post(CREATE, input), t.post(CREATE, input)]);
    const succeeded = results.filter((r) => r.body.data?.fulfillmentCreate.fulfillment !== null);
    expect(succeeded).toHaveLength(1);
    expect((await context(order.id)).fulfillments).toHaveLength(1);
    expect((await t.inspect("/__admin/notifications")).body.notifications).toHaveLength(1);
  });

  it("refuses unknown ids, fulfillment orders of two orders, and invalid tracking URLs", async () => {
    const unknown = await t.gql(CREATE, { fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: "gid://shopify/FulfillmentOrder/1" }] } });
    expect(unknown.fulfillmentCreate.userErrors).toEqual([
      { field: ["fulfillment", "lineItemsByFulfillmentOrder", "0", "fulfillmentOrderId"], message: "Fulfillment order gid://shopify/FulfillmentOrder/1 does not exist." },
    ]);
    const open = await t.gql('{ orders(first: 2, query: "fulfillment_status:unshipped status:open") { nodes { fulfillmentOrders(first: 1) { nodes { id } } } } }');
    const [a, b] = open.orders.nodes.map((n: { fulfillmentOrders: { nodes: { id: string }[] } }) => n.fulfillmentOrders.nodes[0]!.id);
    const mixed = await t.gql(CREATE, { fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: a }, { fulfillmentOrderId: b }] } });
    expect(mixed.fulfillmentCreate.userErrors).toEqual([{ field: ["fulfillment", "lineItemsByFulfillmentOrder"], message: "All fulfillment orders must belong to the same order." }]);
    const badUrl = await t.gql(CREATE, { fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: a }], trackingInfo: { number: "X1", url: "ftp://nope" } } });
    expect(badUrl.fulfillmentCreate.userErrors).toEqual([{ field: ["fulfillment", "trackingInfo", "url"], message: "Tracking url is invalid" }]);
    const wrongLine = await t.gql(CREATE, {
      fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: a, fulfillmentOrderLineItems: [{ id: "gid://shopify/FulfillmentOrderLineItem/1", quantity: 1 }] }] },
    });
    expect(wrongLine.fulfillmentCreate.userErrors[0].field).toEqual(["fulfillment", "lineItemsByFulfillmentOrder", "0", "fulfillmentOrderLineItems", "0", "id"]);
    expect((await t.inspect("/__admin/notifications")).body.notifications).toEqual([]);
  });

  it("refuses the closed fulfillment orders of a cancelled order", async () => {
    const cancelled = await t.gql('{ orders(first: 1, query: "status:cancelled") { nodes { id fulfillmentOrders(first: 5) { nodes { id status } } } } }');
    const fo = cancelled.orders.nodes[0].fulfillmentOrders.nodes[0];
    expect(fo.status).toBe("CLOSED");
    const data = await t.gql(CREATE, { fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo.id }] } });
    expect(data.fulfillmentCreate.userErrors).toHaveLength(1);
  });

  it("also serves the deprecated fulfillmentCreateV2, which still exists in 2026-10", async () => {
    const order = await unfulfilledOrder();
    const data = await t.gql(
      "mutation F($f: FulfillmentV2Input!) { fulfillmentCreateV2(fulfillment: $f) { fulfillment { id } userErrors { message } } }",
      { f: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: order.fulfillmentOrders.nodes[0].id }] } },
    );
    expect(data.fulfillmentCreateV2.userErrors).toEqual([]);
  });
});

describe("fulfillmentTrackingInfoUpdate and fulfillmentCancel", () => {
  it("updates tracking (notifying on request) and cancels, giving the quantities back", async () => {
    const order = await unfulfilledOrder();
    const fo = order.fulfillmentOrders.nodes[0];
    const created = await t.gql(CREATE, { fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo.id }], trackingInfo: TRACKING } });
    const id = created.fulfillmentCreate.fulfillment.id;
    const updated = await t.gql(
      `mutation U($id: ID!, $t: FulfillmentTrackingInput!) { fulfillmentTrackingInfoUpdate(fulfillmentId: $id, trackingInfoInput: $t, notifyCustomer: true) {
        fulfillment { trackingInfo { company number url } } userErrors { field message } } }`,
      { id, t: { company: "Chronopost", number: "XY123456789FR", url: "https://www.chronopost.fr/tracking-no-cms/suivi-page?listeNumerosLT=XY123456789FR" } },
    );
    expect(updated.fulfillmentTrackingInfoUpdate.fulfillment.trackingInfo[0].company).toBe("Chronopost");
    expect((await t.inspect("/__admin/notifications")).body.notifications.map((n: { kind: string }) => n.kind)).toEqual(["tracking_updated"]);

    const cancel = "mutation C($id: ID!) { fulfillmentCancel(id: $id) { fulfillment { id status displayStatus } userErrors { field message } } }";
    const cancelled = await t.gql(cancel, { id });
    expect(cancelled.fulfillmentCancel).toEqual({ fulfillment: { id, status: "CANCELLED", displayStatus: "CANCELED" }, userErrors: [] });
    const after = await context(order.id);
    expect(after.displayFulfillmentStatus).toBe("UNFULFILLED");
    expect(after.fulfillments.map((f: { status: string }) => f.status)).toEqual(["CANCELLED"]);
    // Entirely fulfilled, so (as the schema documents) it stays closed and a new open one takes the items back.
    const [closed, reopened] = after.fulfillmentOrders.nodes;
    expect(closed.id).toBe(fo.id);
    expect(closed.status).toBe("CLOSED");
    expect(reopened.id).not.toBe(fo.id);
    expect(reopened.status).toBe("OPEN");
    expect(reopened.supportedActions).toEqual(fo.supportedActions);
    const quantities = (node: typeof fo) =>
      node.lineItems.nodes.map((li: { lineItem: { id: string }; remainingQuantity: number; totalQuantity: number }) => [li.lineItem.id, li.remainingQuantity, li.totalQuantity]);
    expect(quantities(reopened)).toEqual(quantities(fo));
    // The reopened items can be fulfilled again, and the new fulfillment notifies once.
    const again = await t.gql(CREATE, { fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: reopened.id }], trackingInfo: TRACKING, notifyCustomer: true } });
    expect(again.fulfillmentCreate.userErrors).toEqual([]);
    expect((await context(order.id)).displayFulfillmentStatus).toBe("FULFILLED");
    expect((await t.inspect("/__admin/notifications")).body.notifications.map((n: { kind: string }) => n.kind)).toEqual(["tracking_updated", "fulfillment_created"]);
    const twice = await t.gql(cancel, { id });
    expect(twice.fulfillmentCancel.userErrors).toEqual([{ field: ["id"], message: "Fulfillment has already been cancelled." }]);
    const unknown = await t.gql(cancel, { id: "gid://shopify/Fulfillment/42" });
    expect(unknown.fulfillmentCancel.userErrors).toEqual([{ field: ["id"], message: "Fulfillment not found." }]);
  });
});

describe("fulfillmentCancel of a partial fulfillment", () => {
  it("gives the quantities back to the fulfillment order it came from", async () => {
    const order = await unfulfilledOrder();
    const fo = order.fulfillmentOrders.nodes[0];
    const first = fo.lineItems.nodes[0];
    const created = await t.gql(CREATE, {
      fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo.id, fulfillmentOrderLineItems: [{ id: first.id, quantity: first.remainingQuantity }] }], trackingInfo: TRACKING },
    });
    expect(created.fulfillmentCreate.userErrors).toEqual([]);
    expect((await context(order.id)).fulfillmentOrders.nodes[0].status).toBe("IN_PROGRESS");
    const cancelled = await t.gql("mutation C($id: ID!) { fulfillmentCancel(id: $id) { fulfillment { status } userErrors { message } } }", { id: created.fulfillmentCreate.fulfillment.id });
    expect(cancelled.fulfillmentCancel).toEqual({ fulfillment: { status: "CANCELLED" }, userErrors: [] });
    const after = await context(order.id);
    expect(after.fulfillmentOrders.nodes).toEqual([fo]);
    expect(after.displayFulfillmentStatus).toBe("UNFULFILLED");
  });
});

describe("inspection endpoint", () => {
  it("answers 404 for an unknown order and resets to the seed", async () => {
    expect((await t.inspect("/__admin/orders/9999")).status).toBe(404);
    const order = await unfulfilledOrder();
    await t.gql(CREATE, { fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: order.fulfillmentOrders.nodes[0].id }], notifyCustomer: true } });
    expect((await t.inspect("/__admin/reset", "POST")).status).toBe(200);
    expect(await context(order.id)).toEqual(order);
    expect((await t.inspect("/__admin/notifications")).body.notifications).toEqual([]);
  });
});
