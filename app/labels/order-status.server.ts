/**
 * Label status per order, for the orders list: none, pending, created, failed or needs_review, plus the newest label
 * file. What needs the merchant wins: needs review, then a failure (a Shopify fulfillment that failed, or a refused
 * purchase with no label), then a purchase in flight, then created.
 * Always scoped by shop (a guessed order id from another shop finds nothing).
 */
import type { PrismaClient } from "../generated/prisma/client";

export type OrderLabelStatus = "none" | "pending" | "created" | "failed" | "needs_review";

export interface OrderRowLabel {
  status: OrderLabelStatus;
  /** The newest label's file, when the order has one. */
  labelUrl: string | null;
}

export async function labelStatusByOrder(
  db: PrismaClient,
  shop: string,
  orderIds: readonly string[],
): Promise<Map<string, OrderRowLabel>> {
  const summaries = new Map<string, OrderRowLabel>(orderIds.map((id) => [id, { status: "none", labelUrl: null }]));
  if (orderIds.length === 0) return summaries;
  const [labels, attempts] = await Promise.all([
    db.label.findMany({
      where: { shop, orderId: { in: [...orderIds] } },
      select: { orderId: true, fulfillmentStatus: true, labelUrl: true },
      orderBy: { createdAt: "asc" },
    }),
    db.purchaseAttempt.findMany({
      where: { shop, orderId: { in: [...orderIds] } },
      select: { orderId: true, status: true },
      orderBy: { createdAt: "asc" },
    }),
  ]);
  for (const id of orderIds) {
    const own = labels.filter((label) => label.orderId === id);
    const tries = attempts.filter((attempt) => attempt.orderId === id).map((attempt) => attempt.status);
    const status: OrderLabelStatus = tries.includes("NEEDS_REVIEW")
      ? "needs_review"
      : own.some((label) => label.fulfillmentStatus === "FAILED")
        ? "failed"
        : tries.includes("PENDING") || tries.includes("UNKNOWN")
          ? "pending"
          : own.length > 0
            ? "created"
            : tries.at(-1) === "REJECTED"
              ? "failed"
              : "none";
    summaries.set(id, { status, labelUrl: own.at(-1)?.labelUrl || null });
  }
  return summaries;
}
