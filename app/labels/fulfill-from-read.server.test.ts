/**
 * A bulk item's push (decisions 0184-0186): fulfilled from the order its job read when the label was never pushed,
 * the order read again otherwise; the summary left to a batch; the shop's plan from the caller. And the batch itself:
 * one metafieldsSet per 25 orders, each label's summary written once even with two flushes at a time.
 */
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { mockAdmin } from "../../test/helpers/mock-admin";
import { createTestDatabase } from "../../test/helpers/test-db";
import { fulfilTestLabelsOn } from "../../test/helpers/dev-store";
import { pushLabelToShopify, type PushOptions } from "./fulfill.server";
import { flushOrderSummaries } from "./summary-batch.server";

const database = createTestDatabase();
const db = database.prisma;
afterAll(() => database.close());

const SHOP = "shop-a.myshopify.com";
const order = (n: number) => `gid://shopify/Order/${1000 + n}`;

const openFulfillmentOrder = (id = "gid://shopify/FulfillmentOrder/1") => ({
  id,
  status: "OPEN",
  deliveryMethod: { methodType: "SHIPPING" },
  supportedActions: [{ action: "CREATE_FULFILLMENT" }],
  lineItems: { nodes: [{ id: `${id}/line`, remainingQuantity: 1 }] },
});

function shopify(options: { refuseFirstCreate?: boolean; failSummaries?: boolean } = {}) {
  let creates = 0;
  const metafieldBatches: { ownerId: string; value: string }[][] = [];
  const admin = mockAdmin({
    ShopPlan: () => ({ data: { shop: { plan: { partnerDevelopment: true } } } }),
    FulfillmentContext: (variables) => ({
      data: {
        order: {
          id: variables.id,
          name: "#1001",
          fulfillmentsCount: { count: 0 },
          fulfillments: [],
          fulfillmentOrders: { nodes: [{ ...openFulfillmentOrder("gid://shopify/FulfillmentOrder/2"), lineItems: { nodes: [{ id: "l", remainingQuantity: 1 }], pageInfo: { hasNextPage: false } } }], pageInfo: { hasNextPage: false } },
        },
      },
    }),
    FulfillmentCreate: () => {
      creates += 1;
      if (options.refuseFirstCreate && creates === 1) {
        return { data: { fulfillmentCreate: { fulfillment: null, userErrors: [{ field: ["fulfillment"], message: "Fulfillment order is closed" }] } } };
      }
      return { data: { fulfillmentCreate: { fulfillment: { id: `gid://shopify/Fulfillment/${creates}`, status: "SUCCESS" }, userErrors: [] } } };
    },
    OrderLabelMetafieldSet: (variables) => {
      if (options.failSummaries) return { data: { metafieldsSet: { metafields: [], userErrors: [{ field: ["metafields"], message: "nope" }] } } };
      metafieldBatches.push(variables.metafields as { ownerId: string; value: string }[]);
      return { data: { metafieldsSet: { metafields: [{ id: "gid://shopify/Metafield/1" }], userErrors: [] } } };
    },
  });
  const count = (name: string) => admin.calls.filter((call) => call.operationName === name).length;
  return { admin, count, metafieldBatches, createdOn: () => admin.calls.filter((call) => call.operationName === "FulfillmentCreate").map((call) => (call.variables.fulfillment as { lineItemsByFulfillmentOrder: { fulfillmentOrderId: string }[] }).lineItemsByFulfillmentOrder[0]!.fulfillmentOrderId) };
}

async function label(n: number, data: Record<string, unknown> = {}) {
  return db.label.create({
    data: {
      shop: SHOP, orderId: order(n), orderName: `#${1000 + n}`, environment: "staging", customReference: `20261126-${n}`, serviceLabelId: `L${n}`,
      trackingNumber: `TRACK${n}`, trackingUrl: "", labelUrl: "", carrierName: "Colissimo", carrierServiceName: "s", labelFormat: "PDF_A4_300dpi", requestSnapshotJson: "{}",
      ...data,
    },
  });
}

const bulkOptions = (extra: Partial<PushOptions> = {}): PushOptions => ({ read: { fulfillmentOrders: { nodes: [openFulfillmentOrder()] } }, summary: "batched", ...extra });

beforeEach(async () => {
  await db.label.deleteMany();
  await fulfilTestLabelsOn(db, SHOP);
});

