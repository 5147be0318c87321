/**
 * Recurring (every RECONCILE_INTERVAL_MS, all instances together): bulk items left PENDING follow their purchase
 * attempt once the reconciler settled it (app/bulk/pending.server.ts). Reads the label tables only.
 */
import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import { settlePendingItems } from "../../bulk/pending.server";
import { finishJobIfDone } from "../../bulk/bulk-jobs.server";
import { jobsWithPendingItems } from "../../bulk/item-rows.server";
import { defineJob, type JobDefinition } from "../registry";
import { RECURRING_SINGLETON_KEY } from "../schedule.server";
import type { JobQueue } from "../types";

export const BULK_SETTLE_PENDING_JOB = "bulk-settle-pending";

export function bulkSettlePendingJob(db: PrismaClient): JobDefinition {
  return defineJob({
    name: BULK_SETTLE_PENDING_JOB,
    payload: z.null(),
    concurrency: 1,
    retryLimit: 0,
    async handle() {
      const jobIds = await jobsWithPendingItems(db, 100);
      await settlePendingItems(db);
      for (const jobId of jobIds) await finishJobIfDone(db, jobId);
    },
  });
}

export async function scheduleBulkSettlePending(queue: JobQueue, intervalMs: number): Promise<void> {
  await queue.recurring(BULK_SETTLE_PENDING_JOB, { everyMs: intervalMs, payload: null });
  await queue.enqueue(BULK_SETTLE_PENDING_JOB, { shop: "*", payload: null }, { singletonKey: RECURRING_SINGLETON_KEY, retryLimit: 0 });
}
