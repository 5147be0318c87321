/**
 * The fault campaign's verdict, as pure functions: given what the label sandbox charged, what the app's database
 * holds, what the Shopify emulator recorded and what the campaign's merchant saw, count duplicates, lost orders and
 * how each attempted order ended. No I/O here, so the counting itself is tested (count.test.ts).
 */

/** A label the sandbox stored, i.e. charged (GET /__admin/labels). */
export interface PaidLabel {
  id: string;
  customReference: string;
}

/** A PurchaseAttempt row (only what the verdict reads). */
export interface AttemptRow {
  id: string;
  orderId: string;
  labelIndex: number;
  customReference: string;
  /** PENDING | CREATED | REJECTED | UNKNOWN | NEEDS_REVIEW */
  status: string;
  labelId: string | null;
  /** The location the attempt's label is for: an order shipping from two locations has a slot per location (decision 0115); null otherwise. */
  locationId?: string | null;
  /** The slot the attempt holds ("<shop>|<order>|<n>[|<location>]"), null once given back. */
  orderSlot?: string | null;
}

/** A Label row (only what the verdict reads). */
export interface LabelRow {
  id: string;
  orderId: string;
  serviceLabelId: string;
  trackingNumber: string;
  /** PENDING | IN_PROGRESS | CREATED | FAILED */
  fulfillmentStatus: string;
}

/** One order as the Shopify emulator reports it (GET /__admin/orders/<id>). */
export interface ShopifyOrder {
  orderId: string;
  fulfillments: { id: string; status: string; trackingNumbers: string[] }[];
  notifications: { fulfillmentId: string; trackingNumbers: string[] }[];
}

/** What the campaign's merchant last saw for an order, when it was a definite answer. */
export type MerchantAnswer = "labelled" | "problems" | "rejected" | "pending" | "review" | "in_progress";

/** A BulkJobItem row (only what the verdict reads). */
export interface BulkItemRow {
  jobId: string;
  orderId: string;
  /** QUEUED | RUNNING | LABELLED | BLOCKED | REFUSED | PENDING | CANCELLED */
  status: string;
  reasonJson: string | null;
  labelId: string | null;
  alreadyLabelled: boolean;
}

/** What the bulk phase did: the orders it selected, every item of the shop's jobs, the jobs over labelled orders. */
export interface BulkEvidence {
  orders: string[];
  /** Selected orders whose job creation failed on every click (the merchant saw errors; nothing was started). */
  notStarted: string[];
  items: BulkItemRow[];
  /** The jobs started over orders already labelled, and those orders. */
  againJobIds: string[];
  againOrders: string[];
}

/** `review`: pending on an attempt in review, which waits for the merchant's "No label was bought", not for the app. */
export type BulkEnd = "labelled" | "blocked" | "refused" | "pending" | "review" | "notStarted" | "lost";

export interface CampaignEvidence {
  /** Order GIDs the campaign clicked Create label on. */
  attempted: string[];
  paidLabels: PaidLabel[];
  attempts: AttemptRow[];
  labels: LabelRow[];
  shopify: ShopifyOrder[];
  /** Fulfillment ids that existed before the campaign (the seed's own), never counted. */
  preexistingFulfillments: string[];
  /** The last definite answer per order GID (a refusal with problems leaves no row in the database). */
  answers: Record<string, MerchantAnswer | undefined>;
  /** The bulk phase, when it ran. */
  bulk?: BulkEvidence;
}

export type OrderEnd = "labelled" | "refused" | "review" | "pending" | "lost";