describe("a bulk item's push", () => {
  it("fulfils a never-pushed label from the job's read: no FulfillmentContext, no summary yet, the caller's plan", async () => {
    const { admin, count, createdOn } = shopify();
    let planReads = 0;
    const isDevelopmentStore = async () => ((planReads += 1), true);
    const created = await label(1);
    const result = await pushLabelToShopify({ db, admin }, { shop: SHOP, labelId: created.id, notifyCustomer: true, options: bulkOptions({ isDevelopmentStore }) });
    expect(result).toMatchObject({ status: "created", adopted: false });
    expect(createdOn()).toEqual(["gid://shopify/FulfillmentOrder/1"]);
    expect(count("FulfillmentContext")).toBe(0);
    expect(count("ShopPlan")).toBe(0);
    expect(planReads).toBe(1);
    expect(count("OrderLabelMetafieldSet")).toBe(0);
    const stored = await db.label.findUniqueOrThrow({ where: { id: created.id } });
    expect(stored).toMatchObject({ fulfillmentStatus: "CREATED", metafieldWritten: false });
    expect(stored.summaryDueAt).toBeInstanceOf(Date);
  });

  it("reads the order when the label was pushed before (its fulfillment may exist): the read is not trusted", async () => {
    const { admin, count, createdOn } = shopify();
    const failed = await label(2, { fulfillmentStatus: "FAILED" });
    await pushLabelToShopify({ db, admin }, { shop: SHOP, labelId: failed.id, notifyCustomer: false, options: bulkOptions() });
    expect(count("FulfillmentContext")).toBe(1);
    expect(createdOn()).toEqual(["gid://shopify/FulfillmentOrder/2"]);
  });

  it("reads the order when the read has nothing open for the label, or Shopify refuses the read's fulfillment order", async () => {
    const none = shopify();
    const a = await label(3);
    await pushLabelToShopify({ db, admin: none.admin }, { shop: SHOP, labelId: a.id, notifyCustomer: false, options: bulkOptions({ read: { fulfillmentOrders: { nodes: [] } } }) });
    expect(none.count("FulfillmentContext")).toBe(1);
    expect(none.createdOn()).toEqual(["gid://shopify/FulfillmentOrder/2"]);

    const stale = shopify({ refuseFirstCreate: true });
    const b = await label(4);
    const result = await pushLabelToShopify({ db, admin: stale.admin }, { shop: SHOP, labelId: b.id, notifyCustomer: false, options: bulkOptions() });
    expect(result.status).toBe("created");
    // Refused (nothing created), then from the order as it is now: one fulfillment in the end.
    expect(stale.createdOn()).toEqual(["gid://shopify/FulfillmentOrder/1", "gid://shopify/FulfillmentOrder/2"]);
    expect(stale.count("FulfillmentContext")).toBe(1);
  });

  it("a page's push (no options) is unchanged: it reads the order, the plan and writes the summary", async () => {
    const { admin, count } = shopify();
    const created = await label(5);
    await pushLabelToShopify({ db, admin }, { shop: SHOP, labelId: created.id, notifyCustomer: false });
    expect([count("ShopPlan"), count("FulfillmentContext"), count("FulfillmentCreate"), count("OrderLabelMetafieldSet")]).toEqual([1, 1, 1, 1]);
    expect((await db.label.findUniqueOrThrow({ where: { id: created.id } })).summaryDueAt).toBeNull();
  });
});

describe("the batched summaries", () => {
  const due = (n: number, extra: Record<string, unknown> = {}) => label(n, { fulfillmentStatus: "CREATED", summaryDueAt: new Date(Date.now() - 1000 + n), ...extra });

  it("waits for a full batch of 25 unless told to write all, one metafield per order, each label once", async () => {
    const { admin, metafieldBatches } = shopify();
    for (let n = 1; n <= 24; n++) await due(n);
    expect(await flushOrderSummaries(db, admin, SHOP, { all: false })).toEqual({ written: 0, waiting: 24 });
    for (let n = 25; n <= 30; n++) await due(n);
    // Two flushes at once (two items finishing together): 25 written by one call, none twice.
    const written = await Promise.all([flushOrderSummaries(db, admin, SHOP, { all: false }), flushOrderSummaries(db, admin, SHOP, { all: false })]);
    expect(written[0].written + written[1].written).toBe(25);
    // The one that wrote left the other 5 waiting; the other found the batch taken, or the 5.
    expect(written.map((flush) => flush.waiting)).toContain(5);
    expect(metafieldBatches).toHaveLength(1);
    expect(metafieldBatches[0]).toHaveLength(25);
    expect(await flushOrderSummaries(db, admin, SHOP, { all: true })).toEqual({ written: 5, waiting: 0 });
    const owners = metafieldBatches.flat().map((metafield) => metafield.ownerId);
    expect(new Set(owners).size).toBe(30);
    expect(JSON.parse(metafieldBatches[1]!.find((metafield) => metafield.ownerId === order(30))!.value)).toMatchObject({ count: 1, labels: [{ trackingNumber: "TRACK30" }] });
    expect(await db.label.count({ where: { metafieldWritten: false } })).toBe(0);
  });

  it("a refused batch is left to the background pass (unwritten, no longer due), and another shop's labels are not touched", async () => {
    const { admin } = shopify({ failSummaries: true });
    await due(1);
    await label(2, { shop: "shop-b.myshopify.com", fulfillmentStatus: "CREATED", summaryDueAt: new Date() });
    expect(await flushOrderSummaries(db, admin, SHOP, { all: true })).toEqual({ written: 0, waiting: 0 });
    expect(await db.label.findFirstOrThrow({ where: { shop: SHOP } })).toMatchObject({ metafieldWritten: false, summaryDueAt: null });
    expect((await db.label.findFirstOrThrow({ where: { shop: "shop-b.myshopify.com" } })).summaryDueAt).toBeInstanceOf(Date);
  });
});
