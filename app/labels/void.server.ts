/**
 * Voiding one label (issue 15, decision 0112). The label service documents no cancel endpoint, so a void is the
 * app's and Shopify's side only; nothing is bought and the service is never called:
 *  1. the intent: the label row goes to VOIDING in one conditional update (the claim). A second click, a second tab
 *     or a retry finds it claimed and gets "in progress"; a void that stopped (Shopify busy or refusing, a crash
 *     past the claim timeout) is claimed again and resumes where it was;
 *  2. Shopify: the fulfillment that carries this label's tracking number is cancelled, unless it is cancelled
 *     already (a resumed void, or the merchant cancelled it in Shopify), so it is never cancelled twice. A
 *     fulfillment that also carries another parcel's number keeps that parcel: only this number is removed from its
 *     tracking (no notice). A test label kept out of Shopify (decision 0170) has nothing there to cancel;
 *  3. the outcome: VOID, and the order's label slot is released in the same transaction, so `labelOrder` can buy
 *     the order a new label; then the order's `$app` summary is rewritten without the void label.
 * Scoped by shop (and order, when the caller names one): another shop's label is "not found".
 */
import { reconcileTimings, type ReconcileTimings } from "../config.server";
import type { Label, PrismaClient } from "../generated/prisma/client";
import { AdminApiError, isShopifyBusy, type AdminGraphqlClient } from "../shopify/admin-client";
import { fetchFulfillmentContext, setOrderLabelMetafield, updateFulfillmentTracking, type FulfillmentContext } from "../shopify/operations/fulfillment";
import { cancelFulfillment } from "../shopify/operations/fulfillment-cancel";
import { withdrawPrintFilesHolding } from "../print/withdraw.server";
import { orderLabelSummary } from "./fulfill.server";
import { note, storedNoteOf } from "./notes";
import { FULFILLMENT, isSkippedTest, labelVoidState } from "./status";

/** What happened to the label's Shopify fulfillment. */
export type VoidShopifyStep =
  /** The fulfillment carrying the number was cancelled now. */
  | "cancelled"
  /** It was cancelled already (a resumed void, or cancelled in Shopify): nothing sent. */
  | "already_cancelled"
  /** It also carries another parcel's number: only this number was removed from its tracking. */
  | "tracking_removed"
  /** No fulfillment carries the number (a test label kept out of Shopify, a push that never happened). */
  | "none";

export type VoidOutcome =
  | { kind: "voided"; label: Label; alreadyVoid: boolean; shopify: VoidShopifyStep; summaryWritten: boolean }
  /** Another void of this label is running now (a double click): nothing done. */
  | { kind: "in_progress"; label: Label }
  /** The label is being pushed to Shopify right now: void it once that step is done. */
  | { kind: "pushing"; label: Label }
  /** Shopify asked the app to slow down: the intent is kept; voiding again resumes it. */
  | { kind: "busy"; label: Label; retryAfterMs: number }
  /** Shopify refused the cancellation (its words in `message`): the intent is kept; voiding again resumes it. */
  | { kind: "failed"; label: Label; message: string }
  | { kind: "not_found" };

export interface VoidDeps {
  db: PrismaClient;
  admin: AdminGraphqlClient;
  now?: () => Date;
  /** Defaults to the process configuration (reconcileTimings()): a void claim older than claimTimeoutMs is stale. */
  timings?: ReconcileTimings;
}

export interface VoidInput {
  shop: string;
  labelId: string;
  /** The order the page shows: a label of another order is "not found" too. */
  orderId?: string;
}

/**
 * Claims the void: from live, from a void that stopped with a reason, or from one whose claim went stale (the
 * process died). Never while the label's Shopify push is under way (a fresh IN_PROGRESS claim), so a fulfillment
 * being created cannot escape the void.
 */
async function claimVoid(db: PrismaClient, label: Label, now: Date, timings: ReconcileTimings): Promise<boolean> {
  const stale = new Date(now.getTime() - timings.claimTimeoutMs);
  const { count } = await db.label.updateMany({
    where: {
      id: label.id,
      shop: label.shop,
      OR: [{ voidState: null }, { voidState: "VOIDING", voidError: { not: null } }, { voidState: "VOIDING", voidRequestedAt: { lt: stale } }],
      NOT: { fulfillmentStatus: FULFILLMENT.IN_PROGRESS, updatedAt: { gte: stale } },
    },
    data: { voidState: "VOIDING", voidRequestedAt: now, voidError: null },
  });
  return count === 1;
}

/** The fulfillments carrying the number, and what to do with each live one. */
export function planShopifyStep(context: Pick<FulfillmentContext, "fulfillments">, trackingNumber: string) {
  const carrying = context.fulfillments.filter((fulfillment) => fulfillment.trackingInfo.some((tracking) => tracking.number === trackingNumber));
  const live = carrying.filter((fulfillment) => fulfillment.status !== "CANCELLED");
  return {
    alreadyCancelled: carrying.length > 0 && live.length === 0,
    actions: live.map((fulfillment) => {
      const others = fulfillment.trackingInfo.filter((tracking) => tracking.number && tracking.number !== trackingNumber);
      return others.length > 0
        ? { kind: "remove_number" as const, fulfillmentId: fulfillment.id, keep: others }
        : { kind: "cancel" as const, fulfillmentId: fulfillment.id };
    }),
  };
}

