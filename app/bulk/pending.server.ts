/**
 * PENDING items (the purchase outcome was unknown when the item ran) follow their purchase attempt, which the
 * reconciler settles (app/labels/reconcile.server.ts): a label found -> LABELLED, a refusal -> REFUSED, an attempt
 * that needs the merchant's review stays PENDING with that reason. Read-only on the label tables, so the reconciler
 * needs no change: this runs when a job is read and on the recurring `bulk-settle-pending` job.
 */
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import { orderSlot } from "../labels/purchase.server";
import { pendingItems } from "./item-rows.server";
import type { Reason } from "./reasons";

type Db = PrismaClient | Prisma.TransactionClient;

function refusedReason(errorJson: string | null): Reason {
  try {
    const error = JSON.parse(errorJson ?? "{}") as { message?: string; messageFr?: string };
    const message = error.message ?? "";
    return { code: "service_refused", params: { message, messageFr: error.messageFr ?? message } };
  } catch {
    return { code: "service_refused", params: { message: "", messageFr: "" } };
  }
}

/** Settles the PENDING items of one job, or of every job (the recurring pass). Returns how many changed. */
export async function settlePendingItems(db: Db, where: { shop?: string; jobId?: string; limit?: number } = {}): Promise<number> {
  const items = await pendingItems(db, { shop: where.shop, jobId: where.jobId, limit: where.limit ?? 500 });
  let changed = 0;
  for (const item of items) {
    // The attempt the item waited on, or (another caller held the slot) whatever holds the order's slot now.
    const attempt = await db.purchaseAttempt.findFirst({
      where: item.attemptId ? { id: item.attemptId, shop: item.shop } : { orderSlot: orderSlot(item.shop, item.orderId, 1), shop: item.shop },
      include: { label: true },
    });
    let data: Prisma.BulkJobItemUpdateManyMutationInput | undefined;
    if (attempt?.label) {
      data = { status: "LABELLED", labelId: attempt.label.id, trackingNumber: attempt.label.trackingNumber, reasonJson: null, finishedAt: new Date() };
    } else if (!attempt || attempt.status === "REJECTED") {
      // Refused, or released after the service was shown not to have it: nothing was charged, Retry failed may run it.
      const reason: Reason = attempt ? refusedReason(attempt.errorJson) : { code: "purchase_released" };
      data = { status: "REFUSED", reasonJson: JSON.stringify(reason), finishedAt: new Date() };
    } else if (attempt.status === "NEEDS_REVIEW") {
      const reasonJson = JSON.stringify({ code: "purchase_needs_review", params: { reference: attempt.customReference } } satisfies Reason);
      if (item.reasonJson !== reasonJson) data = { reasonJson };
    }
    if (!data) continue;
    const updated = await db.bulkJobItem.updateMany({ where: { id: item.id, status: "PENDING" }, data });
    changed += updated.count;
  }
  return changed;
}
