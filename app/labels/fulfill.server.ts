/**
 * Pushing a bought label to Shopify: the fulfillment with tracking (customer notified per shop setting) and a small
 * `$app` metafield summary on the order. A separate, stored step: when Shopify fails, the label is kept and this
 * step can be retried without buying again. Nothing is done twice: an existing fulfillment carrying the label's
 * tracking number is adopted instead of creating another, and a claim on the label row stops two pushes at once.
 *
 * The summary describes the order's labels (the latest few), so an additional parcel does not hide the first one.
 * Whether it was written is stored per label (`metafieldWritten`): a push or retry of a label whose fulfillment
 * already exists still writes the summary when that earlier write failed.
 */
import { DEFAULT_RECONCILE_TIMINGS, reconcileTimings, type ReconcileTimings } from "../config.server";
import type { PrismaClient, Label } from "../generated/prisma/client";
import { AdminApiError, ShopifyBusyError, type AdminGraphqlClient } from "../shopify/admin-client";
import { createFulfillment, fetchFulfillmentContext, setOrderLabelMetafield, updateFulfillmentTracking, type FulfillmentContext } from "../shopify/operations/fulfillment";
import { isParcelFulfillmentOrder } from "../shipping/fulfillment-orders";
import { shopifyTrackingInfo } from "./carriers";
import { loadShippingSettings } from "../settings/shipping-settings.server";
import { note, storedNoteOf, type Note } from "./notes";
import { FULFILLMENT, isFulfilled, isPushing } from "./status";
import { shopifyStepFor } from "./shopify-step.server";
import { claimLabelStep, labelById, liveLabelsOf, stuckLabels, unwrittenSummaryLabels, updateLabelStep } from "./label-rows.server";

/** A push that crashed mid-way may be retried after this long (default; FULFILLMENT_CLAIM_TIMEOUT_MS). */
export const FULFILLMENT_CLAIM_TIMEOUT_MS = DEFAULT_RECONCILE_TIMINGS.claimTimeoutMs;

/** How many labels (the most recent) the order's metafield summary lists; it stays a small document. */
export const SUMMARY_MAX_LABELS = 10;

export interface OrderLabelSummaryEntry {
  labelId: string;
  trackingNumber: string;
  trackingUrl: string;
  carrier: string;
  environment: string;
  createdAt: string;
}

/** The JSON document stored in the order's `$app` metafield. */
export interface OrderLabelSummary {
  /** All live labels of the order in this shop, including those not listed below (a void label is left out). */
  count: number;
  /** The most recent labels, oldest first, at most SUMMARY_MAX_LABELS. */
  labels: OrderLabelSummaryEntry[];
}

export async function orderLabelSummary(db: PrismaClient, shop: string, orderId: string): Promise<OrderLabelSummary> {
  return (await orderLabelSummaries(db, shop, [orderId])).get(orderId)!;
}

/** The summaries of several orders of the shop from one read of their live labels (a batched write, decision 0199). */
export async function orderLabelSummaries(db: PrismaClient, shop: string, orderIds: readonly string[]): Promise<Map<string, OrderLabelSummary>> {
  const summaries = new Map<string, OrderLabelSummary>();
  const labels = orderIds.length === 0 ? [] : await liveLabelsOf(db, shop, orderIds);
  for (const orderId of orderIds) {
    const own = labels.filter((label) => label.orderId === orderId);
    // The most recent first (the id breaks a tie within a millisecond), then the kept ones oldest first.
    own.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    summaries.set(orderId, {
      count: own.length,
      labels: own
        .slice(0, SUMMARY_MAX_LABELS)
        .reverse()
        .map((label) => ({
          labelId: label.serviceLabelId,
          trackingNumber: label.trackingNumber,
          trackingUrl: label.trackingUrl,
          carrier: label.carrierName,
          environment: label.environment,
          createdAt: label.createdAt.toISOString(),
        })),
    });
  }
  return summaries;
}

/** Writes the order's label summary; true when Shopify stored it. A failure is not fatal (see writeSummary). */
async function writeSummary(db: PrismaClient, admin: AdminGraphqlClient, label: Label): Promise<boolean> {
  try {
    const summary = await orderLabelSummary(db, label.shop, label.orderId);
    await setOrderLabelMetafield(admin, label.orderId, summary);
    return true;
  } catch {
    // The summary is a convenience; the fulfillment is what matters. metafieldWritten stays false, so the next
    // push or retry of this label writes it again, even once the fulfillment exists.
    return false;
  }
}

/** Fulfilled labels of the last day whose order summary is still unwritten, last touched over a minute ago. */
export async function unwrittenSummaries(db: PrismaClient, now: Date, limit = 20) {
  return unwrittenSummaryLabels(db, { touchedBefore: new Date(now.getTime() - 60_000), createdSince: new Date(now.getTime() - 24 * 3_600_000), limit });
}

