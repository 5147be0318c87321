import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { mockAdmin } from "../../test/helpers/mock-admin";
import { createTestDatabase } from "../../test/helpers/test-db";
import { pushLabelToShopify } from "./fulfill.server";

const database = createTestDatabase();
const db = database.prisma;
afterAll(() => database.close());

const SHOP = "shop-a.myshopify.com";
const ORDER = "gid://shopify/Order/1001";

/** A tiny stateful order: one open fulfillment order, fulfilments and metafields recorded. */
function shopifyOrder(options: { failCreate?: string; digitalFulfillmentOrder?: boolean } = {}) {
  const state = {
    fulfillments: [] as { id: string; status: string; trackingInfo: { company: string; number: string; url: string }[] }[],
    creates: [] as Record<string, unknown>[],
    metafields: [] as unknown[],
    remaining: 2,
    failCreate: options.failCreate,
  };
  const admin = mockAdmin({
    FulfillmentContext: () => ({
      data: {
        order: {
          id: ORDER,
          name: "#1001",
          fulfillments: state.fulfillments,
          fulfillmentOrders: {
            nodes: [
              ...(options.digitalFulfillmentOrder
                ? [
                    {
                      id: "gid://shopify/FulfillmentOrder/9",
                      status: "OPEN",
                      deliveryMethod: { methodType: "NONE" },
                      supportedActions: [{ action: "CREATE_FULFILLMENT" }],
                      lineItems: { nodes: [{ id: "gid://shopify/FulfillmentOrderLineItem/9", remainingQuantity: 1 }] },
                    },
                  ]
                : []),
              {
                id: "gid://shopify/FulfillmentOrder/1",
                status: state.remaining > 0 ? "OPEN" : "CLOSED",
                deliveryMethod: { methodType: "SHIPPING" },
                supportedActions: state.remaining > 0 ? [{ action: "CREATE_FULFILLMENT" }] : [],
                lineItems: { nodes: [{ id: "gid://shopify/FulfillmentOrderLineItem/1", remainingQuantity: state.remaining }] },
              },
            ],
          },
        },
      },
    }),
    FulfillmentCreate: (variables) => {
      state.creates.push(variables);
      if (state.failCreate) {
        return { data: { fulfillmentCreate: { fulfillment: null, userErrors: [{ field: ["fulfillment"], message: state.failCreate }] } } };
      }
      const input = variables.fulfillment as { trackingInfo: { company: string; number: string; url: string } };
      const fulfillment = { id: `gid://shopify/Fulfillment/${state.creates.length}`, status: "SUCCESS", trackingInfo: [input.trackingInfo] };
      state.fulfillments.push(fulfillment);
      state.remaining = 0;
      return { data: { fulfillmentCreate: { fulfillment: { id: fulfillment.id, status: "SUCCESS" }, userErrors: [] } } };
    },
    OrderLabelMetafieldSet: (variables) => {
      state.metafields.push(variables);
      return { data: { metafieldsSet: { metafields: [{ id: "gid://shopify/Metafield/1" }], userErrors: [] } } };
    },
  });
  return { admin, state };
}

async function createLabel(carrierName = "Dhl") {
  return db.label.create({
    data: {
      shop: SHOP, orderId: ORDER, orderName: "#1001", environment: "staging", customReference: "20261122-001",
      serviceLabelId: "L1", trackingNumber: "1234567890", trackingUrl: "https://sandbox.test/track/1234567890",
      labelUrl: "https://sandbox.test/labels/L1.pdf", carrierName, carrierServiceName: "n", labelFormat: "PDF_A4_300dpi",
      requestSnapshotJson: "{}",
    },
  });
}

beforeEach(async () => {
  await db.label.deleteMany();
});

