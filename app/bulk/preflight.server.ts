/**
 * The free check before a bulk job: every order of the selection read from Shopify and mapped with the job's
 * settings, the default service checked against the lookup for its destination, nothing bought. It answers which
 * orders are ready, blocked (grouped by cause), already labelled or unknown to this shop.
 *
 * The orders are read through `readOrdersForPreflight` only, so a bulk operation (no rate-limit points) can replace
 * the per-order reads later without touching the rest.
 */
import { labelsToBuy, settingsForLocation } from "../shipping/location-sender";
import { splitLocations } from "../labels/location-label.server";
import type { PrismaClient } from "../generated/prisma/client";
import type { LabelContext } from "../labels/label-order.server";
import { firstPerPath } from "../labels/order-edit-fields";
import { checkOrderEdits, contractProblems, previewAsEdits } from "../labels/order-edits.server";
import { openFulfillmentOrderId, orderGid, PREVIEW_REFERENCE } from "../labels/order-label.server";
import { orderSlot } from "../labels/purchase.server";
import { mapOrderToLabelRequest, type OfferedService, type Problem, type ServiceChoice } from "../shipping";
import { senderSchema, type ShippingSettings } from "../shipping/settings";
import type { AdminGraphqlClient } from "../shopify/admin-client";
import { fetchOrderForLabel, type OrderForLabel } from "../shopify/operations/order-for-label";
import { readOrdersForLabel } from "../shopify/operations/orders-bulk";
import { keepPreflightRead, takePreflightRead } from "./order-draft.server";
import { blockedReason, causeKey, locationReason, type Reason } from "./reasons";
import { BULK_JOB_MAX_ORDERS, type BulkPreflight } from "./types";
import { TimeSlices } from "../event-loop";

const ORDER_GID = /^gid:\/\/shopify\/Order\/[0-9]{1,20}$/;

/** From this many orders on, the preflight reads them with a bulk operation instead of one query each. */
export const BULK_READ_FROM = 10;

/** A selection the job refuses as a whole: empty, too large, unknown orders, a production charge not confirmed. */
export class BulkSelectionError extends Error {
  constructor(
    readonly code: "empty" | "too_many" | "unknown_orders" | "confirmation_required",
    readonly params: Record<string, string>,
    readonly messages: { en: string; fr: string },
  ) {
    super(messages.en);
    this.name = "BulkSelectionError";
  }
}

/** The ids as Order GIDs (a bare number is accepted), duplicates removed in the order given. */
export function normaliseOrderIds(orderIds: readonly string[]): string[] {
  return [...new Set(orderIds.map((id) => orderGid(id.trim())))];
}

export function checkSelectionSize(ids: readonly string[]): void {
  if (ids.length === 0) {
    throw new BulkSelectionError("empty", {}, {
      en: "No orders were selected. Tick the orders to label on Orders to ship, then click Create labels.",
      fr: "Aucune commande n'est sélectionnée. Cochez les commandes à étiqueter dans « Commandes à expédier », puis cliquez sur « Créer les étiquettes ».",
    });
  }
  if (ids.length > BULK_JOB_MAX_ORDERS) {
    const params = { count: String(ids.length), max: String(BULK_JOB_MAX_ORDERS) };
    throw new BulkSelectionError("too_many", params, {
      en: `${ids.length} orders were selected; one job takes at most ${BULK_JOB_MAX_ORDERS}. Narrow the search or select fewer orders, and start a second job for the rest.`,
      fr: `${ids.length} commandes sont sélectionnées ; une tâche en accepte au plus ${BULK_JOB_MAX_ORDERS}. Affinez la recherche ou sélectionnez moins de commandes, puis lancez une seconde tâche pour le reste.`,
    });
  }
}

/** How many orders are read from Shopify at once (the shop's budget paces them anyway). */
const READ_CONCURRENCY = 4;

/**
 * The orders as the label flow reads them, by id; null for an id Shopify does not know in this shop. Batched
 * (READ_CONCURRENCY at a time); a Shopify error other than "not found" is thrown (nothing is bought here).
 */
