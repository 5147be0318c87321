/**
 * The queue job that runs one item of a bulk job: its name, payload and limits, shared by the enqueue side
 * (bulk-jobs.server.ts) and the handler (app/jobs/handlers/bulk-label-item.job.ts).
 */
import { z } from "zod";

export const BULK_LABEL_ITEM_JOB = "bulk-label-item";

export const bulkItemPayloadSchema = z.object({ bulkJobId: z.string().min(1), orderId: z.string().min(1) });
export type BulkItemPayload = z.infer<typeof bulkItemPayloadSchema>;

/**
 * Retries the queue may make of one item's job. Only waits use them (Shopify's throttle, a 429 from the label
 * service, an unexpected error): a purchase itself is never retried (labelOrder's slot makes a re-run report the
 * label, or the purchase in flight). On the last attempt the item always ends with a status.
 */
export const ITEM_QUEUE_RETRY_LIMIT = 20;

/** Retryable refusals (429) tried again before the item is REFUSED. */
export const ITEM_REFUSAL_RETRIES = 4;

/**
 * The semaphore key of a label-service account (the database semaphore limits calls at once per account, across
 * instances): shops that saved the same login share it; a shop without a saved login has its own.
 */
export function accountSemaphoreKey(environment: string, email: string | null, shop: string): string {
  return `label-service:${environment}:${email === null ? `shop:${shop}` : email.trim().toLowerCase()}`;
}

/** The singleton key of an item's queue job: one queued or active run per item (per retry round). */
export function itemJobKey(bulkJobId: string, orderId: string, round = 0): string {
  return round === 0 ? `${bulkJobId}:${orderId}` : `${bulkJobId}:${orderId}:r${round}`;
}
