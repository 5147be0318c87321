/**
 * Every job the app runs, one definition per file (`<name>.job.ts`, made with defineJob from ../registry).
 * `JOBS` holds the ones that need nothing at boot; `appJobs` adds those bound to the app's clients.
 */
import type { ReconcilerDeps } from "../../labels/reconcile.server";
import type { JobDefinition } from "../registry";
import { reconcileLabelsJob } from "./reconcile-labels.job";

export const JOBS: readonly JobDefinition[] = [];

export type AppJobDeps = { reconciler: ReconcilerDeps };

export function appJobs(deps: AppJobDeps): readonly JobDefinition[] {
  return [...JOBS, reconcileLabelsJob(deps.reconciler)];
}
