/**
 * The statuses of the label flow as typed unions (attempts, labels' Shopify step, Shopify's order fulfillment, the
 * history's rows), the views derived from them, and the ONE function that derives what an order's label state looks
 * like to the merchant: its badge, its primary action and whether a purchase is possible. The orders list and the
 * order page both call `deriveOrderLabelView`, so they cannot disagree (issue 11, item 10).
 *
 * No other module compares or writes a raw status string: they use ATTEMPT / FULFILLMENT and the predicates and
 * status lists here. Pure: no I/O, browser-safe.
 */

/** A purchase attempt as stored (`PurchaseAttempt.status`). */
export const ATTEMPT_STATUSES = ["PENDING", "UNKNOWN", "NEEDS_REVIEW", "CREATED", "REJECTED"] as const;
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];

/** The Shopify step of a stored label (`Label.fulfillmentStatus`). */
export const LABEL_FULFILLMENT_STATUSES = ["PENDING", "IN_PROGRESS", "CREATED", "FAILED", "SKIPPED_TEST"] as const;
export type LabelFulfillmentStatus = (typeof LABEL_FULFILLMENT_STATUSES)[number];

/**
 * A label's void (decision 0112), `Label.voidState`: null while live; VOIDING once the merchant confirmed (the intent,
 * recorded before Shopify is called, so a retry resumes it); VOID once its fulfillment is cancelled.
 */
export const LABEL_VOID_STATES = ["VOIDING", "VOID"] as const;
export type LabelVoidState = (typeof LABEL_VOID_STATES)[number];

/** A stored void state; one this code does not know is read as VOIDING (never printed, never live again by mistake). */
export function labelVoidState(value: string | null | undefined): LabelVoidState | null {
  if (value === null || value === undefined) return null;
  return LABEL_VOID_STATES.find((state) => state === value) ?? "VOIDING";
}

export function isVoid(voidState: string | null | undefined): boolean {
  return labelVoidState(voidState) === "VOID";
}

/** Neither void nor being voided: the label ships a parcel, can be printed, and counts as the order's label. */
export function isLiveLabel(label: { voidState?: string | null }): boolean {
  return labelVoidState(label.voidState) === null;
}

/** The database filter for live labels (print selections, the order's summary, the list's facts). */
export const LIVE_LABEL = { voidState: null } as const;

/** Each status by name, typed: `ATTEMPT.UNKNOWN` is of type "UNKNOWN". */
function named<const T extends string>(values: readonly T[]): { readonly [K in T]: K } {
  return Object.fromEntries(values.map((value) => [value, value])) as { readonly [K in T]: K };
}
export const ATTEMPT = named(ATTEMPT_STATUSES);
export const FULFILLMENT = named(LABEL_FULFILLMENT_STATUSES);

/*
 * Attempts. PENDING: written before the call, no answer recorded yet; UNKNOWN: the answer was lost, the reconciler
 * looks it up; NEEDS_REVIEW: the lookups could not settle it, the merchant decides; CREATED: a label is stored;
 * REJECTED: refused (nothing charged) or released by the merchant; its slot is free again.
 */

/** A purchase whose outcome is being looked up (no answer kept): "Check again", attach and release apply to it. */
export const OUTCOME_OPEN_STATUSES = [ATTEMPT.UNKNOWN, ATTEMPT.NEEDS_REVIEW] as const;
/** A purchase not settled yet: it holds its order's slot and may still become a label. */
export const UNSETTLED_ATTEMPT_STATUSES = [ATTEMPT.PENDING, ATTEMPT.UNKNOWN, ATTEMPT.NEEDS_REVIEW] as const;

export function isOutcomeOpen(status: string): boolean {
  return (OUTCOME_OPEN_STATUSES as readonly string[]).includes(status);
}

export function isUnsettledAttempt(status: string): boolean {
  return (UNSETTLED_ATTEMPT_STATUSES as readonly string[]).includes(status);
}

/** Still waiting for the service's answer or for the app's lookups (not yet handed to the merchant). */
export function isAttemptInFlight(status: string): boolean {
  return status === ATTEMPT.PENDING || status === ATTEMPT.UNKNOWN;
}

export function needsReview(status: string): boolean {
  return status === ATTEMPT.NEEDS_REVIEW;
}

/** A refused or released attempt: it holds nothing (its slot is free, no label is expected from it). */
export function isAttemptRejected(status: string): boolean {
  return status === ATTEMPT.REJECTED;
}

