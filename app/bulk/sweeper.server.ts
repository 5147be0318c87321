/**
 * The sweeper for bulk items left RUNNING. A worker killed in the middle of an item leaves it RUNNING; the queue runs
 * it again once the job's lease expires, unless that was the job's last allowed attempt (the embedded queue then fails
 * the job, pg-boss expires it) or the queue job is gone. The recurring `bulk-sweep-running` job finds items RUNNING
 * for longer than `staleAfterMs` and hands them back to the normal path, by what the order's label slot holds:
 *
 *  - a purchase that may have happened (the slot's attempt is PENDING, UNKNOWN or NEEDS_REVIEW): the item becomes
 *    PENDING on that attempt; the reconciler settles the attempt and the item follows it (pending.server.ts). Nothing
 *    is sent to the label service from here;
 *  - a label stored for the slot, or nothing held: the item is QUEUED again with a fresh queue job, whose run goes
 *    through labelOrder: the slot reports the stored label (and finishes its Shopify step), or buys the one label;
 *  - the job was cancelled and nothing was bought: the item is CANCELLED;
 *  - an item that was swept `MAX_SWEEPS` times (it kills its worker each time) ends REFUSED with a reason.
 *
 * Every change is one conditional update on the row as it was read (status RUNNING, same `updatedAt`), in the same
 * transaction as its enqueue: an item that moved meanwhile (its run finished, another instance swept it) is left
 * alone, and a sweep that dies leaves the item RUNNING for the next pass. A live run that was only slow is safe to
 * hand back too: labelOrder's slot never buys twice, and the slower run's own update finds the item moved on.
 *
 * Items left QUEUED are swept too (decision 0196): one QUEUED for longer than `staleAfterMs` whose queue job is gone
 * (its enqueue failed after the row was written, its queue row was deleted, its job ended without running it) would
 * wait forever. The queue is asked which items of the shop still have a job to run (`livePayloads`); an item with none
 * gets a fresh queue job, by the same conditional update in the same transaction. Its run goes through labelOrder, whose
 * slot reports a label or a purchase in flight instead of buying twice.
 */
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import type { JobQueue } from "../jobs/types";
import { orderSlot } from "../labels/purchase.server";
import { finishJobIfDone } from "./bulk-jobs.server";
import { staleItems } from "./item-rows.server";
import { BULK_LABEL_ITEM_JOB, bulkItemPayloadSchema, ITEM_QUEUE_RETRY_LIMIT, itemJobKey } from "./item-job";
import type { Reason } from "./reasons";

/** Sweeps of one item before it ends REFUSED (each sweep follows a run that never finished). */
export const MAX_SWEEPS = 5;

/** Statuses of a purchase attempt whose outcome is still open: a label may have been bought. */
const OPEN_ATTEMPT_STATUSES = ["PENDING", "UNKNOWN", "NEEDS_REVIEW"];

export interface SweepDeps {
  db: PrismaClient;
  queue: Pick<JobQueue, "enqueue" | "livePayloads">;
  /** An item RUNNING without change for longer than this lost its worker; one QUEUED this long is checked for its queue job. */
  staleAfterMs: number;
  now?: () => number;
  log?: (message: string) => void;
}

export type SweepAction = "pending" | "queued" | "cancelled" | "refused" | "requeued";

export interface SweepResult {
  /** Item id -> what was done with it (items that moved meanwhile are absent). */
  swept: Record<string, SweepAction>;
}

/**
 * The sweeper's threshold: the reconciler's staleness for a purchase in flight, and at least twice the queue's
 * lease, so the queue's own re-run of a killed item (after its lease) always comes first.
 */
export function sweepStaleAfterMs(reconcileStaleAfterMs: number, queueLeaseMs: number): number {
  return Math.max(reconcileStaleAfterMs, 2 * queueLeaseMs);
}

/** The singleton key of a swept item's new queue job: its own, so an old run's key never swallows it. */
export function sweptJobKey(bulkJobId: string, orderId: string, sweep: number): string {
  return `${itemJobKey(bulkJobId, orderId)}:s${sweep}`;
}

function sweepsOf(reasonJson: string | null): number {
  try {
    const reason = JSON.parse(reasonJson ?? "null") as Reason | null;
    const sweeps = Number(reason?.params?.sweeps);
    return reason?.code === "item_swept" && Number.isInteger(sweeps) ? sweeps : 0;
  } catch {
    return 0;
  }
}