export interface Verdict {
  attempted: number;
  /** Must be 0: more than one paid label for one order slot (order + label number the merchant asked for). */
  duplicateLabels: number;
  /** Must be 0: paid labels whose reference no attempt of the app holds (money spent without a record). */
  orphanPaidLabels: number;
  /** Must be 0: a paid label behind an attempt the app recorded as refused (its slot was given back). */
  paidButRefused: number;
  /** Must be 0: attempted orders that ended neither labelled, refused with a reason, in review nor pending. */
  lostOrders: number;
  /** Must be 0: more than one live fulfillment in Shopify for one tracking number. */
  duplicateFulfillments: number;
  /** Must be 0: more than one customer notification for one tracking number (the newest number it names). */
  duplicateNotifications: number;
  /** Must be 0: an item of a job over orders already labelled that is not reported LABELLED, already labelled. */
  alreadyLabelledNotReported: number;
  /** How the bulk phase's orders ended (lost ones are also in lostOrders). */
  bulkEnds: Record<BulkEnd, number>;
  /** Labels the sandbox charged for the bulk phase's orders. */
  bulkPurchases: number;
  ends: Record<OrderEnd, number>;
  /** Labelled orders whose fulfillment is not (yet) in Shopify. */
  labelledNotFulfilled: number;
  /** Paid labels the app has not stored (the orders are in review or still being reconciled). */
  paidNotStored: number;
  /** Their orders, with the status of the attempt that bought them. */
  paidNotStoredOrders: string[];
  /** Order GIDs behind each must-be-zero count, for the report. */
  details: Record<MustBeZero, string[]>;
}

export const MUST_BE_ZERO = [
  "duplicateLabels",
  "orphanPaidLabels",
  "paidButRefused",
  "lostOrders",
  "duplicateFulfillments",
  "duplicateNotifications",
  "alreadyLabelledNotReported",
] as const;
export type MustBeZero = (typeof MUST_BE_ZERO)[number];

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

