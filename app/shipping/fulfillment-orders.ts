/**
 * Which fulfillment orders a parcel label can fulfil: those Shopify lets us fulfil, with something left to ship, and
 * delivered as a parcel (shipping or pickup point). Local delivery, store pickup and "none" (digital items, gift
 * cards) never get a parcel's tracking number.
 */
const PARCEL_METHODS = new Set(["SHIPPING", "PICKUP_POINT"]);

export interface FulfillmentOrderLike {
  supportedActions: readonly { action: string }[];
  lineItems: { nodes: readonly { remainingQuantity: number }[] };
  deliveryMethod?: { methodType: string } | null;
}

export function isParcelFulfillmentOrder(fulfillmentOrder: FulfillmentOrderLike): boolean {
  const method = fulfillmentOrder.deliveryMethod?.methodType ?? "SHIPPING";
  return (
    PARCEL_METHODS.has(method) &&
    fulfillmentOrder.supportedActions.some((action) => action.action === "CREATE_FULFILLMENT") &&
    fulfillmentOrder.lineItems.nodes.some((lineItem) => lineItem.remainingQuantity > 0)
  );
}
