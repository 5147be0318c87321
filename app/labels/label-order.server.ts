/**
 * One labelling unit: `labelOrder(context, { orderId, labelIndex?, edits? })`. The order page, a bulk job's item and
 * the admin extensions all call it, so one order bought from a job has exactly the single-order guarantees (the
 * order's label slot, the reference written before the call, no retry of a purchase, the unknown reconciled).
 *
 * Everything per shop comes from the context, built once (a request, a job, a reconciler pass): the environment and
 * the settings are never read again here, so a bulk job's frozen environment is the one that pays.
 *
 * The outcome is typed and its reasons are data (a code plus parameters, translated at display):
 *  - labelled: a label is stored for the slot (bought now, or already there), with the Shopify step's own state
 *    (created, failed with its reason, or in progress: claimed elsewhere, or Shopify asked to slow down and the
 *    background pass pushes it);
 *  - blocked: the order cannot be labelled as it is (the mapper's problems); nothing was sent;
 *  - refused: the service refused or could not be asked; nothing was charged. `retryable` when trying again later
 *    may work unchanged (a 429, Shopify busy before the purchase);
 *  - pending: the outcome is unknown (or another caller holds the slot); the reconciler settles it.
 * No exception escapes once a purchase was sent: what happened to the money is always in the outcome.
 */
import type { Label, PrismaClient, PurchaseAttempt } from "../generated/prisma/client";
import { customsDescriptionsForOrder } from "./customs-descriptions.server";
import { mapOrderToLabelRequest, type OfferedService, type Problem } from "../shipping";
import type { ShippingSettings } from "../shipping/settings";
import { isShopifyBusy, type AdminGraphqlClient } from "../shopify/admin-client";
import { fetchOrderForLabel, type OrderForLabel } from "../shopify/operations/order-for-label";
import type { LabelEnvironment } from "./environments";
import { pushLabelToShopify, type FulfillResult, type PushOptions } from "./fulfill.server";
import { LabelServiceUnavailableError } from "./gateway.server";
import { readNoteReason } from "./notes";
import { firstPerPath } from "./order-edit-fields";
import { checkOrderEdits, contractProblems, effectiveEdits } from "./order-edits.server";
import { placeForLocation, splitLocations } from "./location-label.server";
import type { OrderLocation } from "../shipping/location-sender";
import { applyOverrides, offeredFor, orderGid, PREVIEW_REFERENCE, resolvedByEdit, type RequestOverrides } from "./order-label.server";
import { labelProblem } from "./problems";
import { nextLabelIndex, orderSlot, purchaseLabel, slotHolder, type LabelServicePort, type OutcomeError, type PurchaseResult } from "./purchase.server";
import { reconcileAttempt } from "./settle.server";
import type { Reason } from "./reasons";
import { FULFILLMENT, isFulfillmentFailed, labelFulfillmentStatus, LIVE_LABEL } from "./status";

export type { Reason };

/** Everything one shop's labelling needs, built once per request, per job or per reconciler pass. */
export interface LabelContext {
  shop: string;
  db: PrismaClient;
  admin: AdminGraphqlClient;
  /** Frozen for a bulk job at its creation; the shop's current one for a page. */
  environment: LabelEnvironment;
  /** The settings snapshot the labels are mapped with. */
  settings: ShippingSettings;
  /** The label-service client for this shop and environment (built lazily: blocked orders never need it). */
  service: () => Promise<
    LabelServicePort & {
      carrierServices?: (country: string) => Promise<OfferedService[]>;
      /** The destination's services when the client still has them, without a call (undefined otherwise). */
      cachedCarrierServices?: (country: string) => OfferedService[] | undefined;
    }
  >;
  /** How the Shopify step may save points when many orders are labelled (a bulk job, decisions 0185 and 0186). */
  push?: Omit<PushOptions, "read">;
}

/**
 * The Shopify step of a label, as labelOrder leaves it. `in_progress` with a reason: Shopify asked the app to slow
 * down; the label is stored, nothing was sent to Shopify, and the background pass pushes it (or the page's Retry).
 */
export type FulfillmentState =
  | { status: "created"; adopted: boolean }
  | { status: "in_progress"; reason?: Reason }
  | { status: "failed"; reason: Reason }
  /** A test label kept out of Shopify (decision 0170). */
  | { status: "skipped"; reason: Reason };

