/**
 * Recipient data retention as a recurring job (decision 0172): every RECIPIENT_RETENTION_INTERVAL_MS across all
 * instances together, and once at start, redact the recipient of label requests older than the retention period and
 * re-seal recent ones still under an older key. Not retried: the next tick is the retry.
 */
import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import { enforceRecipientRetention } from "../../privacy/retention.server";
import { defineJob, type JobDefinition } from "../registry";
import { RECURRING_SINGLETON_KEY } from "../schedule.server";
import type { JobQueue } from "../types";

export const RECIPIENT_RETENTION_JOB = "redact-recipient-data";
export const RECIPIENT_RETENTION_INTERVAL_MS = 6 * 3_600_000;

export function recipientRetentionJob(deps: { db: PrismaClient; log?: (message: string) => void }): JobDefinition {
  return defineJob({
    name: RECIPIENT_RETENTION_JOB,
    payload: z.null(),
    concurrency: 1,
    retryLimit: 0,
    async handle() {
      const outcome = await enforceRecipientRetention(deps.db);
      const total = Object.values(outcome).reduce((sum, count) => sum + count, 0);
      if (total > 0) deps.log?.(`recipient retention: ${JSON.stringify(outcome)}`);
    },
  });
}

export async function scheduleRecipientRetention(queue: JobQueue, intervalMs = RECIPIENT_RETENTION_INTERVAL_MS): Promise<void> {
  await queue.recurring(RECIPIENT_RETENTION_JOB, { everyMs: intervalMs, payload: null });
  await queue.enqueue(RECIPIENT_RETENTION_JOB, { shop: "*", payload: null }, { singletonKey: RECURRING_SINGLETON_KEY, retryLimit: 0 });
}
