/**
 * One order of a bulk job: app/bulk/run-item.server.ts does the work (claim, labelOrder with the job's frozen
 * context, the outcome on the item). Waits (Shopify's throttle, a 429) come back as RetryableJobError with their
 * delay; a purchase is never retried (labelOrder's slot answers a re-run).
 */
import { ITEM_QUEUE_RETRY_LIMIT, BULK_LABEL_ITEM_JOB, bulkItemPayloadSchema } from "../../bulk/item-job";
import { runBulkItem, type BulkRunDeps } from "../../bulk/run-item.server";
import { defineJob, type JobDefinition } from "../registry";

/** Runs per process at once: above the service's concurrency, so Shopify reads overlap the purchases. */
export const BULK_ITEM_CONCURRENCY = 16;

export function bulkLabelItemJob(deps: BulkRunDeps, options: { concurrency?: number } = {}): JobDefinition {
  return defineJob({
    name: BULK_LABEL_ITEM_JOB,
    payload: bulkItemPayloadSchema,
    concurrency: options.concurrency ?? BULK_ITEM_CONCURRENCY,
    retryLimit: ITEM_QUEUE_RETRY_LIMIT,
    async handle({ shop, payload, attempt, signal }) {
      await runBulkItem(deps, { shop, payload, attempt, signal });
    },
  });
}