export async function readOrdersForPreflight(
  admin: AdminGraphqlClient,
  ids: readonly string[],
  onOrders?: (orders: readonly OrderForLabel[]) => void,
): Promise<Map<string, OrderForLabel | null>> {
  const found = new Map<string, OrderForLabel | null>();
  const valid = ids.filter((id) => ORDER_GID.test(id));
  for (const id of ids) if (!ORDER_GID.test(id)) found.set(id, null);
  // Many orders: one bulk operation pair reads them all for almost no rate-limit points (decision 0181); a few: read
  // directly, which answers sooner than a bulk operation's round trips.
  if (valid.length >= BULK_READ_FROM) {
    const read = await readOrdersForLabel(admin, valid, { onOrders });
    for (const id of valid) found.set(id, read.get(id) ?? null);
    return found;
  }
  let next = 0;
  async function worker() {
    while (next < valid.length) {
      const id = valid[next++]!;
      const order = await fetchOrderForLabel(admin, id);
      found.set(id, order);
      if (order) onOrders?.([order]);
    }
  }
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, valid.length) }, worker));
  return found;
}

/** What a purchase of this order would refuse before buying (as the order page shows it). */
export function orderProblems(order: OrderForLabel, settings: ShippingSettings, offeredServices: readonly OfferedService[] | undefined): Problem[] {
  return orderCheck(order, settings, offeredServices).problems;
}

/** The order's problems, and who chose its carrier service (a shipping rule or the zone's default). */
export function orderCheck(
  order: OrderForLabel,
  settings: ShippingSettings,
  offeredServices: readonly OfferedService[] | undefined,
  fulfillmentOrderId: string | undefined = openFulfillmentOrderId(order),
): { problems: Problem[]; serviceChoice?: ServiceChoice } {
  const mapped = mapOrderToLabelRequest({
    order,
    settings,
    fulfillmentOrderId,
    customReference: PREVIEW_REFERENCE,
    offeredServices,
  });
  const customsRequired = mapped.draft?.customsRequired ?? true;
  const blocking = firstPerPath([
    ...mapped.problems.filter((problem) => problem.severity === "blocking"),
    ...(mapped.preview ? checkOrderEdits(mapped.preview, previewAsEdits(mapped.preview, { customsRequired }), order.name) : []),
  ]);
  const serviceChoice = mapped.draft?.serviceChoice;
  if (blocking.length > 0) return { problems: blocking, serviceChoice };
  if (!mapped.preview) {
    return { serviceChoice, problems: [{ code: "order_unmappable", path: "order", orderName: order.name, severity: "blocking", message: { en: "This order could not be turned into a label request.", fr: "Cette commande n'a pas pu être convertie en demande d'étiquette." }, fix: { en: "Open the order to see what is missing.", fr: "Ouvrez la commande pour voir ce qui manque." } }] };
  }
  return { problems: contractProblems(mapped.preview, order.name), serviceChoice };
}

/** The orders of `ids` whose first label slot is taken: labelled (with the label), or a purchase still open. */
export async function slotsTaken(db: PrismaClient, shop: string, ids: readonly string[]) {
  const attempts = await db.purchaseAttempt.findMany({
    where: { shop, orderSlot: { in: ids.map((id) => orderSlot(shop, id, 1)) } },
    include: { label: true },
  });
  return new Map(attempts.map((attempt) => [attempt.orderId, attempt]));
}

/**
 * What the preflight checks of one order. An order shipping from several locations is one label per location still to
 * ship (decision 0115): each such location's parcel is mapped as `labelOrder` will map it (its first open fulfillment
 * order, its sender), and the first location that blocks is the order's reason, naming the location. A location
 * whose slot is held already (labelled, or a purchase under way) is not checked again. Any other order: as before.
 */
export function checkOrder(
  order: OrderForLabel,
  settings: ShippingSettings,
  offeredServices: readonly OfferedService[] | undefined,
  heldSlot: (location: string) => boolean,
): { reason?: Reason; serviceChoice?: ServiceChoice } {
  const locations = splitLocations(order);
  if (!locations) {
    const { problems, serviceChoice } = orderCheck(order, settings, offeredServices);
    return problems.length > 0 ? { reason: blockedReason(problems), serviceChoice } : { serviceChoice };
  }
  let serviceChoice: ServiceChoice | undefined;
  for (const location of locations) {
    const fulfillmentOrderId = location.openFulfillmentOrderIds[0];
    if (!location.locationId || !fulfillmentOrderId || heldSlot(location.locationId)) continue;
    const located = settingsForLocation(settings, location.locationId);
    // The sender this parcel carries, checked as Settings check it: a missing street address is said as such.
    const sender = senderSchema.safeParse(located.sender);
    if (!sender.success) {
      const fields = [...new Set(sender.error.issues.map((issue) => String(issue.path[0] ?? "")))].filter(Boolean).join(",");
      return { reason: { code: "location_sender_incomplete", params: { location: location.locationName, fields } }, serviceChoice };
    }
    const checked = orderCheck(order, located, offeredServices, fulfillmentOrderId);
    serviceChoice ??= checked.serviceChoice;
    if (checked.problems.length > 0) return { reason: locationReason(blockedReason(checked.problems), location.locationName), serviceChoice: checked.serviceChoice };
  }
  return { serviceChoice };
}

