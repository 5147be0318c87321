/**
 * Staging (test) labels never reach a real customer (issue 16 item 1, decision 0170): the Shopify step is skipped
 * unless the shop turned "fulfil with test labels" on AND Shopify says it is a development store, at push time.
 */
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { mockAdmin, unfulfilledOrderContext } from "../../test/helpers/mock-admin";
import { createTestDatabase } from "../../test/helpers/test-db";
import { setFulfilTestLabels } from "../settings/test-labels.server";
import { pushLabelToShopify } from "./fulfill.server";
import { labelFulfillmentStatus } from "./status";

const database = createTestDatabase();
const db = database.prisma;
afterAll(() => database.close());

const SHOP = "step.myshopify.com";
const ORDER = "gid://shopify/Order/77";

function shopify(options: { developmentStore: boolean }) {
  const writes: string[] = [];
  const admin = mockAdmin({
    ShopPlan: () => ({ data: { shop: { plan: { partnerDevelopment: options.developmentStore } } } }),
    FulfillmentContext: () => unfulfilledOrderContext({ id: ORDER, name: "#77", n: 7 }),
    FulfillmentCreate: () => {
      writes.push("fulfillmentCreate");
      return { data: { fulfillmentCreate: { fulfillment: { id: "gid://shopify/Fulfillment/7", status: "SUCCESS" }, userErrors: [] } } };
    },
    OrderLabelMetafieldSet: () => {
      writes.push("metafieldsSet");
      return { data: { metafieldsSet: { metafields: [{ id: "gid://shopify/Metafield/7" }], userErrors: [] } } };
    },
  });
  return { admin, writes };
}

async function storedLabel(environment: "staging" | "production") {
  return db.label.create({
    data: {
      shop: SHOP, orderId: ORDER, orderName: "#77", environment, customReference: `20261123-${environment}`,
      serviceLabelId: `L-${environment}`, trackingNumber: "TEST123", trackingUrl: "https://sandbox.test/t/TEST123",
      labelUrl: "https://sandbox.test/l.pdf", carrierName: "Dhl", carrierServiceName: "n", labelFormat: "PDF_A4_300dpi", requestSnapshotJson: "{}",
    },
  });
}

beforeEach(async () => {
  await db.label.deleteMany();
  await db.shopSettings.deleteMany();
});

describe("the Shopify step of a test label", () => {
  it("is skipped by default: the label is stored, nothing is written in Shopify, no one is notified", async () => {
    const label = await storedLabel("staging");
    const { admin, writes } = shopify({ developmentStore: true });
    const result = await pushLabelToShopify({ db, admin }, { shop: SHOP, labelId: label.id, notifyCustomer: true });
    expect(result).toMatchObject({ status: "skipped", reason: "test_label" });
    expect(writes).toEqual([]);
    // Not even read: the decision needs no Shopify call when the setting is off.
    expect(admin.calls).toEqual([]);
    const stored = await db.label.findUniqueOrThrow({ where: { id: label.id } });
    expect(stored.fulfillmentStatus).toBe("SKIPPED_TEST");
    expect(labelFulfillmentStatus(stored.fulfillmentStatus)).toBe("SKIPPED_TEST");
  });

  it("creates the fulfillment on a development store whose merchant turned 'fulfil with test labels' on", async () => {
    const { admin, writes } = shopify({ developmentStore: true });
    expect(await setFulfilTestLabels({ db, admin }, SHOP, true)).toEqual({ ok: true, on: true });
    const label = await storedLabel("staging");
    const result = await pushLabelToShopify({ db, admin }, { shop: SHOP, labelId: label.id, notifyCustomer: true });
    expect(result.status).toBe("created");
    expect(writes).toEqual(["fulfillmentCreate", "metafieldsSet"]);
  });

  it("refuses to turn the setting on for a store that is not a development store", async () => {
    const { admin } = shopify({ developmentStore: false });
    expect(await setFulfilTestLabels({ db, admin }, SHOP, true)).toEqual({ ok: false, code: "not_development_store" });
    expect(await db.shopSettings.findUnique({ where: { shop: SHOP } })).toBeNull();
    expect(await setFulfilTestLabels({ db, admin }, SHOP, false)).toEqual({ ok: true, on: false });
  });

  it("asks Shopify at each push: a store no longer in development skips test labels even with the setting on", async () => {
    await db.shopSettings.create({ data: { shop: SHOP, fulfilTestLabels: true } });
    const label = await storedLabel("staging");
    const { admin, writes } = shopify({ developmentStore: false });
    const result = await pushLabelToShopify({ db, admin }, { shop: SHOP, labelId: label.id, notifyCustomer: true });
    expect(result.status).toBe("skipped");
    expect(writes).toEqual([]);
    expect(admin.calls.map((call) => call.operationName)).toEqual(["ShopPlan"]);
  });

  it("a skipped label is sent once the merchant turns the setting on (Retry), and never twice", async () => {
    const label = await storedLabel("staging");
    const { admin, writes } = shopify({ developmentStore: true });
    await pushLabelToShopify({ db, admin }, { shop: SHOP, labelId: label.id, notifyCustomer: true });
    await setFulfilTestLabels({ db, admin }, SHOP, true);
    expect((await pushLabelToShopify({ db, admin }, { shop: SHOP, labelId: label.id, notifyCustomer: true })).status).toBe("created");
    expect((await pushLabelToShopify({ db, admin }, { shop: SHOP, labelId: label.id, notifyCustomer: true })).status).toBe("created");
    expect(writes).toEqual(["fulfillmentCreate", "metafieldsSet"]);
  });

  it("a production label always goes to Shopify, without asking for the plan", async () => {
    const label = await storedLabel("production");
    const { admin, writes } = shopify({ developmentStore: false });
    const result = await pushLabelToShopify({ db, admin }, { shop: SHOP, labelId: label.id, notifyCustomer: true });
    expect(result.status).toBe("created");
    expect(writes).toEqual(["fulfillmentCreate", "metafieldsSet"]);
    expect(admin.calls.map((call) => call.operationName)).not.toContain("ShopPlan");
  });
});
