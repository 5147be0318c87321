/**
 * admin.order-details.action.should-render: the action shows only while the order has something left to ship (not
 * fulfilled, not restocked, not cancelled). Read with the admin's direct API (no call to the app). If the order
 * cannot be read, the action stays visible and explains itself when opened.
 */
import type { Api } from "@shopify/ui-extensions/admin.order-details.action.should-render";
import { SHOULD_RENDER_QUERY, hasSomethingToShip, type ShouldRenderData } from "./should-render-query";

declare const shopify: Api;

export default async () => {
  const id = shopify.data.selected[0]?.id;
  if (!id) return { display: false };
  try {
    const result = await shopify.query<ShouldRenderData>(SHOULD_RENDER_QUERY, { variables: { id } });
    const order = result.data?.order;
    return { display: order ? hasSomethingToShip(order) : false };
  } catch {
    return { display: true };
  }
};
