/**
 * The fulfillment step against the Shopify Admin emulator, through the app's real Admin client: one fulfillment
 * with tracking, one customer notification, the $app metafield, and nothing twice on retry.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SHOP, DEMO_TOKEN, startTestEmulator, type TestEmulator } from "../../emulators/shopify-admin/test-helpers";
import { pushLabelToShopify } from "../../app/labels/fulfill.server";
import { createTestDatabase } from "../helpers/test-db";
import { fulfilTestLabelsOn } from "../helpers/dev-store";
import { fetchIsDevelopmentStore } from "../../app/shopify/operations/shop-plan";
import { realAdminFor } from "../helpers/real-admin";

const database = createTestDatabase();
const db = database.prisma;
let emulator: TestEmulator;
let admin: Awaited<ReturnType<typeof realAdminFor>>;

beforeAll(async () => {
  emulator = await startTestEmulator();
  admin = await realAdminFor(emulator.emulator.url, db, DEMO_SHOP, DEMO_TOKEN);
  // The emulated demo shop is a development store; its test labels are fulfilled once turned on (decision 0170).
  await fulfilTestLabelsOn(db, DEMO_SHOP);
});
afterAll(async () => {
  await emulator.emulator.close();
  await database.close();
});

async function labelFor(orderNumber: number, trackingNumber: string) {
  return db.label.create({
    data: {
      shop: DEMO_SHOP,
      orderId: `gid://shopify/Order/${7100000000 + orderNumber}`,
      orderName: `#${orderNumber}`,
      environment: "staging",
      customReference: `20261122-${orderNumber}`,
      serviceLabelId: `L-${orderNumber}`,
      trackingNumber,
      trackingUrl: `http://127.0.0.1:4010/tracking/${trackingNumber}`,
      labelUrl: `http://127.0.0.1:4010/labels/L-${orderNumber}.pdf`,
      carrierName: "Dhl",
      carrierServiceName: "P",
      labelFormat: "PDF_A4_300dpi",
      requestSnapshotJson: "{}",
    },
  });
}

describe("pushLabelToShopify against the emulator", () => {
  it("fulfils the Swiss order once, notifies once, and writes the summary", async () => {
    const label = await labelFor(1015, "1234567890");
    const first = await pushLabelToShopify({ db, admin }, { shop: DEMO_SHOP, labelId: label.id, notifyCustomer: true });
    expect(first.status).toBe("created");
    // A retry (e.g. the merchant clicks again) does not create a second fulfillment or notification.
    await db.label.update({ where: { id: label.id }, data: { fulfillmentStatus: "FAILED" } });
    const again = await pushLabelToShopify({ db, admin }, { shop: DEMO_SHOP, labelId: label.id, notifyCustomer: true });
    expect(again).toMatchObject({ status: "created", adopted: true });

    const { body } = await emulator.inspect("/__admin/orders/1015");
    expect(body.fulfillments).toHaveLength(1);
    expect(JSON.stringify(body.fulfillments[0])).toContain("1234567890");
    expect(JSON.stringify(body.fulfillments[0])).toContain("DHL Express");
    expect(body.notifications).toHaveLength(1);
    expect(JSON.stringify(body.metafields)).toContain("etiquette_label");
  });

  it("stores a readable failure when Shopify refuses (cancelled order), and never throws it at the merchant", async () => {
    const label = await labelFor(1036, "999");
    const result = await pushLabelToShopify({ db, admin }, { shop: DEMO_SHOP, labelId: label.id, notifyCustomer: false });
    expect(result.status).toBe("failed");
    const stored = await db.label.findUniqueOrThrow({ where: { id: label.id } });
    expect(stored.fulfillmentStatus).toBe("FAILED");
    expect(stored.fulfillmentError).toMatch(/#1036/);
  });

  it("a test label with 'fulfil with test labels' off leaves the order unfulfilled and the customer unaware", async () => {
    await db.shopSettings.update({ where: { shop: DEMO_SHOP }, data: { fulfilTestLabels: false } });
    try {
      const label = await labelFor(1054, "5550001054");
      const result = await pushLabelToShopify({ db, admin }, { shop: DEMO_SHOP, labelId: label.id, notifyCustomer: true });
      expect(result).toMatchObject({ status: "skipped", reason: "test_label" });
      const { body } = await emulator.inspect("/__admin/orders/1054");
      expect(body.fulfillments).toHaveLength(0);
      expect(body.notifications).toHaveLength(0);
      expect(JSON.stringify(body.metafields ?? [])).not.toContain("etiquette_label");
    } finally {
      await fulfilTestLabelsOn(db, DEMO_SHOP);
    }
  });

  it("the emulated demo shop answers as a development store (shop.plan.partnerDevelopment)", async () => {
    expect(await fetchIsDevelopmentStore(admin)).toBe(true);
  });
});
