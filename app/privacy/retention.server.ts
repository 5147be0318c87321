/**
 * Retention of recipient data (decision 0172). The recipient in stored label requests is kept for
 * RECIPIENT_RETENTION_DAYS after the label (or the attempt) was made: long enough for a carrier claim, a return or a
 * customs question, then redacted by the recurring job `redact-recipient-data`. Label ids, tracking numbers,
 * references and amounts stay: the merchant needs them for accounting.
 *
 * The same pass re-seals recipients still written with an older key version under the current one, so after a key
 * rotation (ENCRYPTION_KEY_VERSION + ENCRYPTION_PREVIOUS_KEYS) the old key can be retired once a pass has run.
 */
import { ORDER_DRAFT_FRESH_MS, PREFLIGHT_READ_KEPT_MS } from "../bulk/order-draft.server";
import type { PrismaClient } from "../generated/prisma/client";
import type { SecretBox } from "../security/secret-box.server";
import { redactRows } from "./redact.server";
import { resealRequest, snapshotBox } from "./snapshot-seal.server";

export const RECIPIENT_RETENTION_DAYS = 90;
const DAY_MS = 24 * 3_600_000;
const BATCH = 200;

export interface RetentionOutcome {
  redactedLabels: number;
  redactedAttempts: number;
  resealedLabels: number;
  resealedAttempts: number;
  /** Bulk items' and preflights' stored orders past their use (decision 0184), removed. */
  clearedOrderDrafts: number;
}

export async function enforceRecipientRetention(
  db: PrismaClient,
  options: { now?: Date; retentionDays?: number; box?: SecretBox } = {},
): Promise<RetentionOutcome> {
  const now = options.now ?? new Date();
  const box = options.box ?? snapshotBox();
  const cutoff = new Date(now.getTime() - (options.retentionDays ?? RECIPIENT_RETENTION_DAYS) * DAY_MS);
  const outcome: RetentionOutcome = { redactedLabels: 0, redactedAttempts: 0, resealedLabels: 0, resealedAttempts: 0, clearedOrderDrafts: 0 };

  // A bulk item's stored order is used for minutes and cleared when the item runs; one left behind (an item that
  // never ran) is removed once it could no longer be used.
  const cleared = await db.bulkJobItem.updateMany({
    where: { orderSealed: { not: null }, OR: [{ orderReadAt: null }, { orderReadAt: { lt: new Date(now.getTime() - ORDER_DRAFT_FRESH_MS) } }] },
    data: { orderSealed: null, orderReadAt: null },
  });
  const kept = await db.preflightRead.deleteMany({ where: { readAt: { lt: new Date(now.getTime() - PREFLIGHT_READ_KEPT_MS) } } });
  outcome.clearedOrderDrafts = cleared.count + kept.count;

  // Past the period: redacted, in batches (each row once: redactedAt is set).
  for (;;) {
    const expired = { redactedAt: null, createdAt: { lt: cutoff } };
    const [labels, attempts] = await Promise.all([
      db.label.findMany({ where: expired, select: { id: true, requestSnapshotJson: true }, take: BATCH }),
      db.purchaseAttempt.findMany({ where: expired, select: { id: true, requestJson: true }, take: BATCH }),
    ]);
    if (labels.length === 0 && attempts.length === 0) break;
    const done = await redactRows(db, { labels, attempts }, now, box);
    outcome.redactedLabels += done.labels;
    outcome.redactedAttempts += done.attempts;
  }

  // Within the period: re-sealed under the current key when an older one sealed them.
  for (let cursor: string | undefined; ; ) {
    const page = await db.label.findMany({
      where: { redactedAt: null, ...(cursor ? { id: { gt: cursor } } : {}) },
      select: { id: true, requestSnapshotJson: true },
      orderBy: { id: "asc" },
      take: BATCH,
    });
    for (const label of page) {
      const resealed = resealRequest(label.requestSnapshotJson, box);
      if (resealed === null) continue;
      await db.label.update({ where: { id: label.id }, data: { requestSnapshotJson: resealed } });
      outcome.resealedLabels += 1;
    }
    if (page.length < BATCH) break;
    cursor = page.at(-1)!.id;
  }
  for (let cursor: string | undefined; ; ) {
    const page = await db.purchaseAttempt.findMany({
      where: { redactedAt: null, ...(cursor ? { id: { gt: cursor } } : {}) },
      select: { id: true, requestJson: true },
      orderBy: { id: "asc" },
      take: BATCH,
    });
    for (const attempt of page) {
      const resealed = resealRequest(attempt.requestJson, box);
      if (resealed === null) continue;
      await db.purchaseAttempt.update({ where: { id: attempt.id }, data: { requestJson: resealed } });
      outcome.resealedAttempts += 1;
    }
    if (page.length < BATCH) break;
    cursor = page.at(-1)!.id;
  }
  return outcome;
}
