/**
 * Bulk jobs: create (the preflight's answer frozen with the environment and the settings, one queue job per ready
 * order enqueued in the same transaction as the rows), read, list, retry the failed items, cancel what has not
 * started. Every query is scoped by the shop; another shop's job id reads as not found (null).
 * Running an item is app/bulk/run-item.server.ts; the design is docs/decisions/0130-bulk-jobs.md.
 */
import type { BulkJob, BulkJobItem, Prisma, PrismaClient } from "../generated/prisma/client";
import type { LabelContext } from "../labels/label-order.server";
import type { JobQueue } from "../jobs/types";
import { BULK_LABEL_ITEM_JOB, ITEM_QUEUE_RETRY_LIMIT, itemJobKey, type BulkItemPayload } from "./item-job";
import { sealOrderDraft } from "./order-draft.server";
import { BulkSelectionError, runPreflight } from "./preflight.server";
import { settlePendingItems } from "./pending.server";
import type { Reason } from "./reasons";
import {
  RETRYABLE_ITEM_STATUSES,
  UNFINISHED_ITEM_STATUSES,
  bulkJobUrl,
  type BulkItemStatus,
  type BulkJobCounts,
  type BulkJobCreated,
  type BulkJobStatus,
  type BulkJobSummary,
  type BulkJobView,
} from "./types";
import { TimeSlices } from "../event-loop";
import { insertItems, type NewItem } from "./item-rows.server";

export { BulkSelectionError };

/** The transaction a job's rows and its queue jobs are written in (long: up to 500 items and their enqueues). */
const CREATE_TX = { maxWait: 10_000, timeout: 120_000 };

type Tx = Prisma.TransactionClient;

/** The process's queue (started by app/jobs/boot.server.ts). */
export async function appJobQueue(): Promise<JobQueue> {
  const queue = await globalThis.__etiquetteJobs?.ready;
  if (!queue) throw new Error("the job queue is not running in this process");
  return queue;
}

/** The items' queue jobs, in the caller's transaction, in one go (pg-boss: three statements for up to 500, decision 0199). */
async function enqueueItems(queue: JobQueue, tx: Tx, shop: string, items: readonly { payload: BulkItemPayload; round: number }[]): Promise<void> {
  const jobs = items.map(({ payload, round }) => ({ data: { shop, payload }, singletonKey: itemJobKey(payload.bulkJobId, payload.orderId, round) }));
  await queue.enqueueMany(BULK_LABEL_ITEM_JOB, jobs, { tx, retryLimit: ITEM_QUEUE_RETRY_LIMIT });
}

function confirmationRequired(charged: number, given: number | undefined): BulkSelectionError {
  const params = { chargedLabels: String(charged), given: given === undefined ? "" : String(given) };
  return new BulkSelectionError("confirmation_required", params, {
    en: `This job runs in production: ${charged} label(s) will be charged. Confirm that number to start it (confirmChargedLabels: ${charged}).`,
    fr: `Cette tâche s'exécute en production : ${charged} étiquette(s) seront facturées. Confirmez ce nombre pour la lancer (confirmChargedLabels : ${charged}).`,
  });
}

export interface CreateBulkJobInput {
  orderIds: readonly string[];
  /** Production: must equal the number of labels the job would charge. */
  confirmChargedLabels?: number;
  staffUserId: string | null;
  /** The queue to enqueue on (default: the process's). */
  queue?: JobQueue;
}

/**
 * Creates the job from a fresh preflight: ready orders become QUEUED items (one queue job each, enqueued in the same
 * transaction), blocked ones BLOCKED with their reason, already-labelled ones LABELLED (never bought again). Refuses
 * unknown order ids, an empty or oversized selection, and a production job whose charge is not confirmed.
 */