/**
 * A label whose Shopify step started (or was due to start) but has had no outcome for longer than the claim timeout:
 * the process that should push it died (crash, SIGKILL, deploy) between storing the label and recording the
 * fulfillment. The background pass pushes it again (pushLabelToShopify first adopts a fulfillment that already carries
 * its tracking number) and the order page offers Retry.
 */
export function isFulfillmentStuck(
  label: Pick<Label, "fulfillmentStatus" | "updatedAt">,
  now: Date,
  timings: ReconcileTimings = reconcileTimings(),
): boolean {
  return (
    isPushing(label.fulfillmentStatus) &&
    label.updatedAt.getTime() < now.getTime() - timings.claimTimeoutMs
  );
}

/** Labels whose Shopify step is stuck (isFulfillmentStuck), across shops, for the background pass. */
export async function stuckFulfillments(db: PrismaClient, now: Date, limit = 20, timings: ReconcileTimings = reconcileTimings()) {
  return stuckLabels(db, { claimedBefore: new Date(now.getTime() - timings.claimTimeoutMs), limit });
}

export type FulfillResult =
  | { status: "created"; label: Label; adopted: boolean }
  | { status: "in_progress" }
  /** Shopify asked the app to slow down: nothing was sent, the step is PENDING again for the background pass. */
  | { status: "busy"; label: Label; retryAfterMs: number }
  | { status: "failed"; label: Label; message: string; messageFr: string }
  /** A staging (test) label kept out of Shopify: no fulfillment, no notice (shopify-step.server.ts, decision 0170). */
  | { status: "skipped"; label: Label; reason: "test_label" };

export interface FulfillDeps {
  db: PrismaClient;
  admin: AdminGraphqlClient;
  now?: () => Date;
  /** Defaults to the process configuration (reconcileTimings()). */
  timings?: ReconcileTimings;
}

/**
 * Claims the label's Shopify step. `neverPushed`: only from PENDING with no fulfillment recorded, i.e. nothing of this
 * label can have reached Shopify yet (a throttled call is not executed, and PENDING is only set back after one).
 */
async function claim(db: PrismaClient, shop: string, labelId: string, now: Date, timings: ReconcileTimings, neverPushed = false): Promise<boolean> {
  // A label being voided or void never goes (back) to Shopify (decision 0112): only live labels are claimed, from
  // CLAIMABLE_FULFILLMENT_STATUSES or SKIPPED_TEST, or from a claim older than the timeout.
  return claimLabelStep(db, { id: labelId, shop, neverPushed, staleBefore: new Date(now.getTime() - timings.claimTimeoutMs) }, now);
}

/** How a caller that labels many orders (a bulk job's item) lets a push spend fewer Shopify points. */
export interface PushOptions {
  /**
   * The order's fulfillment orders as read just before the purchase (a bulk item's fresh read, decision 0184): a
   * label never pushed before is fulfilled from them without reading the order again. Anything else (an earlier push
   * of this label, no open fulfillment order there, Shopify refusing them as out of date) reads the order now.
   */
  read?: Pick<FulfillmentContext, "fulfillmentOrders">;
  /** "batched": the order summary is left to flushOrderSummaries (decision 0185); by default it is written now. */
  summary?: "now" | "batched";
  /** The shop's plan as the caller keeps it (a bulk job: once a minute), instead of one read per push. */
  isDevelopmentStore?: () => Promise<boolean>;
}

/** The read's fulfillment orders this label may fulfil (its own one, when it names one). */
function openFulfillmentOrders(label: Label, fulfillmentOrders: Pick<FulfillmentContext, "fulfillmentOrders">["fulfillmentOrders"]) {
  return fulfillmentOrders.nodes.filter(
    (fulfillmentOrder) => (label.fulfillmentOrderId === null || fulfillmentOrder.id === label.fulfillmentOrderId) && isParcelFulfillmentOrder(fulfillmentOrder),
  );
}