/*
 * A label's Shopify step. PENDING: not pushed yet (or put back after Shopify asked to slow down); IN_PROGRESS:
 * claimed by a push; CREATED: fulfilled in Shopify; FAILED: Shopify refused, the merchant retries.
 */

/** The Shopify step is still to happen or under way. */
export const PUSHING_FULFILLMENT_STATUSES = [FULFILLMENT.PENDING, FULFILLMENT.IN_PROGRESS] as const;
/** A push may claim the step from these without waiting for a stale claim. */
export const CLAIMABLE_FULFILLMENT_STATUSES = [FULFILLMENT.PENDING, FULFILLMENT.FAILED] as const;

export function isPushing(fulfillmentStatus: string): boolean {
  return (PUSHING_FULFILLMENT_STATUSES as readonly string[]).includes(fulfillmentStatus);
}

export function isFulfilled(fulfillmentStatus: string): boolean {
  return fulfillmentStatus === FULFILLMENT.CREATED;
}

/** A test label kept out of Shopify (decision 0170). */
export function isSkippedTest(fulfillmentStatus: string): boolean {
  return fulfillmentStatus === FULFILLMENT.SKIPPED_TEST;
}

export function isFulfillmentFailed(fulfillmentStatus: string): boolean {
  return fulfillmentStatus === FULFILLMENT.FAILED;
}

/** The statuses of the label history's rows (labels and attempts together). */
export const HISTORY_STATUSES = ["created", "fulfilled", "fulfillment_failed", "voided", "needs_review", "pending", "rejected"] as const;
export type HistoryStatus = (typeof HISTORY_STATUSES)[number];

export function labelHistoryStatus(fulfillmentStatus: string, voidState?: string | null): HistoryStatus {
  if (isVoid(voidState)) return "voided";
  if (isFulfilled(fulfillmentStatus)) return "fulfilled";
  if (isFulfillmentFailed(fulfillmentStatus)) return "fulfillment_failed";
  return "created";
}

export function attemptHistoryStatus(status: string): HistoryStatus {
  if (needsReview(status)) return "needs_review";
  if (isAttemptRejected(status)) return "rejected";
  return "pending";
}

/**
 * What a history filter selects: the labels' Shopify steps (undefined: labels not wanted) and the attempts' statuses
 * (undefined: attempts not wanted). A created attempt is its label's row, never listed twice.
 */
export function historySelection(status: HistoryStatus | undefined): {
  fulfillment?: readonly LabelFulfillmentStatus[];
  attempts?: readonly AttemptStatus[];
  /** Labels only: void ones (true), not void ones (false), or both (undefined). */
  voided?: boolean;
} {
  switch (status) {
    case undefined:
      return { fulfillment: LABEL_FULFILLMENT_STATUSES, attempts: [ATTEMPT.PENDING, ATTEMPT.UNKNOWN, ATTEMPT.NEEDS_REVIEW, ATTEMPT.REJECTED] };
    case "created":
      // Stored, not (yet) in Shopify: being pushed, or a test label kept out of it (decision 0170).
      return { fulfillment: [...PUSHING_FULFILLMENT_STATUSES, FULFILLMENT.SKIPPED_TEST], voided: false };
    case "fulfilled":
      return { fulfillment: [FULFILLMENT.CREATED], voided: false };
    case "fulfillment_failed":
      return { fulfillment: [FULFILLMENT.FAILED], voided: false };
    case "voided":
      return { fulfillment: LABEL_FULFILLMENT_STATUSES, voided: true };
    case "needs_review":
      return { attempts: [ATTEMPT.NEEDS_REVIEW] };
    case "rejected":
      return { attempts: [ATTEMPT.REJECTED] };
    case "pending":
      return { attempts: [ATTEMPT.PENDING, ATTEMPT.UNKNOWN] };
  }
}

/** Shopify's `Order.displayFulfillmentStatus` values the app tells apart; anything else is "other". */
export const ORDER_FULFILLMENT_STATUSES = [
  "UNFULFILLED",
  "PARTIALLY_FULFILLED",
  "FULFILLED",
  "IN_PROGRESS",
  "ON_HOLD",
  "SCHEDULED",
] as const;
export type OrderFulfillmentStatus = (typeof ORDER_FULFILLMENT_STATUSES)[number] | "other";

export function orderFulfillmentStatus(value: string): OrderFulfillmentStatus {
  return ORDER_FULFILLMENT_STATUSES.find((status) => status === value) ?? "other";
}

