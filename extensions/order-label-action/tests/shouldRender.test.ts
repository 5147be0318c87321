/**
 * The should-render module (the tester cannot load should-render targets, so it is imported directly with a
 * hand-made `shopify` global), and its query checked against the pinned Admin schema.
 */
import { parse, validate } from "graphql";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadAdminSchema } from "../../../shopify-schema/load";
import shouldRender from "../src/shouldRender";
import { SHOULD_RENDER_QUERY } from "../src/should-render-query";

function withOrder(order: unknown, selected = [{ id: "gid://shopify/Order/1" }]) {
  const query = vi.fn(async () => (order instanceof Error ? Promise.reject(order) : { data: { order } }));
  (globalThis as { shopify?: unknown }).shopify = { data: { selected }, query };
  return query;
}

afterEach(() => {
  delete (globalThis as { shopify?: unknown }).shopify;
});

describe("order action should-render", () => {
  it("is a valid query of the pinned Admin schema", () => {
    expect(validate(loadAdminSchema(), parse(SHOULD_RENDER_QUERY))).toEqual([]);
  });

  it("shows the action while something is left to ship", async () => {
    for (const status of ["UNFULFILLED", "PARTIALLY_FULFILLED", "ON_HOLD", "IN_PROGRESS"]) {
      const query = withOrder({ cancelledAt: null, displayFulfillmentStatus: status });
      expect(await shouldRender()).toEqual({ display: true });
      expect(query).toHaveBeenCalledWith(SHOULD_RENDER_QUERY, { variables: { id: "gid://shopify/Order/1" } });
    }
  });

  it("hides it when nothing is left to ship, or the order is cancelled or not found", async () => {
    withOrder({ cancelledAt: null, displayFulfillmentStatus: "FULFILLED" });
    expect(await shouldRender()).toEqual({ display: false });
    withOrder({ cancelledAt: null, displayFulfillmentStatus: "RESTOCKED" });
    expect(await shouldRender()).toEqual({ display: false });
    withOrder({ cancelledAt: "2026-11-01T10:00:00Z", displayFulfillmentStatus: "UNFULFILLED" });
    expect(await shouldRender()).toEqual({ display: false });
    withOrder(null);
    expect(await shouldRender()).toEqual({ display: false });
    withOrder({ cancelledAt: null, displayFulfillmentStatus: "UNFULFILLED" }, []);
    expect(await shouldRender()).toEqual({ display: false });
  });

  it("stays visible when the order cannot be read (the action explains itself when opened)", async () => {
    withOrder(new Error("network"));
    expect(await shouldRender()).toEqual({ display: true });
  });
});
