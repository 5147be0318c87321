/**
 * The background reconciler as a recurring job: one reconciliation pass (runDueReconciliations) every
 * RECONCILE_INTERVAL_MS across all instances together, never two at once (the queue's recurring schedule claims each
 * tick once and runs it under a singleton key). A pass that throws is not retried: the next tick is the retry.
 */
import { z } from "zod";
import { runDueReconciliations, type ReconcilerDeps } from "../../labels/reconcile.server";
import { reconcilerOutcome } from "../../observability/metrics.server";
import { defineJob, type JobDefinition } from "../registry";
import { RECURRING_SINGLETON_KEY } from "../schedule.server";
import type { JobQueue } from "../types";

export const RECONCILE_LABELS_JOB = "reconcile-labels";

/** The job, bound to the reconciler's clients (the app's real ones at boot, fakes in tests). */
export function reconcileLabelsJob(deps: ReconcilerDeps): JobDefinition {
  return defineJob({
    name: RECONCILE_LABELS_JOB,
    payload: z.null(),
    concurrency: 1,
    retryLimit: 0,
    async handle() {
      const outcomes = await runDueReconciliations(deps);
      // "created, fulfillment created" -> "created"; "error: …" -> "error": a small, fixed set of metric labels.
      for (const outcome of Object.values(outcomes)) reconcilerOutcome(outcome.split(/[,:( ]/)[0] || "other");
      const errors = Object.values(outcomes).filter((outcome) => outcome.startsWith("error")).length;
      if (errors > 0) deps.log?.(`pass ended with ${errors} error(s) out of ${Object.keys(outcomes).length}`);
    },
  });
}

/**
 * Schedules the pass every `intervalMs` and asks for one right away: a purchase left unknown before a restart is
 * checked at boot even when the schedule's next tick (kept in the database) is still ahead. The boot run shares the
 * recurring runs' singleton key, so it never overlaps a pass already queued or running on another instance.
 */
export async function scheduleReconcileLabels(queue: JobQueue, intervalMs: number): Promise<void> {
  await queue.recurring(RECONCILE_LABELS_JOB, { everyMs: intervalMs, payload: null });
  await queue.enqueue(RECONCILE_LABELS_JOB, { shop: "*", payload: null }, { singletonKey: RECURRING_SINGLETON_KEY, retryLimit: 0 });
}
