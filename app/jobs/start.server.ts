/**
 * One app process's queue: created from the database URL (file: -> embedded, postgresql: -> pg-boss), every handler
 * registered, the recurring reconciler, the bulk passes (pending items, the sweeper of items left RUNNING) and recipient
 * retention (decision 0172) scheduled, then started. Plain inputs, so tests start several "instances".
 */
import { sweepStaleAfterMs } from "../bulk/sweeper.server";
import { reconcileTimings } from "../config.server";
import type { PrismaClient } from "../generated/prisma/client";
import { appJobs, type AppJobDeps } from "./handlers";
import { scheduleBulkSettlePending } from "./handlers/bulk-settle-pending.job";
import { bulkSweepRunningJob, scheduleBulkSweepRunning } from "./handlers/bulk-sweep-running.job";
import { scheduleReconcileLabels } from "./handlers/reconcile-labels.job";
import { scheduleRecipientRetention } from "./handlers/recipient-retention.job";
import { createJobQueue, QUEUE_LEASE_MS } from "./index.server";
import { registerJobs } from "./registry";
import type { JobQueue } from "./types";

export type StartJobQueueOptions = AppJobDeps & {
  databaseUrl: string;
  prisma: PrismaClient;
  reconcileIntervalMs: number;
  /** A bulk item RUNNING this long without change lost its worker: the sweeper hands it back (app/bulk/sweeper.server.ts). */
  bulkSweepStaleAfterMs?: number;
  pollMs?: number;
  leaseMs?: number;
  onError?: (error: unknown) => void;
};

export async function startJobQueue(options: StartJobQueueOptions): Promise<JobQueue> {
  const queue = createJobQueue({ databaseUrl: options.databaseUrl, prisma: options.prisma, pollMs: options.pollMs, leaseMs: options.leaseMs, onError: options.onError });
  await registerJobs(queue, appJobs(options));
  if (options.bulk) {
    const staleAfterMs = options.bulkSweepStaleAfterMs ?? sweepStaleAfterMs(reconcileTimings().staleAfterMs, options.leaseMs ?? QUEUE_LEASE_MS);
    await registerJobs(queue, [bulkSweepRunningJob({ db: options.bulk.db, queue, staleAfterMs, log: options.bulk.log })]);
  }
  await scheduleReconcileLabels(queue, options.reconcileIntervalMs);
  if (options.bulk) {
    await scheduleBulkSettlePending(queue, options.reconcileIntervalMs);
    await scheduleBulkSweepRunning(queue, options.reconcileIntervalMs);
  }
  await scheduleRecipientRetention(queue);
  await queue.start();
  return queue;
}
