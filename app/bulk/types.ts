/**
 * Bulk labelling: the shapes shared by the job module (app/bulk/*.server.ts), its routes (the progress page, the
 * JSON API) and the admin extensions. Browser-safe: types and constants only.
 */
import type { Reason } from "../labels/reasons";
import type { ServiceChoice } from "../shipping/service-choice";

/** Most orders one job takes; a larger selection is refused with a message saying to split it. */
export const BULK_JOB_MAX_ORDERS = 500;

export type BulkJobStatus = "RUNNING" | "COMPLETED" | "CANCELLED";

/**
 * One order of a job. QUEUED: waiting for a worker; RUNNING: its labelOrder call is under way; LABELLED: a label is
 * stored (bought by this job, or found already there: `alreadyLabelled`); BLOCKED: the order's data stops it (fix in
 * Shopify, then Retry failed); REFUSED: the service refused or could not be asked, nothing charged; PENDING: the
 * purchase outcome is unknown and the reconciler settles it; CANCELLED: the merchant cancelled before it started.
 */
export type BulkItemStatus = "QUEUED" | "RUNNING" | "LABELLED" | "BLOCKED" | "REFUSED" | "PENDING" | "CANCELLED";

/** The statuses "Retry failed" runs again. */
export const RETRYABLE_ITEM_STATUSES: readonly BulkItemStatus[] = ["BLOCKED", "REFUSED"];

export interface BulkJobCounts {
  total: number;
  labelled: number;
  refused: number;
  blocked: number;
  pending: number;
  cancelled: number;
  /** Queued or running. */
  remaining: number;
}

export interface BulkJobItemView {
  orderId: string;
  orderName: string;
  status: BulkItemStatus;
  /** Why it is not labelled (or a note on a labelled one, e.g. its Shopify step failed), as data. */
  reason: Reason | null;
  trackingNumber: string | null;
  labelId: string | null;
  alreadyLabelled: boolean;
}

export interface BulkJobView {
  id: string;
  status: BulkJobStatus;
  environment: "staging" | "production";
  createdAt: string;
  finishedAt: string | null;
  cancelledAt?: string | null;
  /** Labels the merchant confirmed would be charged at creation (production jobs; 0 in staging). */
  chargedLabels?: number;
  counts: BulkJobCounts;
  items: BulkJobItemView[];
}

/** The free check before a job: every order mapped, nothing bought. */
export interface BulkPreflight {
  environment: "staging" | "production";
  /** `serviceChoice`: which shipping rule (or zone default) picked the order's service. */
  ready: { orderId: string; orderName: string; serviceChoice?: ServiceChoice }[];
  alreadyLabelled: { orderId: string; orderName: string }[];
  blocked: { orderId: string; orderName: string; reasons: Reason[]; serviceChoice?: ServiceChoice }[];
  /** Ids Shopify does not know for this shop (foreign, deleted, mistyped). */
  unknown: string[];
  /** The blocked orders grouped by cause ("3 products have no HS code: 14 orders to CH"). */
  groups: { reason: Reason; orderCount: number; orderNames: string[] }[];
  /** Labels the job would charge: ready.length in production, 0 in staging. */
  chargedLabels: number;
}

/** A job in the list of recent jobs: its view without the items. */
export type BulkJobSummary = Omit<BulkJobView, "items">;

/** What `POST /api/bulk-jobs` answers: the job's id and its progress page. */
export interface BulkJobCreated {
  id: string;
  url: string;
}

/** The progress page of a job (the `url` of BulkJobCreated). */
export function bulkJobUrl(id: string): string {
  return `/app/bulk/${encodeURIComponent(id)}`;
}

/** Item statuses still to run: a job whose items are none of these is finished. */
export const UNFINISHED_ITEM_STATUSES: readonly BulkItemStatus[] = ["QUEUED", "RUNNING"];