export async function createBulkJob(ctx: LabelContext, input: CreateBulkJobInput): Promise<BulkJobCreated> {
  // The preflight the merchant just looked at kept its read: the job starts from it rather than reading again.
  const preflight = await runPreflight(ctx, input.orderIds, { reuseRead: true });
  if (preflight.unknown.length > 0) {
    const list = preflight.unknown.slice(0, 10).join(", ") + (preflight.unknown.length > 10 ? ", …" : "");
    throw new BulkSelectionError("unknown_orders", { count: String(preflight.unknown.length), orderIds: list }, {
      en: `${preflight.unknown.length} of the selected orders are not orders of this shop (deleted, or from another shop): ${list}. Remove them from the selection and start again; nothing was bought.`,
      fr: `${preflight.unknown.length} des commandes sélectionnées ne sont pas des commandes de cette boutique (supprimées, ou d'une autre boutique) : ${list}. Retirez-les de la sélection et recommencez ; rien n'a été acheté.`,
    });
  }
  if (ctx.environment === "production" && preflight.chargedLabels > 0 && input.confirmChargedLabels !== preflight.chargedLabels) {
    throw confirmationRequired(preflight.chargedLabels, input.confirmChargedLabels);
  }
  const queue = input.queue ?? (await appJobQueue());
  const positions = new Map(normalisedOrder(preflight).map((id, index) => [id, index]));
  const rows: NewItem[] = [];
  const item = (orderId: string, orderName: string, status: BulkItemStatus, extra: Partial<NewItem> = {}) =>
    rows.push({ shop: ctx.shop, orderId, orderName, position: positions.get(orderId) ?? rows.length, status, ...extra });
  // Each ready item keeps the order as this preflight read it (sealed), so it does not read it again (decision 0184).
  const slices = new TimeSlices();
  for (const order of preflight.ready) {
    await slices.pace();
    const read = preflight.orders.get(order.orderId);
    item(order.orderId, order.orderName, "QUEUED", read ? { orderSealed: sealOrderDraft(read), orderReadAt: preflight.readAt } : {});
  }
  for (const order of preflight.blocked) item(order.orderId, order.orderName, "BLOCKED", { reasonJson: JSON.stringify(order.reasons[0] ?? null) });
  for (const order of preflight.alreadyLabelled) {
    const label = preflight.labelled.get(order.orderId);
    item(order.orderId, order.orderName, "LABELLED", { alreadyLabelled: true, labelId: label?.labelId, trackingNumber: label?.trackingNumber, finishedAt: new Date() });
  }
  const done = preflight.ready.length === 0;
  const job = await ctx.db.$transaction(async (tx) => {
    const created = await tx.bulkJob.create({
      data: {
        shop: ctx.shop,
        environment: ctx.environment,
        settingsJson: JSON.stringify(ctx.settings),
        status: done ? "COMPLETED" : "RUNNING",
        createdBy: input.staffUserId,
        chargedLabels: preflight.chargedLabels,
        finishedAt: done ? new Date() : null,
      },
    });
    await insertItems(tx, created.id, rows, new Date());
    await enqueueItems(queue, tx, ctx.shop, preflight.ready.map((order) => ({ payload: { bulkJobId: created.id, orderId: order.orderId }, round: 0 })));
    return created;
  }, CREATE_TX);
  // Its callers answer with the id and the page's address; the page reads the job itself.
  return { id: job.id, url: bulkJobUrl(job.id) };
}

/** The selection's order ids in the order given (duplicates removed), for item positions. */
function normalisedOrder(preflight: { orders: Map<string, unknown> }): string[] {
  return [...preflight.orders.keys()];
}

function parseReason(json: string | null): Reason | null {
  if (!json) return null;
  try {
    const value = JSON.parse(json) as Reason | null;
    return value && typeof value.code === "string" ? value : null;
  } catch {
    return null;
  }
}

export function countItems(statuses: Iterable<{ status: string; count: number }>): BulkJobCounts {
  const counts: BulkJobCounts = { total: 0, labelled: 0, refused: 0, blocked: 0, pending: 0, cancelled: 0, remaining: 0 };
  for (const { status, count } of statuses) {
    counts.total += count;
    if (status === "LABELLED") counts.labelled += count;
    else if (status === "REFUSED") counts.refused += count;
    else if (status === "BLOCKED") counts.blocked += count;
    else if (status === "PENDING") counts.pending += count;
    else if (status === "CANCELLED") counts.cancelled += count;
    else counts.remaining += count;
  }
  return counts;
}

function summary(job: BulkJob, counts: BulkJobCounts): BulkJobSummary {
  return {
    id: job.id,
    status: job.status as BulkJobStatus,
    environment: job.environment as BulkJobView["environment"],
    createdAt: job.createdAt.toISOString(),
    finishedAt: job.finishedAt?.toISOString() ?? null,
    cancelledAt: job.cancelledAt?.toISOString() ?? null,
    chargedLabels: job.chargedLabels,
    counts,
  };
}

function itemView(item: BulkJobItem): BulkJobView["items"][number] {
  return {
    orderId: item.orderId,
    orderName: item.orderName,
    status: item.status as BulkItemStatus,
    reason: parseReason(item.reasonJson),
    trackingNumber: item.trackingNumber,
    labelId: item.labelId,
    alreadyLabelled: item.alreadyLabelled,
  };
}

/** The job with its items, or null when this shop has no such job (another shop's id included). */
export async function getBulkJob(db: PrismaClient, shop: string, id: string): Promise<BulkJobView | null> {
  const job = await db.bulkJob.findFirst({ where: { id, shop } });
  if (!job) return null;
  await settlePendingItems(db, { shop, jobId: id });
  const items = await db.bulkJobItem.findMany({ where: { jobId: id, shop }, orderBy: { position: "asc" } });
  const byStatus = new Map<string, number>();
  for (const item of items) byStatus.set(item.status, (byStatus.get(item.status) ?? 0) + 1);
  const fresh = (await db.bulkJob.findFirst({ where: { id, shop } })) ?? job;
  return { ...summary(fresh, countItems([...byStatus].map(([status, count]) => ({ status, count })))), items: items.map(itemView) };
}

