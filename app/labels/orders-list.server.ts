/**
 * The orders list: a page of Shopify orders with each order's label view (./status), narrowed by the merchant's
 * search (Shopify's own search), by label status (a tab) and by destination zone.
 * Label status and zone are not Shopify search fields, so when one is set the list reads Shopify's pages in order and
 * keeps the matching orders, up to a page of results or a bounded number of Shopify pages (then it says how far it
 * read and offers to continue). Labelled orders may be fulfilled already: that tab asks Shopify for any order from the
 * shop's oldest labelled one on. Always scoped by the session's shop.
 */
import { z } from "zod";
import type { PrismaClient } from "../generated/prisma/client";
import { destinationZone, type DestinationZone } from "../shipping/customs";
import type { AdminGraphqlClient } from "../shopify/admin-client";
import {
  fetchOrderRowLines,
  fetchOrderRowLocations,
  fetchOrdersPage,
  ordersSearch,
  ORDERS_PAGE_SIZE,
  type OrderRowLines,
  type OrderToShip,
  type RowFulfillmentOrder,
} from "../shopify/operations/orders-to-ship";
import { loadShippingSettings } from "../settings/shipping-settings.server";
import { labelFactsByOrder, type OrderRowLabelFacts } from "./order-status.server";
import {
  deriveOrderLabelView,
  labelStatusGroup,
  orderFulfillmentStatus,
  rowBlockers,
  type LocationProgress,
  type OrderFulfillmentStatus,
  type OrderLabelView,
} from "./status";

import { LIST_TABS, ZONES } from "./orders-list";

export { LIST_TABS, ZONES, type ListTab } from "./orders-list";

/** The list's URL parameters, parsed leniently (a bad value falls back to the default, never an error page). */
export const listParamsSchema = z.object({
  q: z.string().max(200).optional().catch(undefined),
  tab: z.enum(LIST_TABS).default("all").catch("all"),
  zone: z
    .string()
    .optional()
    .catch(undefined)
    .transform((value) => ZONES.filter((zone) => (value ?? "").split(",").includes(zone))),
  after: z.string().max(500).optional().catch(undefined),
  before: z.string().max(500).optional().catch(undefined),
});
export type ListParams = z.infer<typeof listParamsSchema>;

export interface OrdersListRow {
  id: string;
  name: string;
  createdAt: string;
  recipient: string | null;
  city: string | null;
  country: string | null;
  zone: DestinationZone | null;
  weightGrams: number | null;
  fulfillment: OrderFulfillmentStatus;
  view: OrderLabelView;
  labelUrl: string | null;
}

export interface OrdersList {
  rows: OrdersListRow[];
  /** Cursors for the next and previous pages, when there are some. */
  next: string | null;
  previous: string | null;
  /** Shopify orders read to build this page (more than the rows when a filter is set). */
  scanned: number;
  /** The read stopped at its bound before a full page was found: more matches may follow. */
  partial: boolean;
}

/** Shopify pages read per list page when a filter Shopify cannot apply is set, and their size. */
export const SCAN_PAGES = 4;
export const SCAN_PAGE_SIZE = 50;