/**
 * A stored attempt status. One this code does not know (a newer version wrote it) is read as UNKNOWN: an unsettled
 * purchase, which never offers to buy again, rather than a page that fails to load.
 */
export function attemptStatus(value: string): AttemptStatus {
  return ATTEMPT_STATUSES.find((status) => status === value) ?? "UNKNOWN";
}

/** A stored label's Shopify step. One this code does not know is read as PENDING (not yet pushed). */
export function labelFulfillmentStatus(value: string): LabelFulfillmentStatus {
  return LABEL_FULFILLMENT_STATUSES.find((status) => status === value) ?? "PENDING";
}

/** An order's label state as the merchant sees it. */
export const ORDER_LABEL_STATUSES = [
  "none",
  "not_shippable",
  "pending",
  "needs_review",
  "rejected",
  "fulfillment_failed",
  "created",
  "fulfilled",
  /** An order shipping from several locations with some of them labelled and another still to label (decision 0115). */
  "partly_labelled",
] as const;
export type OrderLabelStatus = (typeof ORDER_LABEL_STATUSES)[number];

export type BadgeTone = "success" | "critical" | "warning" | "info" | "attention" | undefined;

/**
 * What the page's purchase button would do: buy the first label, buy an explicit additional one, or nothing
 * (a purchase is in flight, or something the merchant cannot edit on the page blocks it).
 */
export type PurchaseKind = "first" | "additional" | "none";

/** The one thing the list offers for the order (the page opens on the matching section). */
export type PrimaryAction = "create" | "review" | "check" | "retryFulfillment" | "openLabel" | "view";

/** A reason a purchase cannot start, known before any call. `editable`: the merchant can fix it on the page. */
export interface Blocker {
  code: string;
  editable?: boolean;
}

export interface OrderLabelFacts {
  /** The order's attempts, oldest first. */
  attempts: readonly { status: AttemptStatus }[];
  /** The order's stored labels, oldest first (a void one is history: it neither counts nor blocks). */
  labels: readonly { fulfillmentStatus: LabelFulfillmentStatus; voidState?: LabelVoidState | null }[];
  /**
   * What blocks a first label, as far as the caller knows: the page passes the mapper's blocking problems, the list
   * what its row shows (no shipping address, nothing that ships as a parcel).
   */
  blockers: readonly Blocker[];
  /**
   * An order shipping from several locations (decision 0115): how many of its locations hold a live label, how many it
   * ships from, and how many still have something to ship and no label. Absent: the caller does not know (the page).
   */
  locations?: LocationProgress;
}

export interface LocationProgress {
  labelled: number;
  total: number;
  /** Locations with something left to ship and no live label. */
  toLabel: number;
}

export interface OrderLabelView {
  status: OrderLabelStatus;
  tone: BadgeTone;
  primaryAction: PrimaryAction;
  /** Whether the primary action is the emphasised (primary) button in the list. */
  emphasised: boolean;
  purchase: PurchaseKind;
  /** True when a purchase can be started now (`purchase !== "none"`). */
  canPurchase: boolean;
  /** "partly_labelled" only: how many of the order's locations are labelled, of how many (the badge's numbers). */
  progress?: { labelled: number; total: number };
}

/** Blockers that no longer matter once the order is labelled: an additional parcel covers the whole order. */
const IRRELEVANT_WHEN_LABELLED = new Set(["nothing_to_ship"]);

const TONES: Record<OrderLabelStatus, BadgeTone> = {
  none: undefined,
  not_shippable: undefined,
  pending: "info",
  needs_review: "warning",
  rejected: "attention",
  fulfillment_failed: "critical",
  created: "info",
  fulfilled: "success",
  partly_labelled: "attention",
};

/**
 * Derives the view. What needs the merchant wins: an unsettled purchase (needs review, then in flight), then a
 * Shopify step that failed, then the labels held; without a label, a refused last attempt is shown as such (nothing
 * was charged, the merchant may fix and buy), and a blocker that cannot be fixed on the page makes it "not shippable".
 */
