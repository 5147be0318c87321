/**
 * One app process's queue: created from the database URL (file: -> embedded, postgresql: -> pg-boss), every handler
 * registered, the recurring reconciler and recipient retention (decision 0172) scheduled, then started. Plain inputs, so tests start several "instances".
 */
import type { PrismaClient } from "../generated/prisma/client";
import { appJobs, type AppJobDeps } from "./handlers";
import { scheduleBulkSettlePending } from "./handlers/bulk-settle-pending.job";
import { scheduleReconcileLabels } from "./handlers/reconcile-labels.job";
import { scheduleRecipientRetention } from "./handlers/recipient-retention.job";
import { createJobQueue } from "./index.server";
import { registerJobs } from "./registry";
import type { JobQueue } from "./types";

export type StartJobQueueOptions = AppJobDeps & {
  databaseUrl: string;
  prisma: PrismaClient;
  reconcileIntervalMs: number;
  pollMs?: number;
  onError?: (error: unknown) => void;
};

export async function startJobQueue(options: StartJobQueueOptions): Promise<JobQueue> {
  const queue = createJobQueue({ databaseUrl: options.databaseUrl, prisma: options.prisma, pollMs: options.pollMs, onError: options.onError });
  await registerJobs(queue, appJobs(options));
  await scheduleReconcileLabels(queue, options.reconcileIntervalMs);
  if (options.bulk) await scheduleBulkSettlePending(queue, options.reconcileIntervalMs);
  await scheduleRecipientRetention(queue);
  await queue.start();
  return queue;
}