/**
 * Sender per location (decision 0115), from one read of these orders' location slots (first labels) still held (a
 * void label freed its slot; its location stays on the attempt and counts for nothing):
 *  - `held`: every such slot, labelled or with a purchase under way;
 *  - `labels`: the first label of each order labelled per location.
 */
export async function locationSlots(db: PrismaClient, shop: string, ids: readonly string[]) {
  const attempts = await db.purchaseAttempt.findMany({
    where: { shop, orderId: { in: [...ids] }, labelIndex: 1, locationId: { not: null }, orderSlot: { not: null } },
    include: { label: true },
    orderBy: { createdAt: "asc" },
  });
  const held = new Set(attempts.flatMap((attempt) => (attempt.orderSlot ? [attempt.orderSlot] : [])));
  const labels = new Map<string, NonNullable<(typeof attempts)[number]["label"]>>();
  for (const attempt of attempts) if (attempt.labelId && attempt.label && !labels.has(attempt.orderId)) labels.set(attempt.orderId, attempt.label);
  return { held, labels };
}

export interface PreflightResult extends BulkPreflight {
  /** The order read for each known id (the job keeps names and positions from it). */
  orders: Map<string, OrderForLabel>;
  /** The label of each already-labelled order: its id and tracking number. */
  labelled: Map<string, { labelId: string; trackingNumber: string }>;
  /** When the read of `orders` started (a job's items label from it while fresh, decision 0184). */
  readAt: Date;
}

export interface PreflightOptions {
  /** Keep the read a few minutes for the job that may start from this preflight (the page, the API; decision 0184). */
  keepRead?: boolean;
  /** Use a kept read of these very orders when there is a fresh one (the job's creation), instead of reading again. */
  reuseRead?: boolean;
}

/**
 * The check itself: free, nothing is bought (the read may be kept, sealed, see PreflightOptions). Throws
 * BulkSelectionError for an empty or oversized selection.
 */