export type LabelOrderOutcome =
  | { kind: "labelled"; label: Label; alreadyLabelled: boolean; fulfillment: FulfillmentState | null }
  | { kind: "blocked"; problems: Problem[] }
  | { kind: "refused"; retryable: boolean; reason: Reason; attempt?: PurchaseAttempt; error?: OutcomeError }
  | { kind: "pending"; attempt: PurchaseAttempt | null; reason: Reason };

export interface LabelOrderInput {
  orderId: string;
  /** An additional label: the slot the caller expects (a resubmit naming a taken slot gets that label back). */
  labelIndex?: number;
  /** The merchant's edits from the order page; a job sends none. */
  edits?: RequestOverrides & { box?: string };
  /** A Location GID: only that location's fulfillment order, with its sender (an order shipping from several; 0115). */
  location?: string;
  /**
   * The order already read, fresh (a bulk job's item: its job's read, decision 0184): labelled from it, and its
   * fulfillment orders fulfilled, without reading the order again. Absent: read from Shopify now.
   */
  order?: OrderForLabel;
}

/** Sender per location (decision 0115): an order shipping from several locations lists them, for a caller labelling each. */
export type LabelOrderResult = LabelOrderOutcome & { locations?: OrderLocation[] };

function busySeconds(retryAfterMs: number): string {
  return String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
}

/** The Shopify step's state from a push's result. */
export function fulfillmentState(result: FulfillResult): FulfillmentState {
  switch (result.status) {
    case "created":
      return { status: "created", adopted: result.adopted };
    case "in_progress":
      return { status: "in_progress" };
    case "busy":
      return { status: "in_progress", reason: { code: "shopify_busy_fulfillment", params: { seconds: busySeconds(result.retryAfterMs) } } };
    case "failed":
      return { status: "failed", reason: fulfillmentFailure(result.label.fulfillmentError, result.message, result.messageFr) };
    case "skipped":
      return { status: "skipped", reason: { code: "test_label_not_fulfilled" } };
  }
}

function fulfillmentFailure(stored: string | null, message?: string, messageFr?: string): Reason {
  const note = readNoteReason(stored);
  if (note) return note;
  return { code: "fulfillment_failed", params: { message: message ?? "", messageFr: messageFr ?? message ?? "" } };
}

/** The Shopify step's state as stored on a label (a label found already there). */
export function storedFulfillmentState(label: Pick<Label, "fulfillmentStatus" | "fulfillmentError">): FulfillmentState {
  switch (labelFulfillmentStatus(label.fulfillmentStatus)) {
    case FULFILLMENT.CREATED:
      return { status: "created", adopted: true };
    case FULFILLMENT.FAILED:
      return { status: "failed", reason: fulfillmentFailure(label.fulfillmentError) };
    case FULFILLMENT.SKIPPED_TEST:
      return { status: "skipped", reason: { code: "test_label_not_fulfilled" } };
    case FULFILLMENT.PENDING:
    case FULFILLMENT.IN_PROGRESS:
      return { status: "in_progress" };
  }
}

/** A refusal that may pass unchanged later: rate limited (nothing was processed, so nothing was charged). */
function retryableRefusal(error: OutcomeError): boolean {
  return error.httpStatus === 429 || error.kind === "rate_limited";
}

/** The label was stored: its Shopify step now. Never throws (the money is spent; the outcome must say so). */
async function fulfil(context: LabelContext, label: Label, order?: OrderForLabel): Promise<FulfillmentState> {
  try {
    const options: PushOptions = { ...context.push, read: order };
    return fulfillmentState(await pushLabelToShopify({ db: context.db, admin: context.admin }, { shop: context.shop, labelId: label.id, notifyCustomer: context.settings.notifyCustomer, options, stored: label }));
  } catch (error) {
    if (isShopifyBusy(error)) return { status: "in_progress", reason: { code: "shopify_busy_fulfillment", params: { seconds: busySeconds(error.retryAfterMs) } } };
    // The push recorded what it could; report the label's own state (a claim left behind is picked up by the
    // background pass once stale).
    const stored = await context.db.label.findUnique({ where: { id: label.id } }).catch(() => null);
    if (stored && isFulfillmentFailed(stored.fulfillmentStatus)) return storedFulfillmentState(stored);
    return { status: "in_progress", reason: { code: "fulfillment_interrupted", params: { message: error instanceof Error ? error.message : String(error) } } };
  }
}

