/**
 * Label status per order, for the orders list: none, pending, created, failed or needs_review.
 * Always scoped by shop (a guessed order id from another shop finds nothing).
 */
import type { PrismaClient } from "../generated/prisma/client";

export type OrderLabelStatus = "none" | "pending" | "created" | "failed" | "needs_review";

export async function labelStatusByOrder(
  db: PrismaClient,
  shop: string,
  orderIds: readonly string[],
): Promise<Map<string, OrderLabelStatus>> {
  const statuses = new Map<string, OrderLabelStatus>(orderIds.map((id) => [id, "none"]));
  if (orderIds.length === 0) return statuses;
  const [labels, attempts] = await Promise.all([
    db.label.findMany({ where: { shop, orderId: { in: [...orderIds] } }, select: { orderId: true } }),
    db.purchaseAttempt.findMany({
      where: { shop, orderId: { in: [...orderIds] } },
      select: { orderId: true, status: true },
      orderBy: { createdAt: "asc" },
    }),
  ]);
  for (const attempt of attempts) {
    const status: OrderLabelStatus =
      attempt.status === "PENDING" || attempt.status === "UNKNOWN"
        ? "pending"
        : attempt.status === "NEEDS_REVIEW"
          ? "needs_review"
          : attempt.status === "REJECTED"
            ? "failed"
            : "created";
    statuses.set(attempt.orderId, status);
  }
  for (const label of labels) statuses.set(label.orderId, "created");
  return statuses;
}
