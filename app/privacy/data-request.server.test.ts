import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/helpers/test-db";
import { customerDataExport, listDataRequests, markHandedOver, recordDataRequest } from "./data-request.server";

const A = "a.myshopify.com";
const B = "b.myshopify.com";
const database = createTestDatabase();
const db = database.prisma;
afterAll(() => database.close());

const snapshot = (firstname: string, email: string) =>
  JSON.stringify({ weight: "1000", recipient: { firstname, lastname: "Martin", address_line1: "1 rue de la Paix", city: "Lyon", zip: "69001", email, country: "FR" } });

async function label(shop: string, order: number, firstname: string, email: string) {
  return db.label.create({
    data: {
      shop,
      orderId: `gid://shopify/Order/${order}`,
      orderName: `#${order}`,
      environment: "staging",
      customReference: `20261122-${order}`,
      serviceLabelId: `L-${shop}-${order}`,
      trackingNumber: `TN${order}`,
      trackingUrl: `https://track.test/${order}`,
      labelUrl: `https://labels.test/${order}.pdf`,
      carrierName: "Dhl",
      carrierServiceName: "n",
      labelFormat: "PDF_A4_300dpi",
      requestSnapshotJson: snapshot(firstname, email),
    },
  });
}

const request = (orders: (number | string)[], id: number | null = 9999) => ({
  shop_domain: A,
  customer: { id: 191167, email: "zoe@example.com", phone: null },
  orders_requested: orders,
  ...(id === null ? {} : { data_request: { id } }),
});

beforeEach(async () => {
  await db.customerDataRequest.deleteMany();
  await db.label.deleteMany();
  await db.purchaseAttempt.deleteMany();
  await label(A, 1001, "Zoé", "zoe@example.com");
  await label(A, 1002, "Paul", "paul@example.com");
  await label(B, 1001, "Other", "other@example.com");
  await db.purchaseAttempt.create({
    data: {
      shop: A,
      orderId: "gid://shopify/Order/1003",
      orderName: "#1003",
      environment: "staging",
      customReference: "20261122-1003",
      status: "REJECTED",
      requestJson: snapshot("Zoé", "zoe@example.com"),
      errorJson: JSON.stringify({ error: "code postal invalide" }),
    },
  });
});

describe("customers/data_request export", () => {
  it("holds the label snapshots and purchase attempts of the requested orders, and nothing of other orders or shops", async () => {
    const id = await recordDataRequest(db, A, request([1001, 1003]), "w-1");
    const exported = await customerDataExport(db, A, id);
    expect(exported?.request).toMatchObject({ shopifyRequestId: "9999", customerId: "191167", orders: ["gid://shopify/Order/1001", "gid://shopify/Order/1003"] });
    expect(exported?.labels.map((entry) => [entry.orderName, entry.trackingNumber])).toEqual([["#1001", "TN1001"]]);
    expect(exported?.labels[0]?.requestAsSent).toMatchObject({ recipient: { firstname: "Zoé", email: "zoe@example.com" } });
    expect(exported?.purchaseAttempts).toMatchObject([{ orderName: "#1003", status: "REJECTED", serviceAnswer: { error: "code postal invalide" } }]);
    const text = JSON.stringify(exported);
    expect(text).not.toContain("Paul");
    expect(text).not.toContain("Other");
  });

  it("is not reachable from another shop", async () => {
    const id = await recordDataRequest(db, A, request([1001]), "w-1");
    expect(await customerDataExport(db, B, id)).toBeNull();
    expect(await markHandedOver(db, B, id)).toBe(false);
    expect(await listDataRequests(db, B)).toEqual([]);
  });

  it("records a request once, even when delivered twice", async () => {
    await recordDataRequest(db, A, request([1001]), "w-1");
    await recordDataRequest(db, A, request([1001]), "w-2");
    await recordDataRequest(db, A, request([1002], null), "w-3");
    const listed = await listDataRequests(db, A);
    expect(listed.map((entry) => [entry.shopifyRequestId, entry.orderCount, entry.recordsFound])).toEqual(
      expect.arrayContaining([
        ["9999", 1, 1],
        [null, 1, 1],
      ]),
    );
    expect(listed).toHaveLength(2);
  });

  it("shows a later redaction, and remembers when the merchant handed it over", async () => {
    const id = await recordDataRequest(db, A, request([1001]), "w-1");
    await db.label.updateMany({ where: { shop: A, orderId: "gid://shopify/Order/1001" }, data: { requestSnapshotJson: snapshot("[redacted]", "[redacted]") } });
    expect(JSON.stringify(await customerDataExport(db, A, id))).not.toContain("Zoé");
    const at = new Date("2026-11-23T10:00:00Z");
    expect(await markHandedOver(db, A, id, at)).toBe(true);
    expect((await listDataRequests(db, A))[0]?.handedOverAt).toEqual(at);
  });
});