export async function pushLabelToShopify(
  deps: FulfillDeps,
  input: { shop: string; labelId: string; notifyCustomer: boolean; options?: PushOptions; /** The row as just stored (not read again). */ stored?: Label },
): Promise<FulfillResult> {
  const { db, admin } = deps;
  const options = input.options ?? {};
  const now = deps.now ?? (() => new Date());
  const label = input.stored?.id === input.labelId && input.stored.shop === input.shop ? input.stored : await labelById(db, input.labelId, input.shop);
  if (!label) throw new Error(`no label ${input.labelId} for ${input.shop}`);
  if (isFulfilled(label.fulfillmentStatus)) {
    if (label.metafieldWritten) return { status: "created", label, adopted: true };
    // Fulfilled earlier but the summary write failed then: only the summary is left to do.
    if (!(await writeSummary(db, admin, label))) {
      // Touch the row so the background pass (unwrittenSummaries) tries again a minute later, not every pass.
      const touched = await db.label.update({ where: { id: label.id }, data: { metafieldWritten: false } });
      return { status: "created", label: touched, adopted: true };
    }
    const updated = await db.label.update({ where: { id: label.id }, data: { metafieldWritten: true } });
    return { status: "created", label: updated, adopted: true };
  }
  const timings = deps.timings ?? reconcileTimings();
  // The caller's read stands in for the order's only when nothing of this label can be in Shopify yet.
  let read = options.read && label.fulfillmentStatus === FULFILLMENT.PENDING && label.fulfillmentId === null ? options.read : undefined;
  let claimed = read ? await claim(db, input.shop, label.id, now(), timings, true) : false;
  if (!claimed) {
    read = undefined;
    claimed = await claim(db, input.shop, label.id, now(), timings);
  }
  if (!claimed) return { status: "in_progress" };

  const fail = async (why: Note): Promise<FulfillResult> => {
    const failed = await db.label.update({
      where: { id: label.id },
      data: { fulfillmentStatus: FULFILLMENT.FAILED, fulfillmentError: storedNoteOf(why) },
    });
    return { status: "failed", label: failed, message: why.message, messageFr: why.messageFr };
  };

  let fulfillmentId: string;
  let adopted = false;
  try {
    // --- test labels (decision 0170): the one place that decides whether this label may reach Shopify at all.
    const step = await shopifyStepFor({ db, admin, isDevelopmentStore: options.isDevelopmentStore }, label);
    if (!step.push) {
      const skipped = await updateLabelStep(db, label.id, { fulfillmentStatus: FULFILLMENT.SKIPPED_TEST, fulfillmentError: null }, now());
      if (!skipped) throw new Error(`label ${label.id} is gone`);
      return { status: "skipped", label: skipped, reason: step.reason };
    }
    // --- end test labels
    // A fresh read with a fulfillment order open for this label, which cannot be in Shopify yet: no read here.
    if (read && openFulfillmentOrders(label, read.fulfillmentOrders).length === 0) read = undefined;
    const context: Pick<FulfillmentContext, "fulfillments" | "fulfillmentOrders"> | null = read
      ? { fulfillments: [], fulfillmentOrders: read.fulfillmentOrders }
      : await fetchFulfillmentContext(admin, label.orderId);
    if (!context) return await fail(note("fulfillment_order_gone", { order: label.orderName }));
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
        return await fail(note("fulfillment_nothing_open", { order: label.orderName }));
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
    if (read && error instanceof AdminApiError && error.kind === "user_errors") {
      // Shopify refused the read's fulfillment orders (the order changed since): nothing was created. Pushed again
      // from the order as it is now.
      await db.label.update({ where: { id: label.id }, data: { fulfillmentStatus: FULFILLMENT.PENDING } });
      return pushLabelToShopify(deps, { ...input, options: { ...options, read: undefined } });
    }
    if (error instanceof ShopifyBusyError) {
      // A throttled call is not executed: nothing reached Shopify. The step goes back to PENDING (not FAILED), so the
      // background pass pushes it again once the claim timeout has passed, and the page offers Retry then.
      const released = await db.label.update({
        where: { id: label.id },
        data: { fulfillmentStatus: FULFILLMENT.PENDING, fulfillmentError: storedNoteOf(note("fulfillment_shopify_busy", { order: label.orderName })) },
      });
      return { status: "busy", label: released, retryAfterMs: error.retryAfterMs };
    }
    // Shopify's (or the runtime's) own words stay a parameter.
    if (error instanceof AdminApiError) return fail(note("fulfillment_error", { detail: error.message }));
    await fail(note("fulfillment_error", { detail: error instanceof Error ? error.message : String(error) }));
    throw error;
  }

  // A bulk job's item leaves the summary to one metafieldsSet for up to 25 orders (flushOrderSummaries).
  const batched = options.summary === "batched" && !label.metafieldWritten;
  const metafieldWritten = label.metafieldWritten || (!batched && (await writeSummary(db, admin, label)));

  const at = now();
  const done = await updateLabelStep(db, label.id, { fulfillmentStatus: FULFILLMENT.CREATED, fulfillmentId, fulfillmentError: null, metafieldWritten, ...(batched ? { summaryDueAt: at } : {}) }, at);
  if (!done) throw new Error(`label ${label.id} is gone`);
  return { status: "created", label: done, adopted };
}

/** Retry only the Shopify step of a label (never buys). `notifyCustomer`: the context's setting, else the shop's. */
export async function retryFulfillment(deps: { db: PrismaClient; admin: AdminGraphqlClient; notifyCustomer?: boolean }, shop: string, labelId: string) {
  const notifyCustomer = deps.notifyCustomer ?? (await loadShippingSettings(deps.db, shop)).notifyCustomer;
  return pushLabelToShopify(deps, { shop, labelId, notifyCustomer });
}
