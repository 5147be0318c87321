/**
 * Recipient data at rest (issue 16 item 5, decision 0172): sealed in the stored requests, opened on read, re-sealed
 * after a key rotation, redacted after the retention period by the recurring job.
 */
import { randomBytes } from "node:crypto";
import Database from "libsql";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/helpers/test-db";
import { exampleLabelRequest } from "../label-service/__fixtures__/example-request";
import { recipientRetentionJob } from "../jobs/handlers/recipient-retention.job";
import { purchaseLabel, type LabelServicePort } from "../labels/purchase.server";
import { createSecretBox } from "../security/secret-box.server";
import { customerDataExport } from "./data-request.server";
import { redactCustomerOrders } from "./redact.server";
import { enforceRecipientRetention, RECIPIENT_RETENTION_DAYS } from "./retention.server";
import { openRequest, resealRequest, sealedKeyVersion, sealRequest, snapshotBox } from "./snapshot-seal.server";

const database = createTestDatabase();
const db = database.prisma;
afterAll(() => database.close());
beforeEach(async () => {
  await db.purchaseAttempt.deleteMany();
  await db.label.deleteMany();
});

const SHOP = "seal.myshopify.com";
const PERSONAL = ["Schmidt", "Jonas", "Friedrichstraße", "Berlin", "10117", "jonas.schmidt@example.de"];
const DAY = 24 * 3_600_000;

const service: LabelServicePort = {
  generateLabel: async (request) => ({
    status: "created",
    label: { id: `L-${request.custom_reference}`, reference: `T-${request.custom_reference}`, label_url: "https://s/l.pdf", tracking_url: "https://s/t", custom_reference: request.custom_reference },
  }),
  lookUpLabelByReference: async () => ({ status: "absent" }),
};

async function buy(order: number) {
  const result = await purchaseLabel(
    { db, service },
    { shop: SHOP, environment: "staging", orderId: `gid://shopify/Order/${order}`, orderName: `#${order}`, buildRequest: (reference) => exampleLabelRequest({ custom_reference: reference }) },
  );
  if (result.status !== "created") throw new Error(`expected a label, got ${result.status}`);
  return result.label;
}

/** The raw bytes of the database file's rows, as SQLite stores them (no Prisma in between). */
function rawRows(): string {
  const sqlite = new Database(database.url.slice("file:".length), { readonly: true });
  try {
    const rows = [
      ...sqlite.prepare('SELECT "requestJson" AS text FROM "PurchaseAttempt"').all(),
      ...sqlite.prepare('SELECT "requestSnapshotJson" AS text FROM "Label"').all(),
    ] as { text: string }[];
    return rows.map((row) => row.text).join("\n");
  } finally {
    sqlite.close();
  }
}

describe("recipient data at rest", () => {
  it("a bought label's stored request holds no name, address or e-mail in clear, and reads back whole", async () => {
    const label = await buy(1);
    const stored = rawRows();
    expect(stored).toContain('"sealed":"v1:');
    for (const value of PERSONAL) expect(stored).not.toContain(value);
    // Carrier and format stay readable (the purchase flow reads them without a key).
    expect(stored).toContain('"carrier_name":"Dhl"');
    const opened = openRequest(label.requestSnapshotJson) as { recipient: Record<string, string> };
    expect(opened.recipient).toMatchObject({ lastname: "Schmidt", firstname: "Jonas", city: "Berlin", email: "jonas.schmidt@example.de" });
  });

  it("the customer data export shows the recipient opened", async () => {
    await buy(2);
    const request = await db.customerDataRequest.create({ data: { shop: SHOP, requestKey: "r2", orderIdsJson: JSON.stringify(["gid://shopify/Order/2"]) } });
    const exported = JSON.stringify(await customerDataExport(db, SHOP, request.id));
    expect(exported).toContain("Schmidt");
    expect(exported).not.toContain('"sealed"');
  });

  it("a tampered or foreign ciphertext never opens", () => {
    const other = createSecretBox(new Map([[1, randomBytes(32)]]), 1);
    const sealed = sealRequest(exampleLabelRequest(), other);
    expect(() => openRequest(sealed)).toThrow(/authentication/);
  });

  it("rotation: old rows open with the previous key, and the retention pass re-seals them under the current one", async () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const before = createSecretBox(new Map([[1, oldKey]]), 1);
    const rotated = createSecretBox(new Map([[1, oldKey], [2, newKey]]), 2);
    const after = createSecretBox(new Map([[2, newKey]]), 2);
    const label = await db.label.create({
      data: {
        shop: SHOP, orderId: "gid://shopify/Order/3", orderName: "#3", environment: "staging", customReference: "20261123-003", serviceLabelId: "L3",
        trackingNumber: "T3", trackingUrl: "", labelUrl: "", carrierName: "Dhl", carrierServiceName: "n", labelFormat: "PDF_A4_300dpi",
        requestSnapshotJson: sealRequest(exampleLabelRequest(), before),
      },
    });
    expect(sealedKeyVersion(label.requestSnapshotJson)).toBe(1);
    expect((openRequest(label.requestSnapshotJson, rotated) as { recipient: { lastname: string } }).recipient.lastname).toBe("Schmidt");
    expect(resealRequest(sealRequest(exampleLabelRequest(), rotated), rotated)).toBeNull();

    const outcome = await enforceRecipientRetention(db, { box: rotated });
    expect(outcome).toMatchObject({ resealedLabels: 1, redactedLabels: 0 });
    const stored = await db.label.findUniqueOrThrow({ where: { id: label.id } });
    expect(sealedKeyVersion(stored.requestSnapshotJson)).toBe(2);
    // The old key can now be retired.
    expect((openRequest(stored.requestSnapshotJson, after) as { recipient: { city: string } }).recipient.city).toBe("Berlin");
    expect(() => openRequest(label.requestSnapshotJson, after)).toThrow(/no key for version 1/);
  });
});