export async function runPreflight(ctx: LabelContext, orderIds: readonly string[], options: PreflightOptions = {}): Promise<PreflightResult> {
  const ids = normaliseOrderIds(orderIds);
  checkSelectionSize(ids);
  // The service (its sign-in) and its lookups of what it sells to each destination start with the read, not after it:
  // at the sandbox's 300-800 ms they took 2-3 s of a 500-order preflight once every order was read.
  const connecting = ctx.service().then(
    (service) => ({ service, error: undefined }),
    (error: unknown) => ({ service: undefined, error: (error as { code?: string }).code ?? "unavailable" }),
  );
  const lookups = new Map<string, Promise<OfferedService[] | undefined>>();
  const offeredFor = (country: string | undefined) => {
    const code = country?.trim().toUpperCase();
    if (!code) return Promise.resolve(undefined);
    if (!lookups.has(code)) {
      lookups.set(
        code,
        connecting.then(({ service }) => (service?.carrierServices ? service.carrierServices(code).catch(() => undefined) : undefined)),
      );
    }
    return lookups.get(code)!;
  };
  // Every destination's lookup starts as soon as its orders are read (the client keeps at most its concurrency in
  // flight): awaited one by one in the loop below, eleven countries took 6 s of a job's start.
  const lookUp = (orders: Iterable<OrderForLabel | null>) => {
    for (const order of orders) if (order) void offeredFor(order.shippingAddress?.countryCodeV2 ?? undefined);
  };

  const kept = options.reuseRead && ids.every((id) => ORDER_GID.test(id)) ? await takePreflightRead(ctx.db, ctx.shop, ids, new Date()) : null;
  const readAt = kept?.readAt ?? new Date();
  const read = kept ? Promise.resolve(new Map<string, OrderForLabel | null>(kept.orders)) : readOrdersForPreflight(ctx.admin, ids, lookUp);
  const [orders, taken, { held: heldSlots, labels: perLocation }] = await Promise.all([read, slotsTaken(ctx.db, ctx.shop, ids), locationSlots(ctx.db, ctx.shop, ids)]);
  // A fresh read reported its orders as it went; a kept one starts its lookups now.
  if (kept) lookUp(orders.values());
  if (options.keepRead) {
    const known = new Map([...orders].filter((entry): entry is [string, OrderForLabel] => entry[1] !== null));
    // Only a saving: a failure to keep it means the job reads the orders again.
    await keepPreflightRead(ctx.db, ctx.shop, known, readAt).catch(() => undefined);
  }
  const { error: serviceError } = await connecting;

  const result: PreflightResult = {
    environment: ctx.environment,
    ready: [],
    alreadyLabelled: [],
    blocked: [],
    unknown: [],
    groups: [],
    chargedLabels: 0,
    orders: new Map(),
    labelled: new Map(),
    readAt,
  };
  // Checking 500 orders is about a second of CPU: the process keeps answering its other requests meanwhile.
  const slices = new TimeSlices();
  for (const id of ids) {
    await slices.pace();
    const order = orders.get(id);
    if (!order) {
      result.unknown.push(id);
      continue;
    }
    result.orders.set(id, order);
    const entry = { orderId: id, orderName: order.name };
    const attempt = taken.get(id);
    if (attempt?.label) {
      result.alreadyLabelled.push(entry);
      result.labelled.set(id, { labelId: attempt.label.id, trackingNumber: attempt.label.trackingNumber });
      continue;
    }
    if (attempt) {
      result.blocked.push({ ...entry, reasons: [{ code: "purchase_in_progress", params: { reference: attempt.customReference } }] });
      continue;
    }
    // An order labelled per location with nothing left to ship anywhere: already labelled (its first label named).
    const located = perLocation.get(id);
    if (located && labelsToBuy(order) === 0) {
      result.alreadyLabelled.push(entry);
      result.labelled.set(id, { labelId: located.id, trackingNumber: located.trackingNumber });
      continue;
    }
    const offered = await offeredFor(order.shippingAddress?.countryCodeV2 ?? undefined);
    const { reason, serviceChoice } = checkOrder(order, ctx.settings, offered, (location) => heldSlots.has(orderSlot(ctx.shop, id, 1, location)));
    const checked = serviceChoice ? { ...entry, serviceChoice } : entry;
    if (reason) {
      result.blocked.push({ ...checked, reasons: [reason] });
    } else if (serviceError) {
      result.blocked.push({ ...checked, reasons: [{ code: "service_unavailable", params: { environment: ctx.environment, cause: serviceError } }] });
    } else {
      result.ready.push(checked);
    }
  }
  result.groups = groupByCause(result.blocked);
  // An order shipping from several locations is one charged label per location (decision 0115).
  result.chargedLabels = ctx.environment === "production" ? result.ready.reduce((sum, entry) => sum + labelsToBuy(result.orders.get(entry.orderId)!), 0) : 0;
  return result;
}

/** Blocked orders grouped by their first reason's cause, the largest group first. */
export function groupByCause(blocked: BulkPreflight["blocked"]): BulkPreflight["groups"] {
  const groups = new Map<string, { reason: Reason; orderCount: number; orderNames: string[] }>();
  for (const order of blocked) {
    const reason = order.reasons[0];
    if (!reason) continue;
    const key = causeKey(reason);
    const group = groups.get(key) ?? { reason, orderCount: 0, orderNames: [] };
    group.orderCount += 1;
    group.orderNames.push(order.orderName);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => b.orderCount - a.orderCount);
}

/** The public shape (no orders or labels maps): what the API and the page get. */
export function preflightView(result: PreflightResult): BulkPreflight {
  const { orders: _orders, labelled: _labelled, readAt: _readAt, ...view } = result;
  return view;
}

/** `preflightBulkJob(ctx, orderIds)`: the free check, as the API and the page show it. */
export async function preflightBulkJob(ctx: LabelContext, orderIds: readonly string[]): Promise<BulkPreflight> {
  return preflightView(await runPreflight(ctx, orderIds, { keepRead: true }));
}
