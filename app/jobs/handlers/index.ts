/**
 * Every job the app runs, one definition per file (`<name>.job.ts`, made with defineJob from ../registry).
 * `JOBS` holds the ones that need nothing at boot; `appJobs` adds those bound to the app's clients.
 */
import type { BulkRunDeps } from "../../bulk/run-item.server";
import type { PrismaClient } from "../../generated/prisma/client";
import type { ReconcilerDeps } from "../../labels/reconcile.server";
import type { JobDefinition } from "../registry";
import { bulkLabelItemJob } from "./bulk-label-item.job";
import { bulkSettlePendingJob } from "./bulk-settle-pending.job";
import { printFileJob, type PrintJobDeps } from "./print-file.job";
import { reconcileLabelsJob } from "./reconcile-labels.job";
import { recipientRetentionJob } from "./recipient-retention.job";

export const JOBS: readonly JobDefinition[] = [];

export type AppJobDeps = { reconciler: ReconcilerDeps; bulk?: BulkRunDeps & { concurrency?: number }; print?: () => Promise<PrintJobDeps> };

/** The app's own print dependencies, loaded when the first print job runs. */
async function appPrintDeps(): Promise<PrintJobDeps> {
  const [{ default: db }, { appLabelFiles }] = await Promise.all([import("../../db.server"), import("../../print/runtime.server")]);
  return { db, files: appLabelFiles() };
}

export function appJobs(deps: AppJobDeps): readonly JobDefinition[] {
  const bulk = deps.bulk ? [bulkLabelItemJob(deps.bulk, { concurrency: deps.bulk.concurrency }), bulkSettlePendingJob(deps.bulk.db as PrismaClient)] : [];
  return [
    ...JOBS,
    reconcileLabelsJob(deps.reconciler),
    recipientRetentionJob({ db: deps.reconciler.db, log: deps.reconciler.log }),
    printFileJob(deps.print ?? appPrintDeps),
    ...bulk,
  ];
}