describe("retention", () => {
  it(`redacts the recipient ${RECIPIENT_RETENTION_DAYS} days after the label, keeps recent ones sealed, and keeps tracking for accounting`, async () => {
    const old = await buy(4);
    const recent = await buy(5);
    const now = new Date(Date.now() + (RECIPIENT_RETENTION_DAYS + 1) * DAY);
    await db.label.update({ where: { id: recent.id }, data: { createdAt: new Date(now.getTime() - (RECIPIENT_RETENTION_DAYS - 1) * DAY) } });
    await db.purchaseAttempt.updateMany({ where: { labelId: recent.id }, data: { createdAt: new Date(now.getTime() - (RECIPIENT_RETENTION_DAYS - 1) * DAY) } });

    expect(await enforceRecipientRetention(db, { now })).toMatchObject({ redactedLabels: 1, redactedAttempts: 1 });
    const redacted = await db.label.findUniqueOrThrow({ where: { id: old.id }, include: { attempt: true } });
    expect(redacted.redactedAt).toEqual(now);
    expect(redacted.attempt?.redactedAt).toEqual(now);
    for (const text of [redacted.requestSnapshotJson, redacted.attempt!.requestJson]) {
      for (const value of PERSONAL) expect(text).not.toContain(value);
      expect(JSON.parse(text).recipient).toMatchObject({ lastname: "[redacted]", country: "DE" });
    }
    expect(redacted.trackingNumber).toBe(old.trackingNumber);
    const kept = await db.label.findUniqueOrThrow({ where: { id: recent.id } });
    expect(kept.redactedAt).toBeNull();
    expect((openRequest(kept.requestSnapshotJson) as { recipient: { lastname: string } }).recipient.lastname).toBe("Schmidt");
    // Each row once.
    expect(await enforceRecipientRetention(db, { now })).toMatchObject({ redactedLabels: 0, redactedAttempts: 0 });
  });

  it("the recurring job runs the pass", async () => {
    const label = await buy(6);
    await db.label.update({ where: { id: label.id }, data: { createdAt: new Date(Date.now() - (RECIPIENT_RETENTION_DAYS + 1) * DAY) } });
    const job = recipientRetentionJob({ db });
    await job.handle({ shop: "*", payload: null, signal: new AbortController().signal, attempt: 1, id: "j1" } as never);
    expect((await db.label.findUniqueOrThrow({ where: { id: label.id } })).redactedAt).not.toBeNull();
  });

  it("customers/redact also marks the attempts redacted, sealed recipients included", async () => {
    await buy(7);
    await redactCustomerOrders(db, SHOP, ["gid://shopify/Order/7"]);
    const attempt = await db.purchaseAttempt.findFirstOrThrow({ where: { orderId: "gid://shopify/Order/7" } });
    expect(attempt.redactedAt).not.toBeNull();
    for (const value of PERSONAL) expect(rawRows()).not.toContain(value);
    expect(snapshotBox().currentVersion).toBe(1);
  });
});
