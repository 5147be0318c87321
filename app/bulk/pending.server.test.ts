/** PENDING items follow their purchase attempt as the reconciler settles it. */
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/helpers/test-db";
import { orderSlot } from "../labels/purchase.server";
import { settlePendingItems } from "./pending.server";

const database = createTestDatabase();
const db = database.prisma;
const SHOP = "a.myshopify.com";

afterAll(() => database.close());
beforeEach(async () => {
  await db.bulkJobItem.deleteMany();
  await db.bulkJob.deleteMany();
  await db.purchaseAttempt.deleteMany();
  await db.label.deleteMany();
});

async function pendingItem(orderId: string, attemptId: string | null) {
  const job = await db.bulkJob.create({ data: { shop: SHOP, environment: "staging", settingsJson: "{}" } });
  return db.bulkJobItem.create({ data: { jobId: job.id, shop: SHOP, orderId, orderName: "#1", position: 0, status: "PENDING", attemptId, reasonJson: JSON.stringify({ code: "purchase_unknown" }) } });
}

async function attempt(orderId: string, status: string, extra: Record<string, unknown> = {}) {
  return db.purchaseAttempt.create({
    data: { shop: SHOP, orderId, orderName: "#1", environment: "staging", customReference: `ref-${orderId}`, orderSlot: orderSlot(SHOP, orderId, 1), status, requestJson: "{}", ...extra },
  });
}

describe("settlePendingItems", () => {
  it("an attempt the reconciler found a label for makes the item LABELLED with its tracking number", async () => {
    const label = await db.label.create({
      data: { shop: SHOP, orderId: "o1", orderName: "#1", environment: "staging", customReference: "ref-o1", serviceLabelId: "S1", trackingNumber: "TRK1", trackingUrl: "t", labelUrl: "u", carrierName: "Dhl", carrierServiceName: "P", labelFormat: "PDF_A4_300dpi", requestSnapshotJson: "{}" },
    });
    const open = await attempt("o1", "CREATED", { labelId: label.id });
    const item = await pendingItem("o1", open.id);
    expect(await settlePendingItems(db)).toBe(1);
    expect(await db.bulkJobItem.findUniqueOrThrow({ where: { id: item.id } })).toMatchObject({ status: "LABELLED", labelId: label.id, trackingNumber: "TRK1", reasonJson: null });
  });

  it("a refused attempt makes it REFUSED with the service's message; one needing review stays PENDING with that reason", async () => {
    const refused = await attempt("o2", "REJECTED", { errorJson: JSON.stringify({ message: "bad zip", messageFr: "code postal invalide" }) });
    const review = await attempt("o3", "NEEDS_REVIEW");
    const a = await pendingItem("o2", refused.id);
    const b = await pendingItem("o3", review.id);
    await settlePendingItems(db);
    const [first, second] = await Promise.all([db.bulkJobItem.findUniqueOrThrow({ where: { id: a.id } }), db.bulkJobItem.findUniqueOrThrow({ where: { id: b.id } })]);
    expect(first.status).toBe("REFUSED");
    expect(JSON.parse(first.reasonJson!)).toEqual({ code: "service_refused", params: { message: "bad zip", messageFr: "code postal invalide" } });
    expect(second.status).toBe("PENDING");
    expect(JSON.parse(second.reasonJson!)).toMatchObject({ code: "purchase_needs_review", params: { reference: "ref-o3" } });
  });

  it("an item without its attempt follows whatever holds the order's slot; a released slot makes it REFUSED (nothing charged)", async () => {
    await attempt("o4", "UNKNOWN");
    const held = await pendingItem("o4", null);
    const released = await pendingItem("o5", "gone");
    await settlePendingItems(db);
    expect((await db.bulkJobItem.findUniqueOrThrow({ where: { id: held.id } })).status).toBe("PENDING");
    expect(await db.bulkJobItem.findUniqueOrThrow({ where: { id: released.id } })).toMatchObject({ status: "REFUSED", reasonJson: JSON.stringify({ code: "purchase_released" }) });
  });
});
