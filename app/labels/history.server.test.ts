import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/helpers/test-db";
import { compareWithService, labelHistory, type RemoteListedLabel } from "./history.server";

const database = createTestDatabase();
const db = database.prisma;
afterAll(() => database.close());

const A = "shop-a.myshopify.com";
const B = "shop-b.myshopify.com";

function labelData(shop: string, n: number, extra: Record<string, unknown> = {}) {
  return {
    shop, orderId: `gid://shopify/Order/${n}`, orderName: `#${n}`, environment: "staging", customReference: `20261122-${String(n).padStart(3, "0")}`,
    serviceLabelId: `L${n}`, trackingNumber: `T${n}`, trackingUrl: `https://t/${n}`, labelUrl: `https://l/${n}.pdf`, carrierName: "Dhl",
    carrierServiceName: "n", labelFormat: "PDF_A4_300dpi", requestSnapshotJson: "{}", createdAt: new Date(Date.UTC(2026, 10, n % 28 + 1)), ...extra,
  };
}

beforeAll(async () => {
  await db.label.create({ data: labelData(A, 1, { fulfillmentStatus: "CREATED" }) });
  await db.label.create({ data: labelData(A, 2, { fulfillmentStatus: "FAILED", fulfillmentError: "on hold" }) });
  await db.label.create({ data: labelData(A, 3, { environment: "production" }) });
  await db.label.create({ data: labelData(B, 4) });
  await db.purchaseAttempt.create({
    data: { shop: A, orderId: "gid://shopify/Order/5", orderName: "#5", environment: "staging", customReference: "20261122-005", status: "NEEDS_REVIEW", requestJson: "{}", errorJson: JSON.stringify({ message: "not found yet" }) },
  });
});

describe("labelHistory", () => {
  it("lists only the shop's labels and open attempts, newest first", async () => {
    const { rows } = await labelHistory(db, A);
    expect(rows.map((row) => row.orderName).sort()).toEqual(["#1", "#2", "#3", "#5"]);
    expect(rows.every((row) => row.orderName !== "#4")).toBe(true);
  });

  it("filters by status, environment and date", async () => {
    expect((await labelHistory(db, A, { status: "fulfilled" })).rows.map((row) => row.orderName)).toEqual(["#1"]);
    expect((await labelHistory(db, A, { status: "fulfillment_failed" })).rows[0]).toMatchObject({ orderName: "#2", error: { en: "on hold" } });
    expect((await labelHistory(db, A, { status: "needs_review" })).rows[0]).toMatchObject({ orderName: "#5", error: { en: "not found yet", fr: "not found yet" } });
    expect((await labelHistory(db, A, { environment: "production" })).rows.map((row) => row.orderName)).toEqual(["#3"]);
    const dated = await labelHistory(db, A, { from: new Date(Date.UTC(2026, 10, 2)), to: new Date(Date.UTC(2026, 10, 3)) });
    expect(dated.rows.map((row) => row.orderName)).toEqual(["#1"]);
  });
});

describe("compareWithService", () => {
  async function* pages(...list: RemoteListedLabel[][]) {
    for (const page of list) yield page;
  }

  it("flags remote labels unknown to this shop, matching by id or custom reference", async () => {
    const result = await compareWithService(
      db,
      A,
      "staging",
      pages([{ id: "L1" }, { id: "L99", custom_reference: "20261122-005" }], [{ id: "L4" }, { id: "L100", custom_reference: "20261122-777" }]),
    );
    expect(result.pagesRead).toBe(2);
    expect(result.labels.map((label) => [label.id, label.knownLocally, label.orderName])).toEqual([
      ["L1", true, "#1"],
      ["L99", true, "#5"],
      ["L4", false, null],
      ["L100", false, null],
    ]);
  });

  it("flags a label whose attempt was refused or released as unknown, naming the order as a lead", async () => {
    await db.purchaseAttempt.create({
      data: { shop: A, orderId: "gid://shopify/Order/9", orderName: "#9", environment: "staging", customReference: "20261122-009", status: "REJECTED", requestJson: "{}" },
    });
    const result = await compareWithService(db, A, "staging", pages([{ id: "L900", custom_reference: "20261122-009" }]));
    expect(result.labels).toEqual([{ id: "L900", custom_reference: "20261122-009", knownLocally: false, orderName: "#9" }]);
  });

  it("stops after the page limit and says so", async () => {
    const result = await compareWithService(db, A, "staging", pages([{ id: "L1" }], [{ id: "L2" }], [{ id: "L3" }]), 2);
    expect(result).toMatchObject({ pagesRead: 2, truncated: true });
  });
});
