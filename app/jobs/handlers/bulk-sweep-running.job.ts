/**
 * Recurring (every RECONCILE_INTERVAL_MS, all instances together): bulk items left RUNNING by a worker that died are
 * handed back to the normal path, and items left QUEUED without a queue job get one (app/bulk/sweeper.server.ts,
 * decisions 0132 and 0196). It enqueues on the queue that runs it, so it is
 * registered by startJobQueue once that queue exists.
 */
import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import { sweepQueuedItems, sweepRunningItems } from "../../bulk/sweeper.server";
import { defineJob, type JobDefinition } from "../registry";
import type { JobQueue } from "../types";

export const BULK_SWEEP_RUNNING_JOB = "bulk-sweep-running";

export function bulkSweepRunningJob(deps: { db: PrismaClient; queue: JobQueue; staleAfterMs: number; log?: (message: string) => void }): JobDefinition {
  return defineJob({
    name: BULK_SWEEP_RUNNING_JOB,
    payload: z.null(),
    concurrency: 1,
    retryLimit: 0,
    async handle() {
      await sweepRunningItems(deps);
      await sweepQueuedItems(deps);
    },
  });
}

export async function scheduleBulkSweepRunning(queue: JobQueue, intervalMs: number): Promise<void> {
  await queue.recurring(BULK_SWEEP_RUNNING_JOB, { everyMs: intervalMs, payload: null });
}
