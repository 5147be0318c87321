/**
 * GDPR: customer redaction and shop deletion. Only the customer's personal data in stored request snapshots is
 * removed; label ids, tracking numbers and amounts stay, because the merchant needs them for accounting and claims.
 */
import type { Label, PrismaClient, PurchaseAttempt } from "../generated/prisma/client";

import { accountSemaphoreKey } from "../bulk/item-job";
import type { JobQueue } from "../jobs/types";
import type { LabelFiles } from "../print/label-files.server";
import { LABEL_ENVIRONMENTS } from "../labels/environments";
import type { SecretBox } from "../security/secret-box.server";
import { openRequest, sealedRecipient, snapshotBox } from "./snapshot-seal.server";

const REDACTED = "[redacted]";
const PERSONAL_FIELDS = ["lastname", "firstname", "address_line1", "address_line2", "city", "zip", "email", "phone1", "company_name"];

/**
 * Replaces the recipient's personal fields in a request snapshot (JSON text). A sealed recipient (decision 0172) is
 * opened first so its non-personal fields (country) stay; one that cannot be opened (key gone) is dropped whole.
 * Unknown shapes are emptied. The result holds no personal data, so it is stored unsealed.
 */
export function redactSnapshot(snapshotJson: string, box?: SecretBox): string {
  try {
    let snapshot = JSON.parse(snapshotJson) as Record<string, unknown>;
    if (sealedRecipient(snapshot)) {
      try {
        snapshot = openRequest(snapshotJson, box ?? snapshotBox()) as Record<string, unknown>;
      } catch {
        return JSON.stringify({ ...snapshot, recipient: { redacted: true } });
      }
    }
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

/** Redacts the stored labels and attempts of these rows (customers/redact, or the retention job). */
export async function redactRows(
  db: PrismaClient,
  rows: { labels: readonly Pick<Label, "id" | "requestSnapshotJson">[]; attempts: readonly Pick<PurchaseAttempt, "id" | "requestJson">[] },
  now: Date,
  box?: SecretBox,
): Promise<{ labels: number; attempts: number }> {
  for (const label of rows.labels) {
    await db.label.update({ where: { id: label.id }, data: { requestSnapshotJson: redactSnapshot(label.requestSnapshotJson, box), redactedAt: now } });
  }
  for (const attempt of rows.attempts) {
    await db.purchaseAttempt.update({ where: { id: attempt.id }, data: { requestJson: redactSnapshot(attempt.requestJson, box), redactedAt: now } });
  }
  return { labels: rows.labels.length, attempts: rows.attempts.length };
}

/** This instance's cache of downloaded label files (app/print/label-files.server.ts): a label file shows the address. */
export type CachedLabelFiles = Pick<LabelFiles, "forget">;

export async function redactCustomerOrders(
  db: PrismaClient,
  shop: string,
  orderIds: readonly string[],
  options: { labelFiles?: CachedLabelFiles | null } = {},
): Promise<number> {
  if (orderIds.length === 0) return 0;
  const where = { shop, orderId: { in: [...orderIds] } };
  const [labels, attempts] = await Promise.all([db.label.findMany({ where }), db.purchaseAttempt.findMany({ where })]);
  // A bulk job's or preflight's stored copy of these orders (minutes old at most, decision 0184): dropped now.
  await db.bulkJobItem.updateMany({ where: { ...where, orderSealed: { not: null } }, data: { orderSealed: null, orderReadAt: null } });
  await db.preflightRead.deleteMany({ where });
  // Merged print files hold the labels' addresses: drop any that includes one of these labels.
  if (labels.length > 0) {
    await db.printFile.deleteMany({ where: { shop, OR: labels.map((label) => ({ labelIdsJson: { contains: `"${label.id}"` } })) } });
  }
  const redacted = (await redactRows(db, { labels, attempts }, new Date())).labels;
  // The label files themselves, cached on this instance, go too (best effort, never throws); another instance's
  // cache lets them expire within about a day (decision 0205).
  await options.labelFiles?.forget(labels.map((label) => label.labelUrl));
  return redacted;
}

/**
 * The semaphore keys only this shop used: its own key in each environment, and its saved accounts' keys unless another
 * shop saved the same login (that key is theirs too). Slots are transient leases; a crashed holder's may be left.
 */
async function shopSemaphoreKeys(db: PrismaClient, shop: string): Promise<string[]> {
  const accounts = await db.labelServiceAccount.findMany({ where: { shop }, select: { environment: true, email: true } });
  const others = await db.labelServiceAccount.findMany({ where: { NOT: { shop } }, select: { environment: true, email: true } });
  const sharedKeys = new Set(others.map((other) => accountSemaphoreKey(other.environment, other.email, "")));
  return [
    ...LABEL_ENVIRONMENTS.map((environment) => accountSemaphoreKey(environment, null, shop)),
    ...accounts.map((account) => accountSemaphoreKey(account.environment, account.email, shop)).filter((key) => !sharedKeys.has(key)),
  ];
}

/**
 * shop/redact: every row the app stored for the shop (every model with a `shop` field, its semaphore slots, and the
 * queue's jobs when the queue keeps them outside these tables, as pg-boss does). Safe to run again.
 */
export async function deleteShopData(
  db: PrismaClient,
  shop: string,
  options: { queue?: Pick<JobQueue, "forgetShop"> | null; labelFiles?: CachedLabelFiles | null } = {},
): Promise<void> {
  const semaphoreKeys = await shopSemaphoreKeys(db, shop);
  // The shop's cached label files first (best effort, never throws): a redelivery after the rows are gone could not
  // name them any more.
  if (options.labelFiles) await options.labelFiles.forget((await db.label.findMany({ where: { shop }, select: { labelUrl: true } })).map((label) => label.labelUrl));
  await db.$transaction([
    db.bulkJobItem.deleteMany({ where: { shop } }),
    db.bulkJob.deleteMany({ where: { shop } }),
    db.job.deleteMany({ where: { shop } }),
    db.shopifyBucket.deleteMany({ where: { shop } }),
    db.semaphoreSlot.deleteMany({ where: { key: { in: semaphoreKeys } } }),
    db.purchaseAttempt.deleteMany({ where: { shop } }),
    db.label.deleteMany({ where: { shop } }),
    db.printFile.deleteMany({ where: { shop } }),
    db.labelServiceAccount.deleteMany({ where: { shop } }),
    db.shopSettings.deleteMany({ where: { shop } }),
    db.referenceCounter.deleteMany({ where: { shop } }),
    db.webhookDelivery.deleteMany({ where: { shop } }),
    db.customerDataRequest.deleteMany({ where: { shop } }),
    db.preflightRead.deleteMany({ where: { shop } }),
    db.customsDescription.deleteMany({ where: { shop } }),
    db.session.deleteMany({ where: { shop } }),
  ]);
  await options.queue?.forgetShop(shop);
}
