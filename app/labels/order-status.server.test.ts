import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/helpers/test-db";
import { labelStatusByOrder } from "./order-status.server";

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

describe("labelStatusByOrder", () => {
  it("puts what needs the merchant first, and gives the newest label file", async () => {
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

    const statuses = await labelStatusByOrder(db, SHOP, [1, 2, 3, 4, 5, 6, 7, 8].map(order));
    expect(Object.fromEntries([...statuses].map(([id, summary]) => [id.split("/").pop(), summary.status]))).toEqual({
      "1": "none",
      "2": "failed",
      "3": "created",
      "4": "failed",
      "5": "needs_review",
      "6": "pending",
      "7": "created",
      "8": "none",
    });
    expect(statuses.get(order(7))?.labelUrl).toBe(newest.labelUrl);
    expect(statuses.get(order(8))?.labelUrl).toBeNull();
  });
});
