/**
 * The label facts of a page of orders, for the orders list: each order's attempts and labels (oldest first) and the
 * newest label file. The view itself is derived by `deriveOrderLabelView` (./status), the same function the order
 * page uses. Always scoped by shop (a guessed order id from another shop finds nothing).
 */
import type { PrismaClient } from "../generated/prisma/client";
import {
  attemptStatus,
  labelFulfillmentStatus,
  labelVoidState,
  type AttemptStatus,
  type LabelFulfillmentStatus,
  type LabelVoidState,
  type LocationProgress,
} from "./status";

export interface OrderRowLabelFacts {
  attempts: { status: AttemptStatus }[];
  labels: { fulfillmentStatus: LabelFulfillmentStatus; voidState: LabelVoidState | null }[];
  /** The newest label's file, when the order has one. */
  labelUrl: string | null;
  /** Locations (Location GIDs) whose own slot holds a live first label: an order shipping from several (0115). */
  labelledLocations: string[];
  /** How the order's locations stand (set by the list once it read them from Shopify; decision 0115). */
  locations?: LocationProgress;
}

/** The location a first label was bought for (decision 0115: its own slot and sender), or null (the whole order). */
export function attemptLocation(attempt: { labelIndex: number; locationId: string | null } | null | undefined): string | null {
  return attempt && attempt.labelIndex === 1 ? attempt.locationId : null;
}

export async function labelFactsByOrder(
  db: PrismaClient,
  shop: string,
  orderIds: readonly string[],
): Promise<Map<string, OrderRowLabelFacts>> {
  const facts = new Map<string, OrderRowLabelFacts>(orderIds.map((id) => [id, { attempts: [], labels: [], labelUrl: null, labelledLocations: [] }]));
  if (orderIds.length === 0) return facts;
  const [labels, attempts] = await Promise.all([
    db.label.findMany({
      where: { shop, orderId: { in: [...orderIds] } },
      select: { orderId: true, fulfillmentStatus: true, labelUrl: true, voidState: true, attempt: { select: { labelIndex: true, locationId: true } } },
      orderBy: { createdAt: "asc" },
    }),
    db.purchaseAttempt.findMany({
      where: { shop, orderId: { in: [...orderIds] } },
      select: { orderId: true, status: true },
      orderBy: { createdAt: "asc" },
    }),
  ]);
  for (const attempt of attempts) {
    facts.get(attempt.orderId)?.attempts.push({ status: attemptStatus(attempt.status) });
  }
  for (const label of labels) {
    const own = facts.get(label.orderId);
    if (!own) continue;
    const voidState = labelVoidState(label.voidState);
    own.labels.push({ fulfillmentStatus: labelFulfillmentStatus(label.fulfillmentStatus), voidState });
    // A void label's file is never offered again.
    if (label.labelUrl && voidState === null) own.labelUrl = label.labelUrl;
    const location = voidState === null ? attemptLocation(label.attempt) : null;
    if (location && !own.labelledLocations.includes(location)) own.labelledLocations.push(location);
  }
  return facts;
}