/** A purchase result (new, or the slot's holder) as an outcome; a created label is pushed to Shopify. */
async function fromPurchase(context: LabelContext, purchase: PurchaseResult, order?: OrderForLabel): Promise<LabelOrderOutcome> {
  switch (purchase.status) {
    case "created":
      return { kind: "labelled", label: purchase.label, alreadyLabelled: false, fulfillment: await fulfil(context, purchase.label, order) };
    case "already_labelled":
      return { kind: "labelled", label: purchase.label, alreadyLabelled: true, fulfillment: storedFulfillmentState(purchase.label) };
    case "in_progress":
      return { kind: "pending", attempt: purchase.attempt, reason: { code: "purchase_in_progress", params: { reference: purchase.attempt.customReference } } };
    case "unknown":
      return { kind: "pending", attempt: purchase.attempt, reason: { code: "purchase_unknown", params: { reference: purchase.attempt.customReference } } };
    case "rejected":
      return {
        kind: "refused",
        retryable: retryableRefusal(purchase.error),
        attempt: purchase.attempt,
        error: purchase.error,
        reason: retryableRefusal(purchase.error)
          ? { code: "service_rate_limited", params: { message: purchase.error.message } }
          : { code: "service_refused", params: { message: purchase.error.message, messageFr: purchase.error.messageFr ?? purchase.error.message } },
      };
  }
}

type Prepared = (
  | { kind: "outcome"; outcome: LabelOrderOutcome }
  | { kind: "ready"; service: Awaited<ReturnType<LabelContext["service"]>>; request: Parameters<typeof purchaseLabel>[1]; order: OrderForLabel }
) & { locations?: OrderLocation[] };

/**
 * Everything before the purchase: the slot, the service, the order read from Shopify now (never from the browser),
 * mapped with the context's settings, the edits applied and checked. Free: nothing is bought here.
 */
async function prepare(context: LabelContext, input: LabelOrderInput): Promise<Prepared> {
  const { db, shop, settings, environment } = context;
  const id = orderGid(input.orderId);
  const additional = input.labelIndex !== undefined && input.labelIndex > 1;
  const requestedIndex = additional ? input.labelIndex! : 1;
  const { box, ...overrides } = input.edits ?? {};
  const boxName = box || undefined;

  // A resubmitted form, a second tab, a job's item run twice: the slot's label (or purchase in flight) is reported
  // instead of re-mapping an order that may have nothing left to ship by now.
  const holder = await slotHolder(db, shop, id, requestedIndex, input.location);
  if (holder) return { kind: "outcome", outcome: await fromPurchase(context, holder) };
  const seenFree = orderSlot(shop, id, requestedIndex, input.location);

  let service: Awaited<ReturnType<LabelContext["service"]>>;
  try {
    service = await context.service();
  } catch (error) {
    if (!(error instanceof LabelServiceUnavailableError)) throw error;
    return { kind: "outcome", outcome: { kind: "refused", retryable: false, reason: { code: "service_unavailable", params: { environment, cause: error.code } } } };
  }

  const order = input.order?.id === id ? input.order : await fetchOrderForLabel(context.admin, id);
  if (!order) return { kind: "outcome", outcome: { kind: "blocked", problems: [labelProblem("order_not_found", { orderName: input.orderId })] } };
  if (boxName && !settings.boxes.some((entry) => entry.name === boxName)) {
    return { kind: "outcome", outcome: { kind: "blocked", problems: [labelProblem("box_unknown", { orderName: order.name, params: { box: boxName.length > 40 ? `${boxName.slice(0, 40)}…` : boxName } })] } };
  }
  let labelIndex = 1;
  if (additional) {
    const [labelled, next] = await Promise.all([db.label.count({ where: { shop, orderId: id, ...LIVE_LABEL } }), nextLabelIndex(db, shop, id)]);
    if (labelled === 0) return { kind: "outcome", outcome: { kind: "blocked", problems: [labelProblem("no_first_label", { orderName: order.name })] } };
    if (requestedIndex !== next) return { kind: "outcome", outcome: { kind: "blocked", problems: [labelProblem("page_out_of_date", { orderName: order.name })] } };
    labelIndex = next;
  }
  // --- sender per location (decision 0115): the location's fulfillment order, slot and sender
  const locations = splitLocations(order);
  const place = await placeForLocation(db, { shop, orderId: id, order, settings, location: input.location, labelIndex });
  if (place.kind === "held") return { kind: "outcome", outcome: await fromPurchase(context, place.holder), locations };
  if (place.kind === "blocked") return { kind: "outcome", outcome: { kind: "blocked", problems: place.problems }, locations };
  const { fulfillmentOrderId } = place;
  // --- end sender per location
  const carrier = overrides.carrier_name && overrides.carrier_service_name ? { carrierName: overrides.carrier_name, serviceName: overrides.carrier_service_name } : undefined;
  // The chosen service must be one the service sells to the destination (checked again here: the page may be old).
  const lookup = service.carrierServices?.bind(service);
  const [offeredServices, customsDescriptions] = await Promise.all([
    offeredFor(order, environment, lookup ? (country) => lookup(country) : undefined),
    customsDescriptionsForOrder(db, shop, order),
  ]);
  const mapped = mapOrderToLabelRequest({
    order,
    settings: place.settings,
    fulfillmentOrderId,
    wholeOrder: additional && !fulfillmentOrderId,
    boxName,
    carrier,
    customReference: PREVIEW_REFERENCE,
    offeredServices,
    customsDescriptions,
  });
  // Every value the purchase would use is checked: typed ones, and mapped ones the form did not send.
  const editProblems = mapped.preview ? checkOrderEdits(mapped.preview, effectiveEdits(mapped.preview, overrides, { customsRequired: mapped.draft?.customsRequired ?? true }), order.name) : [];
  const blocking = mapped.problems.filter((problem) => problem.severity === "blocking" && !resolvedByEdit(problem, overrides));
  // The order's own problem wins at its place (it says where to fix it); a typed value that resolved it is checked.
  const before = firstPerPath([...blocking, ...editProblems]);
  if (!mapped.preview || before.length > 0) return { kind: "outcome", outcome: { kind: "blocked", problems: before }, locations };
  // Nothing typed (a bulk item, a label created as mapped): the mapper already checked this request against the
  // contract (mapped.request), so it is not parsed again here; the client checks it once more before sending it.
  const asMapped = Object.keys(overrides).length === 0 ? mapped.request : undefined;
  const request = asMapped ?? applyOverrides(mapped.preview, overrides);
  const contract = asMapped ? [] : contractProblems(request, order.name);
  if (contract.length > 0) return { kind: "outcome", outcome: { kind: "blocked", problems: contract }, locations };
  return {
    kind: "ready",
    locations,
    service,
    order,
    request: {
      shop,
      environment,
      orderId: id,
      orderName: order.name,
      fulfillmentOrderId,
      labelIndex,
      location: place.location,
      buildRequest: (customReference) => ({ ...request, custom_reference: customReference }),
      // The slot read empty above is the one bought in, unless the order ships from several locations.
      slotSeenFree: orderSlot(shop, id, labelIndex, place.location) === seenFree,
    },
  };
}

