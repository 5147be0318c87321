/**
 * Every job the app runs, one definition per file (`<name>.job.ts`, made with defineJob from ../registry).
 * `JOBS` holds the ones that need nothing at boot; `appJobs` adds those bound to the app's clients.
 */
import type { ReconcilerDeps } from "../../labels/reconciler.server";
import type { JobDefinition } from "../registry";
import { printFileJob, type PrintJobDeps } from "./print-file.job";
import { reconcileLabelsJob } from "./reconcile-labels.job";

export const JOBS: readonly JobDefinition[] = [];

export type AppJobDeps = { reconciler: ReconcilerDeps; print?: () => Promise<PrintJobDeps> };

/** The app's own print dependencies, loaded when the first print job runs. */
async function appPrintDeps(): Promise<PrintJobDeps> {
  const [{ default: db }, { appLabelFiles }] = await Promise.all([import("../../db.server"), import("../../print/runtime.server")]);
  return { db, files: appLabelFiles() };
}

export function appJobs(deps: AppJobDeps): readonly JobDefinition[] {
  return [...JOBS, reconcileLabelsJob(deps.reconciler), printFileJob(deps.print ?? appPrintDeps)];
}
