/**
 * Sender per location, for the labelling unit (decision 0115). Which fulfillment order a label ships, which slot it
 * takes and which sender it carries, from the order as Shopify has it now:
 *  - an order shipping from one location: the first open parcel fulfillment order, the order's slot
 *    (`<shop>|<order>|<index>`), that location's sender (or the shop's);
 *  - an order shipping from several locations: one label per location, each fulfilling only that location's
 *    fulfillment order, in the location's own slot (`…|<index>|<Location GID>`). `location` names it; without it,
 *    the first location with something left to ship (a bulk item then labels the others, see `locations`).
 * A fulfillment order already held by another slot of the order (a label bought before the order was split, or by
 * the other kind of call) is reported instead of bought again.
 */
import type { Label, PrismaClient } from "../generated/prisma/client";
import { locationOfFulfillmentOrder, orderLocations, senderFor, settingsForLocation, shipsFromSeveralLocations, type OrderLocation } from "../shipping/location-sender";
import type { Problem } from "../shipping";
import type { Sender, ShippingSettings } from "../shipping/settings";
import type { OrderForLabel } from "../shopify/operations/order-for-label";
import { openFulfillmentOrderId } from "./order-label.server";
import { labelProblem } from "./problems";
import { attemptForFulfillmentOrder } from "./label-rows.server";
import { heldBy, orderSlot, slotHolder, type PurchaseResult } from "./purchase.server";

export type LocationPlace =
  | { kind: "held"; holder: PurchaseResult }
  | { kind: "blocked"; problems: Problem[] }
  | {
      kind: "ready";
      fulfillmentOrderId: string | undefined;
      /** The slot's location: set for an order shipping from several locations only. */
      location: string | undefined;
      /** The settings with the parcel's sender. */
      settings: ShippingSettings;
    };

/** The locations of an order shipping from several (Location GIDs), for a caller labelling each; else undefined. */
export function splitLocations(order: OrderForLabel): OrderLocation[] | undefined {
  return shipsFromSeveralLocations(order) ? orderLocations(order).filter((location) => location.locationId !== null) : undefined;
}

async function heldElsewhere(db: PrismaClient, shop: string, orderId: string, fulfillmentOrderId: string, slot: string): Promise<PurchaseResult | null> {
  const attempt = await attemptForFulfillmentOrder(db, { shop, orderId, fulfillmentOrderId, exceptSlot: slot });
  return attempt ? heldBy(db, attempt) : null;
}

export async function placeForLocation(
  db: PrismaClient,
  input: { shop: string; orderId: string; order: OrderForLabel; settings: ShippingSettings; location?: string; labelIndex: number },
): Promise<LocationPlace> {
  const { shop, orderId, order, settings, labelIndex } = input;
  const split = splitLocations(order);
  let location: string | undefined;
  let fulfillmentOrderId: string | undefined;
  if (input.location || split) {
    const places = split ?? orderLocations(order).filter((entry) => entry.locationId !== null);
    const place = input.location ? places.find((entry) => entry.locationId === input.location) : (places.find((entry) => entry.openFulfillmentOrderIds.length > 0) ?? places[0]);
    if (!place?.locationId) return { kind: "blocked", problems: [labelProblem("location_nothing_to_ship", { orderName: order.name, params: { location: "" } })] };
    // A single-location order named by its location keeps the order's slot: one slot per parcel, whoever asks.
    location = split ? place.locationId : undefined;
    if (location && labelIndex === 1) {
      const holder = await slotHolder(db, shop, orderId, 1, location);
      if (holder) return { kind: "held", holder };
    }
    fulfillmentOrderId = place.openFulfillmentOrderIds[0];
    if (!fulfillmentOrderId && labelIndex === 1) {
      return { kind: "blocked", problems: [labelProblem("location_nothing_to_ship", { orderName: order.name, params: { location: place.locationName } })] };
    }
  } else {
    fulfillmentOrderId = openFulfillmentOrderId(order);
  }
  if (fulfillmentOrderId && labelIndex === 1) {
    const holder = await heldElsewhere(db, shop, orderId, fulfillmentOrderId, orderSlot(shop, orderId, 1, location));
    if (holder) return { kind: "held", holder };
  }
  return { kind: "ready", fulfillmentOrderId, location, settings: settingsForLocation(settings, locationOfFulfillmentOrder(order, fulfillmentOrderId) ?? location) };
}

/** One location of an order shipping from several, as the order page shows it. */
export interface PageLocation {
  locationId: string;
  locationName: string;
  /** Something is left to ship from here: the page offers its label. */
  open: boolean;
  sender: Sender;
  senderIsLocation: boolean;
  /** The labels whose fulfillment order is this location's. */
  labelIds: string[];
}

/** The order page's locations (an order shipping from several; undefined otherwise). */
export function pageLocations(order: OrderForLabel, settings: ShippingSettings, labels: readonly Pick<Label, "id" | "fulfillmentOrderId">[]): PageLocation[] | undefined {
  return splitLocations(order)?.map((location) => {
    const { sender, source } = senderFor(settings, location.locationId);
    return {
      locationId: location.locationId!,
      locationName: location.locationName,
      open: location.openFulfillmentOrderIds.length > 0,
      sender,
      senderIsLocation: source.kind === "location",
      labelIds: labels.filter((label) => label.fulfillmentOrderId !== null && location.fulfillmentOrderIds.includes(label.fulfillmentOrderId)).map((label) => label.id),
    };
  });
}