function countBy<T>(items: T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

/** Σ (n - 1) over the groups holding more than one item, and the groups' keys. */
function excess(counts: Map<string, number>): { total: number; keys: string[] } {
  let total = 0;
  const keys: string[] = [];
  for (const [key, n] of counts) {
    if (n > 1) {
      total += n - 1;
      keys.push(key);
    }
  }
  return { total, keys };
}

function hasReason(item: BulkItemRow): boolean {
  try {
    const reason = JSON.parse(item.reasonJson ?? "null") as { code?: unknown } | null;
    return typeof reason?.code === "string" && reason.code.length > 0;
  } catch {
    return false;
  }
}

/** What an order selected again was reported as, and what the database holds for it: enough to find the cause. */
function notReportedWhy(items: readonly BulkItemRow[], attempts: readonly AttemptRow[], labels: readonly LabelRow[]): string {
  const reasonCode = (json: string | null) => {
    try {
      return json ? String((JSON.parse(json) as { code?: unknown }).code) : "";
    } catch {
      return "?";
    }
  };
  const reported = items.length === 0 ? "no item" : items.map((item) => `${item.status}${item.alreadyLabelled ? " already" : ""}${item.reasonJson ? ` ${reasonCode(item.reasonJson)}` : ""}`).join(", ");
  const slot = (attempt: AttemptRow) => (attempt.orderSlot === undefined ? "" : attempt.orderSlot === null ? " no slot" : ` slot ${attempt.orderSlot.split("|").slice(2).join("|")}`);
  const held = attempts.map((attempt) => `${attempt.status}${attempt.labelId ? ` ${attempt.labelId}` : ""}${slot(attempt)}`).join(", ");
  return `items: ${reported}; attempts: ${held || "none"}; labels: ${labels.map((label) => label.id).join(", ") || "none"}`;
}

/**
 * How one order of the bulk phase ended, from its items in every job of the first round (jobs over orders already
 * labelled excluded) and the labels stored for it. Lost: no item (while a job was started for it), an item still
 * queued or running after the settle, an item that says labelled with no label stored (or the reverse: a label while
 * no item says labelled or pending), or a failure without a reason.
 */
export function bulkOrderEnd(items: BulkItemRow[], labels: LabelRow[], notStarted: boolean, attempts: readonly Pick<AttemptRow, "status">[] = []): BulkEnd {
  if (items.length === 0) return notStarted ? "notStarted" : "lost";
  const labelIds = new Set(labels.map((label) => label.id));
  if (labels.length > 0) {
    const reported = items.some((item) => (item.status === "LABELLED" && item.labelId !== null && labelIds.has(item.labelId)) || item.status === "PENDING");
    return reported ? "labelled" : "lost";
  }
  if (items.some((item) => item.status === "LABELLED" || item.status === "QUEUED" || item.status === "RUNNING")) return "lost";
  if (items.some((item) => item.status === "PENDING")) return attempts.some((attempt) => attempt.status === "NEEDS_REVIEW") ? "review" : "pending";
  if (items.some((item) => item.status === "BLOCKED" && hasReason(item))) return "blocked";
  if (items.some((item) => item.status === "REFUSED" && hasReason(item))) return "refused";
  return "lost";
}

/** How one attempted order ended, from its rows and the merchant's last definite answer. */
export function orderEnd(
  attempts: AttemptRow[],
  labels: LabelRow[],
  answer: MerchantAnswer | undefined,
): OrderEnd {
  if (labels.length > 0) return "labelled";
  if (attempts.some((attempt) => attempt.status === "NEEDS_REVIEW")) return "review";
  if (attempts.some((attempt) => attempt.status === "UNKNOWN" || attempt.status === "PENDING")) return "pending";
  // Every attempt refused (slot released, the reason stored), or refused before buying (the mapper's problems).
  if (attempts.length > 0 && attempts.every((attempt) => attempt.status === "REJECTED")) return "refused";
  if (attempts.length === 0 && answer === "problems") return "refused";
  return "lost";
}

export function countCampaign(evidence: CampaignEvidence): Verdict {
  const attemptByReference = new Map(evidence.attempts.map((attempt) => [attempt.customReference, attempt]));

  // Paid labels per order slot. A slot is (order, label number, and the location for an order shipping from two); a
  // second paid label in one slot was not asked for.
  const orphans: PaidLabel[] = [];
  const bySlot = new Map<string, number>();
  const slotOrder = new Map<string, string>();
  const paidButRefused: string[] = [];
  const storedServiceIds = new Set(evidence.labels.map((label) => label.serviceLabelId));
  const paidNotStoredOrders: string[] = [];
  for (const paid of evidence.paidLabels) {
    const attempt = attemptByReference.get(paid.customReference);
    if (!attempt) {
      orphans.push(paid);
      continue;
    }
    const slot = `${attempt.orderId}|${attempt.labelIndex}|${attempt.locationId ?? ""}`;
    bySlot.set(slot, (bySlot.get(slot) ?? 0) + 1);
    slotOrder.set(slot, attempt.orderId);
    if (attempt.status === "REJECTED") paidButRefused.push(attempt.orderId);
    if (!storedServiceIds.has(paid.id)) paidNotStoredOrders.push(`${attempt.orderId} (attempt ${attempt.id} ${attempt.status})`);
  }
  const duplicates = excess(bySlot);

  // Live fulfillments and notifications per tracking number (each label has its own tracking number).
  const preexisting = new Set(evidence.preexistingFulfillments);
  const fulfillmentKeys: { key: string; orderId: string }[] = [];
  const notificationKeys: { key: string; orderId: string }[] = [];
  for (const order of evidence.shopify) {
    for (const fulfillment of order.fulfillments) {
      if (preexisting.has(fulfillment.id) || fulfillment.status === "CANCELLED") continue;
      for (const number of fulfillment.trackingNumbers) fulfillmentKeys.push({ key: `${order.orderId}|${number}`, orderId: order.orderId });
    }
    for (const notification of order.notifications) {
      if (preexisting.has(notification.fulfillmentId)) continue;
      // A notification is about the newest number it names: a tracking update for an additional parcel lists the
      // fulfillment's earlier numbers too, and is not a second notice for those.
      const newest = notification.trackingNumbers.at(-1);
      if (newest) notificationKeys.push({ key: `${order.orderId}|${newest}`, orderId: order.orderId });
    }
  }
  const fulfillmentDuplicates = excess(countBy(fulfillmentKeys, (item) => item.key));
  const notificationDuplicates = excess(countBy(notificationKeys, (item) => item.key));

  const ends: Record<OrderEnd, number> = { labelled: 0, refused: 0, review: 0, pending: 0, lost: 0 };
  const lost: string[] = [];
  let labelledNotFulfilled = 0;
  const attemptsByOrder = groupBy(evidence.attempts, (attempt) => attempt.orderId);
  const labelsByOrder = groupBy(evidence.labels, (label) => label.orderId);
  for (const orderId of new Set(evidence.attempted)) {
    const labels = labelsByOrder.get(orderId) ?? [];
    const end = orderEnd(attemptsByOrder.get(orderId) ?? [], labels, evidence.answers[orderId]);
    ends[end] += 1;
    if (end === "lost") lost.push(orderId);
    if (end === "labelled" && labels.some((label) => label.fulfillmentStatus !== "CREATED")) labelledNotFulfilled += 1;
  }

  // The bulk phase: each selected order's end, its purchases, and the orders already labelled selected again.
  const bulkEnds: Record<BulkEnd, number> = { labelled: 0, blocked: 0, refused: 0, pending: 0, review: 0, notStarted: 0, lost: 0 };
  let bulkPurchases = 0;
  const notReported: string[] = [];
  if (evidence.bulk) {
    const bulk = evidence.bulk;
    const again = new Set(bulk.againJobIds);
    const itemsByOrder = groupBy(
      bulk.items.filter((item) => !again.has(item.jobId)),
      (item) => item.orderId,
    );
    const notStarted = new Set(bulk.notStarted);
    for (const orderId of new Set(bulk.orders)) {
      const end = bulkOrderEnd(itemsByOrder.get(orderId) ?? [], labelsByOrder.get(orderId) ?? [], notStarted.has(orderId), attemptsByOrder.get(orderId));
      bulkEnds[end] += 1;
      if (end === "lost") lost.push(orderId);
    }
    const bulkOrders = new Set(bulk.orders);
    for (const paid of evidence.paidLabels) {
      const attempt = attemptByReference.get(paid.customReference);
      if (attempt && bulkOrders.has(attempt.orderId)) bulkPurchases += 1;
    }
    const againItems = bulk.items.filter((item) => again.has(item.jobId));
    for (const orderId of bulk.againOrders) {
      const items = againItems.filter((item) => item.orderId === orderId);
      if (items.length === 0 || items.some((item) => item.status !== "LABELLED" || !item.alreadyLabelled)) {
        notReported.push(`${orderId} (${notReportedWhy(items, attemptsByOrder.get(orderId) ?? [], labelsByOrder.get(orderId) ?? [])})`);
      }
    }
  }

  const orderOf = (key: string) => key.split("|")[0]!;
  return {
    attempted: new Set(evidence.attempted).size,
    duplicateLabels: duplicates.total,
    orphanPaidLabels: orphans.length,
    paidButRefused: paidButRefused.length,
    lostOrders: lost.length,
    duplicateFulfillments: fulfillmentDuplicates.total,
    duplicateNotifications: notificationDuplicates.total,
    alreadyLabelledNotReported: notReported.length,
    bulkEnds,
    bulkPurchases,
    ends,
    labelledNotFulfilled,
    paidNotStored: paidNotStoredOrders.length,
    paidNotStoredOrders,
    details: {
      duplicateLabels: duplicates.keys.map((slot) => slotOrder.get(slot) ?? slot),
      orphanPaidLabels: orphans.map((paid) => `reference ${paid.customReference} (label ${paid.id})`),
      paidButRefused,
      lostOrders: lost,
      duplicateFulfillments: fulfillmentDuplicates.keys.map(orderOf),
      duplicateNotifications: notificationDuplicates.keys.map(orderOf),
      alreadyLabelledNotReported: notReported,
    },
  };
}

/**
 * Whether an order is labelled in full, so that selecting it again must report "already labelled" and buy nothing:
 * every place it ships from (`shipsFrom`, from the seed's lines) has a stored label, and no attempt of it still waits
 * for an answer or a merchant's review. An order labelled at one of its two locations, or with a purchase still open,
 * is not: a job over it rightly buys the missing label or says a purchase is in progress.
 */
export function labelledInFull(attempts: readonly Pick<AttemptRow, "status" | "labelId" | "locationId">[], shipsFrom: number): boolean {
  if (attempts.some((attempt) => attempt.status !== "CREATED" && attempt.status !== "REJECTED")) return false;
  const places = new Set(attempts.filter((attempt) => attempt.status === "CREATED" && attempt.labelId).map((attempt) => attempt.locationId ?? ""));
  return places.size > 0 && places.size >= shipsFrom;
}

/** The must-be-zero counts that are not 0, as "name=count". */
export function failures(verdict: Verdict): string[] {
  return MUST_BE_ZERO.filter((name) => verdict[name] !== 0).map((name) => `${name}=${verdict[name]}`);
}