export async function loadOrdersList(
  deps: { db: PrismaClient; admin: AdminGraphqlClient },
  shop: string,
  params: ListParams,
): Promise<OrdersList> {
  const { db, admin } = deps;
  const filtered = params.tab !== "all" || params.zone.length > 0;
  let minId: string | undefined;
  if (params.tab === "labelled") {
    const oldest = await db.label.findMany({ where: { shop }, select: { orderId: true } });
    const ids = oldest.map((label) => Number(label.orderId.split("/").pop())).filter(Number.isFinite);
    if (ids.length === 0) return { rows: [], next: null, previous: null, scanned: 0, partial: false };
    minId = String(Math.min(...ids));
  }
  const query = ordersSearch({ text: params.q, scope: params.tab === "labelled" ? "any" : "to_ship", minId });
  const { sender } = await loadShippingSettings(db, shop);
  const origin = { country: sender.countryCode, zip: sender.zip };
  const backward = Boolean(params.before);
  const pageSize = filtered ? SCAN_PAGE_SIZE : ORDERS_PAGE_SIZE;
  const maxPages = filtered ? SCAN_PAGES : 1;

  const kept: { cursor: string; node: OrderToShip; facts: OrderRowLabelFacts | undefined; row: OrdersListRow }[] = [];
  let cursor = params.before ?? params.after;
  let more = false;
  let scanned = 0;
  let partial = false;
  let resumeAt: string | undefined;
  outer: for (let read = 0; read < maxPages; read += 1) {
    const page = await fetchOrdersPage(admin, { query, pageSize, ...(backward ? { before: cursor } : { after: cursor }) });
    const edges = backward ? [...page.edges].reverse() : page.edges;
    const facts = await withLocations(admin, await labelFactsByOrder(db, shop, edges.map((edge) => edge.node.id)));
    const beyond = backward ? page.pageInfo.hasPreviousPage : page.pageInfo.hasNextPage;
    for (const [index, edge] of edges.entries()) {
      scanned += 1;
      const row = toRow(edge.node, facts.get(edge.node.id), origin);
      if (matches(row, params)) kept.push({ cursor: edge.cursor, node: edge.node, facts: facts.get(edge.node.id), row });
      if (kept.length === ORDERS_PAGE_SIZE) {
        more = index < edges.length - 1 || beyond;
        resumeAt = edge.cursor;
        break outer;
      }
    }
    resumeAt = backward ? (page.pageInfo.startCursor ?? undefined) : (page.pageInfo.endCursor ?? undefined);
    if (!beyond || edges.length === 0) break;
    more = true;
    cursor = resumeAt;
    if (read === maxPages - 1) partial = true;
  }
  if (backward) kept.reverse();
  // The label status tab does not depend on line items (nothing to ship is "no label" too): they are read for the
  // rows shown only, and the view derived again with them.
  const lines = await fetchOrderRowLines(admin, kept.map((entry) => entry.node.id));
  const rows = kept.map((entry) => toRow(entry.node, entry.facts, origin, lines.get(entry.node.id)));
  const first = kept[0]?.cursor;
  const last = kept.at(-1)?.cursor;
  if (backward) {
    return {
      rows,
      previous: more ? (resumeAt ?? null) : null,
      next: last ?? params.before ?? null,
      scanned,
      partial,
    };
  }
  return {
    rows,
    next: more ? (resumeAt ?? null) : null,
    previous: params.after ? (first ?? params.after) : null,
    scanned,
    partial,
  };
}

function toRow(
  node: OrderToShip,
  facts: OrderRowLabelFacts | undefined,
  origin: { country: string; zip: string },
  lines?: OrderRowLines,
): OrdersListRow {
  const address = node.shippingAddress;
  const country = address?.countryCodeV2?.trim().toUpperCase() || null;
  const view = deriveOrderLabelView({
    attempts: facts?.attempts ?? [],
    labels: facts?.labels ?? [],
    locations: facts?.locations,
    blockers: rowBlockers({
      hasShippingAddress: Boolean(address && country),
      lineItems: lines?.lineItems ?? [],
      lineItemsComplete: lines?.complete ?? false,
    }),
  });
  return {
    id: node.id,
    name: node.name,
    createdAt: node.createdAt,
    recipient: address?.name?.trim() || null,
    city: address?.city?.trim() || null,
    country,
    zone: country ? destinationZone(origin, { country, zip: address?.zip }) : null,
    weightGrams: node.totalWeight,
    fulfillment: orderFulfillmentStatus(node.displayFulfillmentStatus),
    view,
    labelUrl: facts?.labelUrl ?? null,
  };
}

const PARCEL_METHODS = new Set(["SHIPPING", "PICKUP_POINT"]);

/**
 * How an order shipping from several locations stands (decision 0115), from its fulfillment orders and the locations
 * whose slot holds a live label: undefined when it ships from one location (or Shopify names fewer than two). A
 * location is still to label when a parcel fulfillment order there can be fulfilled and no label covers it; one the
 * merchant fulfilled in Shopify without a label has nothing left to ship and is not waited for.
 */