/** One pass over the stale RUNNING items (at most `limit`). */
export async function sweepRunningItems(deps: SweepDeps, options: { limit?: number } = {}): Promise<SweepResult> {
  const { db } = deps;
  const now = deps.now?.() ?? Date.now();
  const stale = await staleItems(db, { status: "RUNNING", updatedBefore: new Date(now - deps.staleAfterMs), limit: options.limit ?? 200 });
  const swept: Record<string, SweepAction> = {};
  const finished = new Set<string>();
  for (const item of stale) {
    // The order's first label slot: what a bulk item buys (labelOrder without a label index).
    const attempt = await db.purchaseAttempt.findFirst({
      where: { shop: item.shop, orderSlot: orderSlot(item.shop, item.orderId, 1) },
      select: { id: true, status: true, customReference: true, labelId: true },
    });
    const asRead = { id: item.id, status: "RUNNING", updatedAt: item.updatedAt };
    const sweeps = sweepsOf(item.reasonJson) + 1;
    let action: SweepAction;
    let data: Prisma.BulkJobItemUpdateManyMutationInput;
    if (attempt && !attempt.labelId && OPEN_ATTEMPT_STATUSES.includes(attempt.status)) {
      action = "pending";
      const reason: Reason = { code: "purchase_unknown", params: { reference: attempt.customReference } };
      data = { status: "PENDING", attemptId: attempt.id, reasonJson: JSON.stringify(reason), finishedAt: new Date(now) };
    } else if (item.jobStatus === "CANCELLED" && !attempt) {
      action = "cancelled";
      data = { status: "CANCELLED", reasonJson: null, finishedAt: new Date(now) };
    } else if (sweeps > MAX_SWEEPS && !attempt) {
      action = "refused";
      const reason: Reason = { code: "item_stalled", params: { sweeps: String(sweeps - 1) } };
      data = { status: "REFUSED", reasonJson: JSON.stringify(reason), finishedAt: new Date(now) };
    } else {
      action = "queued";
      const reason: Reason = { code: "item_swept", params: { sweeps: String(sweeps) } };
      data = { status: "QUEUED", reasonJson: JSON.stringify(reason), finishedAt: null };
    }
    const moved = await db.$transaction(async (tx) => {
      const updated = await tx.bulkJobItem.updateMany({ where: asRead, data });
      if (updated.count === 0) return false;
      if (action === "queued") {
        await deps.queue.enqueue(
          BULK_LABEL_ITEM_JOB,
          { shop: item.shop, payload: { bulkJobId: item.jobId, orderId: item.orderId } },
          { tx, singletonKey: sweptJobKey(item.jobId, item.orderId, sweeps), retryLimit: ITEM_QUEUE_RETRY_LIMIT },
        );
      }
      return true;
    });
    if (!moved) continue;
    swept[item.id] = action;
    if (action !== "queued") finished.add(item.jobId);
    deps.log?.(`bulk item ${item.id} (job ${item.jobId}, ${item.orderName}) was RUNNING since ${item.updatedAt.toISOString()}: ${action}`);
  }
  for (const jobId of finished) await finishJobIfDone(db, jobId);
  return { swept };
}

/** The singleton key of the new queue job of an item found QUEUED without one: unique to the row as it was read. */
export function requeuedJobKey(bulkJobId: string, orderId: string, readAt: Date): string {
  return `${itemJobKey(bulkJobId, orderId)}:q${readAt.getTime()}`;
}

/** One pass over the items QUEUED for longer than `staleAfterMs` (at most `limit`): those without a queue job get one. */
export async function sweepQueuedItems(deps: SweepDeps, options: { limit?: number } = {}): Promise<SweepResult> {
  const { db } = deps;
  const now = deps.now?.() ?? Date.now();
  const waiting = await staleItems(db, { status: "QUEUED", updatedBefore: new Date(now - deps.staleAfterMs), limit: options.limit ?? 200 });
  const swept: Record<string, SweepAction> = {};
  const itemKey = (jobId: string, orderId: string) => JSON.stringify([jobId, orderId]);
  const liveByShop = new Map<string, Set<string>>();
  for (const item of waiting) {
    let live = liveByShop.get(item.shop);
    if (!live) {
      // Read once per shop and pass, after the items: a job enqueued since is seen, one finished since is not needed.
      const payloads = await deps.queue.livePayloads(BULK_LABEL_ITEM_JOB, item.shop);
      live = new Set(payloads.flatMap((payload) => {
        const parsed = bulkItemPayloadSchema.safeParse(payload);
        return parsed.success ? [itemKey(parsed.data.bulkJobId, parsed.data.orderId)] : [];
      }));
      liveByShop.set(item.shop, live);
    }
    if (live.has(itemKey(item.jobId, item.orderId))) continue;
    const moved = await db.$transaction(async (tx) => {
      // The row as read (still QUEUED, same updatedAt): an item that moved meanwhile, or another sweeper's, is left alone.
      const updated = await tx.bulkJobItem.updateMany({ where: { id: item.id, status: "QUEUED", updatedAt: item.updatedAt }, data: { status: "QUEUED", finishedAt: null } });
      if (updated.count === 0) return false;
      await deps.queue.enqueue(
        BULK_LABEL_ITEM_JOB,
        { shop: item.shop, payload: { bulkJobId: item.jobId, orderId: item.orderId } },
        { tx, singletonKey: requeuedJobKey(item.jobId, item.orderId, item.updatedAt), retryLimit: ITEM_QUEUE_RETRY_LIMIT },
      );
      return true;
    });
    if (!moved) continue;
    swept[item.id] = "requeued";
    deps.log?.(`bulk item ${item.id} (job ${item.jobId}, ${item.orderName}) was QUEUED since ${item.updatedAt.toISOString()} without a queue job: queued again`);
  }
  return { swept };
}
