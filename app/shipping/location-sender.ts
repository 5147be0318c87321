/**
 * Senders per Shopify location. An order ships from its fulfillment orders' assigned locations; a location may have
 * its own sender address in Settings, otherwise the shop's sender is used. An order whose parcel fulfillment orders
 * sit at two locations gets one label per location (decision 0115). Pure: no I/O.
 */
import { isParcelFulfillmentOrder, type FulfillmentOrderLike } from "./fulfillment-orders";
import type { Sender, ShippingSettings } from "./settings";

export interface LocatedFulfillmentOrder extends FulfillmentOrderLike {
  id: string;
  status: string;
  assignedLocation: { name: string; location?: { id: string } | null };
}

/** One location of an order: its parcel fulfillment orders (any status but cancelled) and those still to ship. */
export interface OrderLocation {
  /** The Location GID; null when Shopify no longer names the location (deleted). */
  locationId: string | null;
  locationName: string;
  fulfillmentOrderIds: string[];
  /** Fulfillment orders a parcel label can fulfil now (isParcelFulfillmentOrder). */
  openFulfillmentOrderIds: string[];
}

const PARCEL_METHODS = new Set(["SHIPPING", "PICKUP_POINT"]);

function shipsParcels(fulfillmentOrder: LocatedFulfillmentOrder): boolean {
  return PARCEL_METHODS.has(fulfillmentOrder.deliveryMethod?.methodType ?? "SHIPPING") && fulfillmentOrder.status !== "CANCELLED";
}

/** The order's locations that ship (or shipped) parcels, in the order of its fulfillment orders. */
export function orderLocations(order: { fulfillmentOrders: { nodes: readonly LocatedFulfillmentOrder[] } }): OrderLocation[] {
  const byKey = new Map<string, OrderLocation>();
  for (const fulfillmentOrder of order.fulfillmentOrders.nodes) {
    if (!shipsParcels(fulfillmentOrder)) continue;
    const locationId = fulfillmentOrder.assignedLocation.location?.id ?? null;
    const key = locationId ?? `name:${fulfillmentOrder.assignedLocation.name}`;
    const entry = byKey.get(key) ?? { locationId, locationName: fulfillmentOrder.assignedLocation.name, fulfillmentOrderIds: [], openFulfillmentOrderIds: [] };
    entry.fulfillmentOrderIds.push(fulfillmentOrder.id);
    if (isParcelFulfillmentOrder(fulfillmentOrder)) entry.openFulfillmentOrderIds.push(fulfillmentOrder.id);
    byKey.set(key, entry);
  }
  return [...byKey.values()];
}

/**
 * True when the order ships parcels from two or more locations: it is labelled per location (one label each, each
 * fulfilling only its location's fulfillment order). Closed fulfillment orders count, so the answer stays the same
 * once one location has shipped.
 */
export function shipsFromSeveralLocations(order: { fulfillmentOrders: { nodes: readonly LocatedFulfillmentOrder[] } }): boolean {
  return orderLocations(order).filter((location) => location.locationId !== null).length >= 2;
}

/** The location a fulfillment order is assigned to (null when unknown). */
export function locationOfFulfillmentOrder(order: { fulfillmentOrders: { nodes: readonly LocatedFulfillmentOrder[] } }, fulfillmentOrderId: string | undefined | null): string | null {
  if (!fulfillmentOrderId) return null;
  return order.fulfillmentOrders.nodes.find((node) => node.id === fulfillmentOrderId)?.assignedLocation.location?.id ?? null;
}

export type SenderSource = { kind: "location"; locationId: string; locationName: string } | { kind: "shop" };

/** The sender of a parcel shipped from `locationId`: the location's own when Settings hold one, else the shop's. */
export function senderFor(settings: ShippingSettings, locationId: string | null | undefined): { sender: Sender; source: SenderSource } {
  const own = locationId ? settings.locationSenders.find((entry) => entry.locationId === locationId) : undefined;
  if (own) return { sender: own.sender, source: { kind: "location", locationId: own.locationId, locationName: own.locationName } };
  return { sender: settings.sender, source: { kind: "shop" } };
}

/** The settings a parcel from `locationId` is mapped with: the same, with that location's sender. */
export function settingsForLocation(settings: ShippingSettings, locationId: string | null | undefined): ShippingSettings {
  const { sender, source } = senderFor(settings, locationId);
  return source.kind === "shop" ? settings : { ...settings, sender };
}

/**
 * How many labels labelling an order shipping from several locations buys now: one per location with something
 * left to ship (0 when every location has shipped). Any other order: 1.
 */
export function labelsToBuy(order: { fulfillmentOrders: { nodes: readonly LocatedFulfillmentOrder[] } }): number {
  if (!shipsFromSeveralLocations(order)) return 1;
  return orderLocations(order).filter((location) => location.locationId !== null && location.openFulfillmentOrderIds.length > 0).length;
}