/** The shop's recent jobs, newest first, with their counts. */
export async function listBulkJobs(db: PrismaClient, shop: string, options: { limit?: number } = {}): Promise<BulkJobSummary[]> {
  const jobs = await db.bulkJob.findMany({ where: { shop }, orderBy: { createdAt: "desc" }, take: Math.min(100, options.limit ?? 20) });
  if (jobs.length === 0) return [];
  const grouped = await db.bulkJobItem.groupBy({ by: ["jobId", "status"], where: { shop, jobId: { in: jobs.map((job) => job.id) } }, _count: { _all: true } });
  return jobs.map((job) =>
    summary(job, countItems(grouped.filter((row) => row.jobId === job.id).map((row) => ({ status: row.status, count: row._count._all })))),
  );
}

/**
 * Marks the job finished when no item is queued or running: COMPLETED (or kept CANCELLED, with its finish time).
 * Safe to call from every item: each caller looks after its own item's update committed, so the last one sees none
 * left (`itemsLeft`: what the caller saw, when it already looked).
 */
export async function finishJobIfDone(db: PrismaClient | Tx, jobId: string, itemsLeft?: boolean): Promise<boolean> {
  const left = itemsLeft ?? (await db.bulkJobItem.count({ where: { jobId, status: { in: [...UNFINISHED_ITEM_STATUSES] } } })) > 0;
  if (left) return false;
  const now = new Date();
  const completed = await db.bulkJob.updateMany({ where: { id: jobId, status: "RUNNING" }, data: { status: "COMPLETED", finishedAt: now } });
  await db.bulkJob.updateMany({ where: { id: jobId, status: "CANCELLED", finishedAt: null }, data: { finishedAt: now } });
  return completed.count > 0;
}

export interface RetryOptions {
  queue?: JobQueue;
  /** Production: must equal the number of items retried (each may be charged). */
  confirmChargedLabels?: number;
}

/**
 * "Retry failed": the BLOCKED and REFUSED items queued again (their orders are read again from Shopify when they run),
 * the job running again. Null when the shop has no such job. Nothing else is touched: a labelled, pending or
 * cancelled item stays as it is.
 */
export async function retryFailedItems(db: PrismaClient, shop: string, id: string, options: RetryOptions = {}): Promise<{ retried: number; job: BulkJobView } | null> {
  const job = await db.bulkJob.findFirst({ where: { id, shop } });
  if (!job) return null;
  const failed = await db.bulkJobItem.findMany({ where: { jobId: id, shop, status: { in: [...RETRYABLE_ITEM_STATUSES] } } });
  if (failed.length > 0 && job.environment === "production" && options.confirmChargedLabels !== failed.length) {
    throw confirmationRequired(failed.length, options.confirmChargedLabels);
  }
  if (failed.length > 0) {
    const queue = options.queue ?? (await appJobQueue());
    await db.$transaction(async (tx) => {
      const queued: { payload: BulkItemPayload; round: number }[] = [];
      for (const item of failed) {
        const moved = await tx.bulkJobItem.updateMany({
          where: { id: item.id, status: item.status },
          // orderSealed cleared: a retried item always reads its order again from Shopify.
          data: { status: "QUEUED", reasonJson: null, refusals: 0, finishedAt: null, orderSealed: null, orderReadAt: null },
        });
        // A new round's key: the previous run of this item may still be winding down in the queue.
        if (moved.count === 1) queued.push({ payload: { bulkJobId: id, orderId: item.orderId }, round: item.attempts + 1 });
      }
      await enqueueItems(queue, tx, shop, queued);
      if (queued.length > 0) await tx.bulkJob.updateMany({ where: { id, shop }, data: { status: "RUNNING", finishedAt: null, cancelledAt: null } });
    }, CREATE_TX);
  }
  return { retried: failed.length, job: (await getBulkJob(db, shop, id))! };
}

/**
 * "Cancel": the items not started yet become CANCELLED (their queue jobs find them so and do nothing); an item
 * already running finishes (its purchase may be under way). Null when the shop has no such job.
 */
export async function cancelBulkJob(db: PrismaClient, shop: string, id: string): Promise<{ cancelled: number; job: BulkJobView } | null> {
  const job = await db.bulkJob.findFirst({ where: { id, shop } });
  if (!job) return null;
  let cancelled = 0;
  if (job.status === "RUNNING") {
    cancelled = await db.$transaction(async (tx) => {
      const moved = await tx.bulkJobItem.updateMany({ where: { jobId: id, shop, status: "QUEUED" }, data: { status: "CANCELLED", finishedAt: new Date(), orderSealed: null } });
      await tx.bulkJob.updateMany({ where: { id, shop, status: "RUNNING" }, data: { status: "CANCELLED", cancelledAt: new Date() } });
      return moved.count;
    });
    await finishJobIfDone(db, id);
  }
  return { cancelled, job: (await getBulkJob(db, shop, id))! };
}
