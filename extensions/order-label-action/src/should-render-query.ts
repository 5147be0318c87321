/** The should-render read (validated against the pinned Admin schema in the tests) and its decision. */
export const SHOULD_RENDER_QUERY = `query EtiquetteOrderShouldRender($id: ID!) {
  order(id: $id) { cancelledAt displayFulfillmentStatus }
}`;

export interface ShouldRenderData {
  order: { cancelledAt: string | null; displayFulfillmentStatus: string } | null;
}

/** Nothing is left to ship once the order is fulfilled or restocked, or when it was cancelled. */
const DONE = new Set(["FULFILLED", "RESTOCKED"]);

export function hasSomethingToShip(order: NonNullable<ShouldRenderData["order"]>): boolean {
  return !order.cancelledAt && !DONE.has(order.displayFulfillmentStatus);
}