export function locationProgress(fulfillmentOrders: readonly RowFulfillmentOrder[], labelledLocations: readonly string[]): LocationProgress | undefined {
  const open = new Map<string, boolean>();
  for (const fulfillmentOrder of fulfillmentOrders) {
    const id = fulfillmentOrder.assignedLocation.location?.id;
    if (!id || fulfillmentOrder.status === "CANCELLED" || !PARCEL_METHODS.has(fulfillmentOrder.deliveryMethod?.methodType ?? "SHIPPING")) continue;
    const fulfillable = fulfillmentOrder.supportedActions.some((action) => action.action === "CREATE_FULFILLMENT");
    open.set(id, (open.get(id) ?? false) || fulfillable);
  }
  if (open.size < 2) return undefined;
  const labelled = [...open.keys()].filter((id) => labelledLocations.includes(id)).length;
  const toLabel = [...open].filter(([id, fulfillable]) => fulfillable && !labelledLocations.includes(id)).length;
  return { labelled, total: open.size, toLabel };
}

/**
 * The facts of orders holding a label of one location get how their locations stand: one Shopify read for the page,
 * of those orders only (most orders ship from one location and are never read here).
 */
async function withLocations(admin: AdminGraphqlClient, facts: Map<string, OrderRowLabelFacts>): Promise<Map<string, OrderRowLabelFacts>> {
  const located = [...facts].filter(([, fact]) => fact.labelledLocations.length > 0).map(([id]) => id);
  if (located.length === 0) return facts;
  const read = await fetchOrderRowLocations(admin, located);
  for (const id of located) {
    const fulfillmentOrders = read.get(id);
    const fact = facts.get(id)!;
    if (fulfillmentOrders) fact.locations = locationProgress(fulfillmentOrders, fact.labelledLocations);
  }
  return facts;
}

function matches(row: OrdersListRow, params: ListParams): boolean {
  if (params.tab !== "all" && labelStatusGroup(row.view.status) !== params.tab) return false;
  if (params.zone.length > 0 && !(row.zone && params.zone.includes(row.zone))) return false;
  return true;
}

/** Shopify page size when reading every order matching the list (for a bulk job). */
export const MATCHING_PAGE_SIZE = 100;

export interface MatchingOrders {
  /** The matching orders' ids, newest first, at most `cap`. */
  ids: string[];
  /** More orders match beyond `cap`: the selection was not taken (the caller says so). */
  more: boolean;
}

/**
 * Every order the list shows for these search and filters (the "all N orders matching" selection), read through the
 * list's own Shopify query and label-status and zone filters, page after page, from the first page on. Stops at `cap`
 * (plus one, to know whether more match).
 */
export async function listMatchingOrderIds(
  deps: { db: PrismaClient; admin: AdminGraphqlClient },
  shop: string,
  params: Pick<ListParams, "q" | "tab" | "zone">,
  cap: number,
): Promise<MatchingOrders> {
  const { db, admin } = deps;
  let minId: string | undefined;
  if (params.tab === "labelled") {
    const labelled = await db.label.findMany({ where: { shop }, select: { orderId: true } });
    const ids = labelled.map((label) => Number(label.orderId.split("/").pop())).filter(Number.isFinite);
    if (ids.length === 0) return { ids: [], more: false };
    minId = String(Math.min(...ids));
  }
  const query = ordersSearch({ text: params.q, scope: params.tab === "labelled" ? "any" : "to_ship", minId });
  const { sender } = await loadShippingSettings(db, shop);
  const origin = { country: sender.countryCode, zip: sender.zip };
  const filter = { ...params, after: undefined, before: undefined };
  const ids: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await fetchOrdersPage(admin, { query, pageSize: MATCHING_PAGE_SIZE, after });
    const facts = await withLocations(admin, await labelFactsByOrder(db, shop, page.edges.map((edge) => edge.node.id)));
    for (const edge of page.edges) {
      if (!matches(toRow(edge.node, facts.get(edge.node.id), origin), filter)) continue;
      if (ids.length === cap) return { ids, more: true };
      ids.push(edge.node.id);
    }
    if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor || page.edges.length === 0) return { ids, more: false };
    after = page.pageInfo.endCursor;
  }
}