/** Step 2: the label's Shopify side. Throws Shopify's errors (the caller records them). */
async function shopifyStep(admin: AdminGraphqlClient, label: Label): Promise<{ step: VoidShopifyStep; inShopify: boolean }> {
  // A test label kept out of Shopify (decision 0170): no fulfillment, no summary; nothing to touch there.
  if (isSkippedTest(label.fulfillmentStatus)) return { step: "none", inShopify: false };
  const context = await fetchFulfillmentContext(admin, label.orderId);
  if (!context) return { step: "none", inShopify: false };
  const plan = planShopifyStep(context, label.trackingNumber);
  if (plan.actions.length === 0) return { step: plan.alreadyCancelled ? "already_cancelled" : "none", inShopify: true };
  let step: VoidShopifyStep = "cancelled";
  for (const action of plan.actions) {
    if (action.kind === "remove_number") {
      const company = action.keep.find((tracking) => tracking.company)?.company ?? label.carrierName;
      await updateFulfillmentTracking(admin, {
        fulfillmentId: action.fulfillmentId,
        company,
        numbers: action.keep.map((tracking) => tracking.number).filter((number): number is string => Boolean(number)),
        urls: action.keep.map((tracking) => tracking.url).filter((url): url is string => Boolean(url)),
        notifyCustomer: false,
      });
      step = "tracking_removed";
      continue;
    }
    try {
      await cancelFulfillment(admin, action.fulfillmentId);
    } catch (error) {
      // Cancelled meanwhile (another instance's stale claim, the merchant in Shopify): read it back before failing.
      if (!(error instanceof AdminApiError) || error.kind !== "user_errors") throw error;
      const now = await fetchFulfillmentContext(admin, label.orderId);
      if (now?.fulfillments.find((fulfillment) => fulfillment.id === action.fulfillmentId)?.status !== "CANCELLED") throw error;
    }
  }
  return { step, inShopify: true };
}

/** Step 3's summary: the order's live labels. A failure is not fatal (the background pass writes it later). */
async function rewriteSummary(db: PrismaClient, admin: AdminGraphqlClient, label: Label): Promise<boolean> {
  try {
    await setOrderLabelMetafield(admin, label.orderId, await orderLabelSummary(db, label.shop, label.orderId));
    return true;
  } catch {
    return false;
  }
}

export async function voidLabel(deps: VoidDeps, input: VoidInput): Promise<VoidOutcome> {
  const { db, admin } = deps;
  const now = deps.now ?? (() => new Date());
  const timings = deps.timings ?? reconcileTimings();
  const label = await db.label.findFirst({ where: { id: input.labelId, shop: input.shop, ...(input.orderId ? { orderId: input.orderId } : {}) } });
  if (!label) return { kind: "not_found" };
  if (labelVoidState(label.voidState) === "VOID") return { kind: "voided", label, alreadyVoid: true, shopify: "none", summaryWritten: label.metafieldWritten };

  // 1. The intent, before anything is sent to Shopify.
  if (!(await claimVoid(db, label, now(), timings))) {
    const current = await db.label.findUniqueOrThrow({ where: { id: label.id } });
    const state = labelVoidState(current.voidState);
    if (state === "VOID") return { kind: "voided", label: current, alreadyVoid: true, shopify: "none", summaryWritten: current.metafieldWritten };
    return state === "VOIDING" ? { kind: "in_progress", label: current } : { kind: "pushing", label: current };
  }

  // From the intent on the label is never printed: a print file built while it was live is withdrawn (decision 0197).
  await withdrawPrintFilesHolding(db, label.shop, label);

  // 2. Shopify. A stop keeps the intent with its reason, so voiding again resumes it at once.
  let shopify: { step: VoidShopifyStep; inShopify: boolean };
  try {
    shopify = await shopifyStep(admin, label);
  } catch (error) {
    const stopped = isShopifyBusy(error) ? note("void_shopify_busy", { order: label.orderName }) : note("fulfillment_error", { detail: error instanceof Error ? error.message : String(error) });
    const kept = await db.label.update({ where: { id: label.id }, data: { voidError: storedNoteOf(stopped) } });
    if (isShopifyBusy(error)) return { kind: "busy", label: kept, retryAfterMs: error.retryAfterMs };
    if (error instanceof AdminApiError) return { kind: "failed", label: kept, message: error.message };
    throw error;
  }

  // 3. Void, and the slot released with it: the order can be labelled again.
  const [voided] = await db.$transaction([
    db.label.update({ where: { id: label.id }, data: { voidState: "VOID", voidedAt: now(), voidError: null } }),
    db.purchaseAttempt.updateMany({ where: { shop: label.shop, labelId: label.id }, data: { orderSlot: null } }),
  ]);
  if (!shopify.inShopify) return { kind: "voided", label: voided, alreadyVoid: false, shopify: shopify.step, summaryWritten: false };
  const summaryWritten = await rewriteSummary(db, admin, voided);
  // Unwritten: the background pass (unwrittenSummaries) rewrites the order's summary from its live labels.
  const done = summaryWritten === voided.metafieldWritten ? voided : await db.label.update({ where: { id: label.id }, data: { metafieldWritten: summaryWritten } });
  return { kind: "voided", label: done, alreadyVoid: false, shopify: shopify.step, summaryWritten };
}