export function deriveOrderLabelView(facts: OrderLabelFacts): OrderLabelView {
  const attempts = facts.attempts.map((attempt) => attempt.status);
  // A label being voided blocks a purchase (its slot is released only once the void is done), like a push.
  const voiding = facts.labels.some((label) => label.voidState === "VOIDING");
  const labels = facts.labels.filter(isLiveLabel);
  const hasLabel = labels.length > 0;
  const inFlight = attempts.some(isAttemptInFlight);
  const reviewing = attempts.some(needsReview);
  // A label still being pushed to Shopify: another label now would race its fulfillment.
  const pushing = voiding || labels.some((label) => isPushing(label.fulfillmentStatus));
  const relevant = facts.blockers.filter((blocker) => !(hasLabel && IRRELEVANT_WHEN_LABELLED.has(blocker.code)));
  const hardBlocked = relevant.some((blocker) => !blocker.editable);
  // Labelled at some of its locations, another still to label: its next label is that location's first (0115).
  const partly = hasLabel && facts.locations !== undefined && facts.locations.toLabel > 0;

  const purchase: PurchaseKind =
    inFlight || reviewing || pushing ? "none" : partly ? (hardBlocked ? "none" : "first") : hasLabel ? "additional" : hardBlocked ? "none" : "first";

  let status: OrderLabelStatus;
  let primaryAction: PrimaryAction;
  if (reviewing) {
    status = "needs_review";
    primaryAction = "review";
  } else if (inFlight) {
    status = "pending";
    primaryAction = "check";
  } else if (labels.some((label) => isFulfillmentFailed(label.fulfillmentStatus))) {
    status = "fulfillment_failed";
    primaryAction = "retryFulfillment";
  } else if (partly) {
    status = "partly_labelled";
    primaryAction = "create";
  } else if (hasLabel) {
    status = labels.every((label) => isFulfilled(label.fulfillmentStatus)) ? "fulfilled" : "created";
    primaryAction = "openLabel";
  } else if (hardBlocked) {
    status = "not_shippable";
    primaryAction = "view";
  } else {
    status = isAttemptRejected(attempts.at(-1) ?? "") ? "rejected" : "none";
    primaryAction = "create";
  }
  return {
    status,
    tone: TONES[status],
    primaryAction,
    emphasised: primaryAction === "create" && purchase === "first",
    purchase,
    canPurchase: purchase !== "none",
    ...(status === "partly_labelled" && facts.locations ? { progress: { labelled: facts.locations.labelled, total: facts.locations.total } } : {}),
  };
}

/** Which tab of the orders list an order's label status belongs to. */
export type LabelStatusGroup = "unlabelled" | "attention" | "labelled";

export function labelStatusGroup(status: OrderLabelStatus): LabelStatusGroup {
  switch (status) {
    case "none":
    case "not_shippable":
    case "rejected":
    case "partly_labelled":
      // Partly labelled: still to label at one of its locations, so it stays with the orders to label (0115).
      return "unlabelled";
    case "pending":
    case "needs_review":
    case "fulfillment_failed":
      return "attention";
    case "created":
    case "fulfilled":
      return "labelled";
  }
}

/** A line item that travels in a parcel: not a gift card (sent by e-mail) and flagged as needing shipping. */
export function shipsAsParcel(line: { requiresShipping: boolean; isGiftCard: boolean }): boolean {
  return line.requiresShipping && !line.isGiftCard;
}

/**
 * The blockers a row of the orders list can tell without mapping the order (the mapper reports the same ones on the
 * page): no shipping address, or no line item that ships as a parcel. `lineItemsComplete`: the row holds every line.
 */
export function rowBlockers(row: {
  hasShippingAddress: boolean;
  lineItems: readonly { requiresShipping: boolean; isGiftCard: boolean }[];
  lineItemsComplete: boolean;
}): Blocker[] {
  const blockers: Blocker[] = [];
  if (!row.hasShippingAddress) blockers.push({ code: "no_shipping_address" });
  if (row.lineItemsComplete && !row.lineItems.some(shipsAsParcel)) blockers.push({ code: "no_physical_items" });
  return blockers;
}

/**
 * The order page's facts: its stored attempts and labels and the mapper's blocking problems (an editable one, such as
 * a missing HS code typed on the page, does not block).
 */
export function pageLabelFacts(input: {
  attempts: readonly { status: string }[];
  labels: readonly { fulfillmentStatus: string; voidState?: string | null }[];
  problems: readonly { code: string; severity: string; editable: boolean }[];
}): OrderLabelFacts {
  return {
    attempts: input.attempts.map((attempt) => ({ status: attemptStatus(attempt.status) })),
    labels: input.labels.map((label) => ({ fulfillmentStatus: labelFulfillmentStatus(label.fulfillmentStatus), voidState: labelVoidState(label.voidState) })),
    blockers: input.problems
      .filter((problem) => problem.severity === "blocking")
      .map((problem) => ({ code: problem.code, editable: problem.editable })),
  };
}
