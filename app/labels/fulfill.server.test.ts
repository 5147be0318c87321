import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { mockAdmin } from "../../test/helpers/mock-admin";
import { createTestDatabase } from "../../test/helpers/test-db";
import { developmentStorePlan, fulfilTestLabelsOn } from "../../test/helpers/dev-store";
import { pushLabelToShopify, SUMMARY_MAX_LABELS } from "./fulfill.server";

const database = createTestDatabase();
const db = database.prisma;
afterAll(() => database.close());

const SHOP = "shop-a.myshopify.com";
const ORDER = "gid://shopify/Order/1001";

/** A tiny stateful order: one open fulfillment order, fulfilments and metafields recorded. */
function shopifyOrder(options: { failCreate?: string; digitalFulfillmentOrder?: boolean } = {}) {
  const state = {
    failMetafield: undefined as string | undefined,
    fulfillments: [] as { id: string; status: string; trackingInfo: { company: string; number: string; url: string }[] }[],
    creates: [] as Record<string, unknown>[],
    metafields: [] as unknown[],
    remaining: 2,
    failCreate: options.failCreate,
  };
  const admin = mockAdmin({
    ...developmentStorePlan,
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
                      lineItems: { nodes: [{ id: "gid://shopify/FulfillmentOrderLineItem/9", remainingQuantity: 1 }], pageInfo: { hasNextPage: false } },
                    },
                  ]
                : []),
              {
                id: "gid://shopify/FulfillmentOrder/1",
                status: state.remaining > 0 ? "OPEN" : "CLOSED",
                deliveryMethod: { methodType: "SHIPPING" },
                supportedActions: state.remaining > 0 ? [{ action: "CREATE_FULFILLMENT" }] : [],
                lineItems: { nodes: [{ id: "gid://shopify/FulfillmentOrderLineItem/1", remainingQuantity: state.remaining }], pageInfo: { hasNextPage: false } },
              },
            ],
            pageInfo: { hasNextPage: false },
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
    FulfillmentTrackingUpdate: (variables) => {
      const fulfillment = state.fulfillments.find((candidate) => candidate.id === variables.fulfillmentId);
      const input = variables.trackingInfoInput as { company: string; numbers: string[]; urls: string[] };
      if (fulfillment) fulfillment.trackingInfo = input.numbers.map((number, index) => ({ company: input.company, number, url: input.urls[index] ?? "" }));
      return { data: { fulfillmentTrackingInfoUpdate: { fulfillment: fulfillment ? { id: fulfillment.id } : null, userErrors: [] } } };
    },
    OrderLabelMetafieldSet: (variables) => {
      if (state.failMetafield) {
        return { data: { metafieldsSet: { metafields: [], userErrors: [{ field: ["metafields"], message: state.failMetafield }] } } };
      }
      state.metafields.push(variables);
      return { data: { metafieldsSet: { metafields: [{ id: "gid://shopify/Metafield/1" }], userErrors: [] } } };
    },
  });
  return { admin, state };
}

async function createLabel(carrierName = "Dhl", overrides: { shop?: string; index?: number; createdAt?: Date } = {}) {
  const index = overrides.index ?? 1;
  const tracking = index === 1 ? "1234567890" : `12345678${String(index).padStart(2, "0")}`;
  return db.label.create({
    data: {
      shop: overrides.shop ?? SHOP, orderId: ORDER, orderName: "#1001", environment: "staging", customReference: `20261122-00${index}`,
      serviceLabelId: `L${index}`, trackingNumber: tracking, trackingUrl: `https://sandbox.test/track/${tracking}`,
      labelUrl: `https://sandbox.test/labels/L${index}.pdf`, carrierName, carrierServiceName: "n", labelFormat: "PDF_A4_300dpi",
      requestSnapshotJson: "{}", ...(overrides.createdAt ? { createdAt: overrides.createdAt } : {}),
    },
  });
}

/** The JSON document of the n-th metafield write (variables as sent to metafieldsSet). */
function summaryOf(write: unknown): { count: number; labels: { labelId: string; trackingNumber: string; carrier: string; createdAt: string }[] } {
  const { metafields } = write as { metafields: { namespace: string; key: string; type: string; value: string }[] };
  expect(metafields[0]).toMatchObject({ ownerId: ORDER, namespace: "$app", key: "etiquette_label", type: "json" });
  return JSON.parse(metafields[0]!.value);
}