describe("pushLabelToShopify", () => {
  it("creates one fulfillment with tracking, notifies per setting, writes the $app summary", async () => {
    const label = await createLabel();
    const { admin, state } = shopifyOrder();
    const result = await pushLabelToShopify({ db, admin }, { shop: SHOP, labelId: label.id, notifyCustomer: true });
    expect(result.status).toBe("created");
    expect(state.creates).toHaveLength(1);
    expect(state.creates[0]).toEqual({
      fulfillment: {
        lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: "gid://shopify/FulfillmentOrder/1" }],
        trackingInfo: { company: "DHL Express", number: "1234567890", url: "https://sandbox.test/track/1234567890" },
        notifyCustomer: true,
      },
    });
    expect(JSON.stringify(state.metafields[0])).toContain('"namespace":"$app"');
    const stored = await db.label.findUniqueOrThrow({ where: { id: label.id } });
    expect(stored).toMatchObject({ fulfillmentStatus: "CREATED", fulfillmentId: "gid://shopify/Fulfillment/1", metafieldWritten: true });
  });

  it("never puts the parcel's tracking on a fulfillment order of digital items or gift cards", async () => {
    const label = await createLabel();
    const { admin, state } = shopifyOrder({ digitalFulfillmentOrder: true });
    await pushLabelToShopify({ db, admin }, { shop: SHOP, labelId: label.id, notifyCustomer: true });
    expect(state.creates[0]).toMatchObject({ fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: "gid://shopify/FulfillmentOrder/1" }] } });
  });

  it("sends an unknown carrier's own name with the tracking URL", async () => {
    const label = await createLabel("Mondial Relay");
    const { admin, state } = shopifyOrder();
    await pushLabelToShopify({ db, admin }, { shop: SHOP, labelId: label.id, notifyCustomer: false });
    expect(state.creates[0]).toMatchObject({ fulfillment: { trackingInfo: { company: "Mondial Relay", url: "https://sandbox.test/track/1234567890" }, notifyCustomer: false } });
  });

  it("a failed Shopify step is stored and retried later without creating twice", async () => {
    const label = await createLabel();
    const { admin, state } = shopifyOrder({ failCreate: "Fulfillment order is on hold" });
    const failed = await pushLabelToShopify({ db, admin }, { shop: SHOP, labelId: label.id, notifyCustomer: true });
    expect(failed).toMatchObject({ status: "failed" });
    expect((await db.label.findUniqueOrThrow({ where: { id: label.id } })).fulfillmentError).toContain("on hold");
    state.failCreate = undefined;
    expect((await pushLabelToShopify({ db, admin }, { shop: SHOP, labelId: label.id, notifyCustomer: true })).status).toBe("created");
    expect((await pushLabelToShopify({ db, admin }, { shop: SHOP, labelId: label.id, notifyCustomer: true })).status).toBe("created");
    expect(state.fulfillments).toHaveLength(1);
  });

  it("adopts a fulfillment that already carries the tracking number (crash after Shopify answered)", async () => {
    const label = await createLabel();
    const { admin, state } = shopifyOrder();
    state.fulfillments.push({ id: "gid://shopify/Fulfillment/9", status: "SUCCESS", trackingInfo: [{ company: "DHL Express", number: "1234567890", url: "" }] });
    const result = await pushLabelToShopify({ db, admin }, { shop: SHOP, labelId: label.id, notifyCustomer: true });
    expect(result).toMatchObject({ status: "created", adopted: true });
    expect(state.creates).toHaveLength(0);
    expect((await db.label.findUniqueOrThrow({ where: { id: label.id } })).fulfillmentId).toBe("gid://shopify/Fulfillment/9");
  });

  it("two pushes at once create one fulfillment", async () => {
    const label = await createLabel();
    const { admin, state } = shopifyOrder();
    const results = await Promise.all([1, 2, 3].map(() => pushLabelToShopify({ db, admin }, { shop: SHOP, labelId: label.id, notifyCustomer: true })));
    expect(state.creates).toHaveLength(1);
    expect(results.map((result) => result.status).sort()).toEqual(["created", "in_progress", "in_progress"]);
  });

  it("refuses another shop's label", async () => {
    const label = await createLabel();
    const { admin } = shopifyOrder();
    await expect(pushLabelToShopify({ db, admin }, { shop: "other.myshopify.com", labelId: label.id, notifyCustomer: true })).rejects.toThrow(/no label/);
  });

  it("explains when nothing is left to fulfil", async () => {
    const label = await createLabel();
    const { admin, state } = shopifyOrder();
    state.remaining = 0;
    const result = await pushLabelToShopify({ db, admin }, { shop: SHOP, labelId: label.id, notifyCustomer: true });
    expect(result).toMatchObject({ status: "failed" });
    if (result.status === "failed") expect(result.message).toMatch(/#1001 has no open fulfillment order/);
  });
});
