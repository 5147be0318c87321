/**
 * Pushing a bought label to Shopify: the fulfillment with tracking (customer notified per shop setting) and a small
 * `$app` metafield summary on the order. A separate, stored step: when Shopify fails, the label is kept and this
 * step can be retried without buying again. Nothing is done twice: an existing fulfillment carrying the label's
 * tracking number is adopted instead of creating another, and a claim on the label row stops two pushes at once.
 */
import type { PrismaClient, Label } from "../generated/prisma/client";
import { AdminApiError, type AdminGraphqlClient } from "../shopify/admin-client";
import { createFulfillment, fetchFulfillmentContext, setOrderLabelMetafield, updateFulfillmentTracking } from "../shopify/operations/fulfillment";
import { isParcelFulfillmentOrder } from "../shipping/fulfillment-orders";
import { shopifyTrackingInfo } from "./carriers";

/** A push that crashed mid-way may be retried after this long. */
export const FULFILLMENT_CLAIM_TIMEOUT_MS = 120_000;

export type FulfillResult =
  | { status: "created"; label: Label; adopted: boolean }
  | { status: "in_progress" }
  | { status: "failed"; label: Label; message: string };

export interface FulfillDeps {
  db: PrismaClient;
  admin: AdminGraphqlClient;
  now?: () => Date;
}

async function claim(db: PrismaClient, shop: string, labelId: string, now: Date): Promise<boolean> {
  const { count } = await db.label.updateMany({
    where: {
      id: labelId,
      shop,
      OR: [
        { fulfillmentStatus: { in: ["PENDING", "FAILED"] } },
        { fulfillmentStatus: "IN_PROGRESS", updatedAt: { lt: new Date(now.getTime() - FULFILLMENT_CLAIM_TIMEOUT_MS) } },
      ],
    },
    data: { fulfillmentStatus: "IN_PROGRESS", fulfillmentError: null },
  });
  return count === 1;
}

export async function pushLabelToShopify(
  deps: FulfillDeps,
  input: { shop: string; labelId: string; notifyCustomer: boolean },
): Promise<FulfillResult> {
  const { db, admin } = deps;
  const now = deps.now ?? (() => new Date());
  const label = await db.label.findFirst({ where: { id: input.labelId, shop: input.shop } });
  if (!label) throw new Error(`no label ${input.labelId} for ${input.shop}`);
  if (label.fulfillmentStatus === "CREATED") return { status: "created", label, adopted: true };
  if (!(await claim(db, input.shop, label.id, now()))) return { status: "in_progress" };

  const fail = async (message: string): Promise<FulfillResult> => {
    const failed = await db.label.update({
      where: { id: label.id },
      data: { fulfillmentStatus: "FAILED", fulfillmentError: message },
    });
    return { status: "failed", label: failed, message };
  };

  let fulfillmentId: string;
  let adopted = false;
  try {
    const context = await fetchFulfillmentContext(admin, label.orderId);
    if (!context) return await fail(`Shopify no longer has order ${label.orderName}`);
    const existing = context.fulfillments.find(
      (fulfillment) =>
        fulfillment.status !== "CANCELLED" &&
        fulfillment.trackingInfo.some((tracking) => tracking.number === label.trackingNumber),
    );
    if (existing) {
      fulfillmentId = existing.id;
      adopted = true;
    } else {
      const open = context.fulfillmentOrders.nodes.filter(
        (fulfillmentOrder) =>
          (label.fulfillmentOrderId === null || fulfillmentOrder.id === label.fulfillmentOrderId) && isParcelFulfillmentOrder(fulfillmentOrder),
      );
      const tracking = shopifyTrackingInfo(label.carrierName, label.trackingNumber, label.trackingUrl);
      const latest = context.fulfillments.filter((fulfillment) => fulfillment.status !== "CANCELLED").at(-1);
      if (open.length === 0 && label.fulfillmentOrderId === null && latest) {
        // An extra parcel for an order already fulfilled: its number joins the latest fulfillment's tracking.
        await updateFulfillmentTracking(admin, {
          fulfillmentId: latest.id,
          company: tracking.company,
          numbers: [...latest.trackingInfo.map((info) => info.number).filter((number): number is string => Boolean(number)), tracking.number],
          urls: [...latest.trackingInfo.map((info) => info.url).filter((url): url is string => Boolean(url)), tracking.url].filter(Boolean),
          notifyCustomer: input.notifyCustomer,
        });
        fulfillmentId = latest.id;
      } else if (open.length === 0) {
        return await fail(
          `Order ${label.orderName} has no open fulfillment order to fulfil (already fulfilled, on hold or cancelled in Shopify)`,
        );
      } else {
        const created = await createFulfillment(admin, {
          fulfillmentOrderIds: open.map((fulfillmentOrder) => fulfillmentOrder.id),
          tracking: { company: tracking.company, number: tracking.number, url: tracking.url || undefined },
          notifyCustomer: input.notifyCustomer,
        });
        fulfillmentId = created.id;
      }
    }
  } catch (error) {
    if (error instanceof AdminApiError) return fail(error.message);
    await fail(error instanceof Error ? error.message : String(error));
    throw error;
  }

  let metafieldWritten = label.metafieldWritten;
  if (!metafieldWritten) {
    try {
      await setOrderLabelMetafield(admin, label.orderId, {
        labelId: label.serviceLabelId,
        trackingNumber: label.trackingNumber,
        trackingUrl: label.trackingUrl,
        carrier: label.carrierName,
        environment: label.environment,
        createdAt: label.createdAt.toISOString(),
      });
      metafieldWritten = true;
    } catch {
      // The summary is a convenience; the fulfillment is what matters. Retried on the next push.
    }
  }

  const done = await db.label.update({
    where: { id: label.id },
    data: { fulfillmentStatus: "CREATED", fulfillmentId, fulfillmentError: null, metafieldWritten },
  });
  return { status: "created", label: done, adopted };
}