beforeEach(async () => {
  await db.label.deleteMany();
  // These tests are about the Shopify step: their staging labels are on a development store that fulfils them.
  await fulfilTestLabelsOn(db, SHOP, "shop-b.myshopify.com");
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

  it("a failed summary write is retried on the next push, although the fulfillment already exists", async () => {
    const label = await createLabel();
    const { admin, state } = shopifyOrder();
    state.failMetafield = "Shopify is having a moment";
    const first = await pushLabelToShopify({ db, admin }, { shop: SHOP, labelId: label.id, notifyCustomer: true });
    expect(first.status).toBe("created");
    expect(await db.label.findUniqueOrThrow({ where: { id: label.id } })).toMatchObject({ fulfillmentStatus: "CREATED", metafieldWritten: false });
    expect(state.metafields).toHaveLength(0);

    state.failMetafield = undefined;
    const again = await pushLabelToShopify({ db, admin }, { shop: SHOP, labelId: label.id, notifyCustomer: true });
    expect(again).toMatchObject({ status: "created", label: { metafieldWritten: true } });
    expect(state.metafields).toHaveLength(1);
    expect(summaryOf(state.metafields[0]).labels.map((entry) => entry.labelId)).toEqual(["L1"]);
    expect(state.creates).toHaveLength(1);
    expect(await db.label.findUniqueOrThrow({ where: { id: label.id } })).toMatchObject({ fulfillmentStatus: "CREATED", metafieldWritten: true });

    // Once written, a further push touches neither Shopify's fulfillments nor the metafield.
    const calls = admin.calls.length;
    await pushLabelToShopify({ db, admin }, { shop: SHOP, labelId: label.id, notifyCustomer: true });
    expect(admin.calls).toHaveLength(calls);
  });

  it("the order's summary lists every label of the order for this shop, not only the last one", async () => {
    const first = await createLabel("Dhl", { index: 1, createdAt: new Date("2026-11-22T10:00:00Z") });
    const second = await createLabel("Ups", { index: 2, createdAt: new Date("2026-11-22T11:00:00Z") });
    await createLabel("Dhl", { index: 3, shop: "other.myshopify.com", createdAt: new Date("2026-11-22T12:00:00Z") });
    const { admin, state } = shopifyOrder();
    await pushLabelToShopify({ db, admin }, { shop: SHOP, labelId: first.id, notifyCustomer: true });
    expect((await pushLabelToShopify({ db, admin }, { shop: SHOP, labelId: second.id, notifyCustomer: true })).status).toBe("created");
    expect(state.metafields).toHaveLength(2);
    const summary = summaryOf(state.metafields[1]);
    expect(summary.count).toBe(2);
    expect(summary.labels).toEqual([
      expect.objectContaining({ labelId: "L1", trackingNumber: "1234567890", carrier: "Dhl", createdAt: "2026-11-22T10:00:00.000Z" }),
      expect.objectContaining({ labelId: "L2", trackingNumber: "1234567802", carrier: "Ups", createdAt: "2026-11-22T11:00:00.000Z" }),
    ]);
  });

  it("keeps the summary small: the latest labels only, with the total count", async () => {
    const labels = [];
    for (let index = 1; index <= SUMMARY_MAX_LABELS + 3; index += 1) {
      labels.push(await createLabel("Dhl", { index, createdAt: new Date(Date.UTC(2026, 10, 22, 8, index)) }));
    }
    const { admin, state } = shopifyOrder();
    await pushLabelToShopify({ db, admin }, { shop: SHOP, labelId: labels.at(-1)!.id, notifyCustomer: true });
    const summary = summaryOf(state.metafields[0]);
    expect(summary.count).toBe(SUMMARY_MAX_LABELS + 3);
    expect(summary.labels).toHaveLength(SUMMARY_MAX_LABELS);
    expect(summary.labels[0]!.labelId).toBe("L4");
    expect(summary.labels.at(-1)!.labelId).toBe(`L${SUMMARY_MAX_LABELS + 3}`);
  });
});
