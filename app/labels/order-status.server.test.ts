import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/helpers/test-db";
import { labelFactsByOrder } from "./order-status.server";
import { deriveOrderLabelView } from "./status";

const database = createTestDatabase();
const db = database.prisma;
afterAll(() => database.close());

const SHOP = "status.myshopify.com";
const order = (n: number) => `gid://shopify/Order/${n}`;
let counter = 0;

async function attempt(orderId: string, status: string, shop = SHOP) {
  counter += 1;
  return db.purchaseAttempt.create({
    data: { shop, orderId, orderName: `#${counter}`, environment: "staging", customReference: `20261123-${counter}`, status, requestJson: "{}" },
  });
}
async function label(orderId: string, fulfillmentStatus = "CREATED", shop = SHOP) {
  counter += 1;
  return db.label.create({
    data: {
      shop,
      orderId,
      orderName: `#${counter}`,
      environment: "staging",
      customReference: `20261123-${counter}`,
      serviceLabelId: `L${counter}`,
      trackingNumber: `T${counter}`,
      trackingUrl: "",
      labelUrl: `https://labels.test/${counter}.pdf`,
      carrierName: "Colissimo",
      carrierServiceName: "DOM",
      labelFormat: "PDF_A4_300dpi",
      requestSnapshotJson: "{}",
      fulfillmentStatus,
    },
  });
}

beforeEach(async () => {
  await db.purchaseAttempt.deleteMany();
  await db.label.deleteMany();
});

describe("labelFactsByOrder", () => {
  it("gives each order's attempts and labels, oldest first, scoped by shop, and the newest label file", async () => {
    await attempt(order(2), "REJECTED");
    await attempt(order(3), "REJECTED");
    await label(order(3));
    await label(order(4), "FAILED");
    await label(order(5));
    await attempt(order(5), "NEEDS_REVIEW");
    await label(order(6));
    await attempt(order(6), "UNKNOWN");
    await label(order(7));
    const newest = await label(order(7));
    await label(order(8), "CREATED", "other.myshopify.com");

    const facts = await labelFactsByOrder(db, SHOP, [1, 2, 3, 4, 5, 6, 7, 8].map(order));
    const statuses = Object.fromEntries(
      [...facts].map(([id, own]) => [id.split("/").pop(), deriveOrderLabelView({ ...own, blockers: [] }).status]),
    );
    expect(statuses).toEqual({
      "1": "none",
      "2": "rejected",
      "3": "fulfilled",
      "4": "fulfillment_failed",
      "5": "needs_review",
      "6": "pending",
      "7": "fulfilled",
      "8": "none",
    });
    expect(facts.get(order(7))?.labelUrl).toBe(newest.labelUrl);
    expect(facts.get(order(8))).toEqual({ attempts: [], labels: [], labelUrl: null, labelledLocations: [] });
  });
});