/**
 * The order's read handed to the Shopify step: the caller's own, or this call's when the caller saves points (a bulk
 * job's item whose stored order was stale). A page's push reads the order as it is then.
 */
function readFor(context: LabelContext, input: LabelOrderInput, order: OrderForLabel): OrderForLabel | undefined {
  return input.order === order || context.push ? order : undefined;
}

export async function labelOrder(context: LabelContext, input: LabelOrderInput): Promise<LabelOrderResult> {
  let prepared: Prepared;
  try {
    prepared = await prepare(context, input);
  } catch (error) {
    // Shopify's budget stayed short past the wait bound before anything was bought: try again later, unchanged.
    if (isShopifyBusy(error)) return { kind: "refused", retryable: true, reason: { code: "shopify_busy", params: { seconds: busySeconds(error.retryAfterMs) } } };
    throw error;
  }
  if (prepared.kind === "outcome") return withLocations(prepared.outcome, prepared.locations);

  const { service } = prepared;
  const purchase = await purchaseLabel({ db: context.db, service }, prepared.request);
  if (purchase.status === "unknown") {
    // Reconcile straight away once: a lost answer usually means the label exists already. A lookup that fails
    // leaves the attempt to the background pass.
    const reconciled = await reconcileAttempt({ db: context.db, service }, context.shop, purchase.attempt.id).catch(() => null);
    if (reconciled?.status === "created") {
      return withLocations(await fromPurchase(context, { status: "created", label: reconciled.label }, readFor(context, input, prepared.order)), prepared.locations);
    }
  }
  return withLocations(await fromPurchase(context, purchase, readFor(context, input, prepared.order)), prepared.locations);
}

function withLocations(outcome: LabelOrderOutcome, locations: OrderLocation[] | undefined): LabelOrderResult {
  return locations ? { ...outcome, locations } : outcome;
}
