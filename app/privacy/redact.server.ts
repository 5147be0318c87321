/**
 * GDPR: customer redaction and shop deletion. Only the customer's personal data in stored request snapshots is
 * removed; label ids, tracking numbers and amounts stay, because the merchant needs them for accounting and claims.
 */
import type { PrismaClient } from "../generated/prisma/client";

const REDACTED = "[redacted]";
const PERSONAL_FIELDS = ["lastname", "firstname", "address_line1", "address_line2", "city", "zip", "email", "phone1", "company_name"];

/** Replaces the recipient's personal fields in a request snapshot (JSON text). Unknown shapes are emptied. */
export function redactSnapshot(snapshotJson: string): string {
  try {
    const snapshot = JSON.parse(snapshotJson) as Record<string, unknown>;
    const recipient = snapshot.recipient;
    if (recipient && typeof recipient === "object") {
      for (const field of PERSONAL_FIELDS) {
        if (field in recipient) (recipient as Record<string, unknown>)[field] = REDACTED;
      }
    }
    return JSON.stringify(snapshot);
  } catch {
    return JSON.stringify({ redacted: true });
  }
}

export async function redactCustomerOrders(db: PrismaClient, shop: string, orderIds: readonly string[]): Promise<number> {
  if (orderIds.length === 0) return 0;
  const now = new Date();
  let count = 0;
  const labels = await db.label.findMany({ where: { shop, orderId: { in: [...orderIds] } } });
  for (const label of labels) {
    await db.label.update({
      where: { id: label.id },
      data: { requestSnapshotJson: redactSnapshot(label.requestSnapshotJson), redactedAt: now },
    });
    count += 1;
  }
  // Merged print files hold the labels' addresses: drop any that includes one of these labels.
  if (labels.length > 0) {
    await db.printFile.deleteMany({ where: { shop, OR: labels.map((label) => ({ labelIdsJson: { contains: `"${label.id}"` } })) } });
  }
  const attempts = await db.purchaseAttempt.findMany({ where: { shop, orderId: { in: [...orderIds] } } });
  for (const attempt of attempts) {
    await db.purchaseAttempt.update({
      where: { id: attempt.id },
      data: { requestJson: redactSnapshot(attempt.requestJson) },
    });
  }
  return count;
}

/** shop/redact: everything the app stored for the shop. */
export async function deleteShopData(db: PrismaClient, shop: string): Promise<void> {
  await db.$transaction([
    db.purchaseAttempt.deleteMany({ where: { shop } }),
    db.label.deleteMany({ where: { shop } }),
    db.printFile.deleteMany({ where: { shop } }),
    db.labelServiceAccount.deleteMany({ where: { shop } }),
    db.shopSettings.deleteMany({ where: { shop } }),
    db.referenceCounter.deleteMany({ where: { shop } }),
    db.webhookDelivery.deleteMany({ where: { shop } }),
    db.customerDataRequest.deleteMany({ where: { shop } }),
    db.session.deleteMany({ where: { shop } }),
  ]);
}
