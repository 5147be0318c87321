import { describe, expect, it } from "vitest";
import { AdminApiError, ShopifyBusyError } from "./admin-client";
import { shopifyBusyFromRouteError } from "./busy";
import { answeringShopifyBusy } from "./busy.server";

describe("Shopify busy answers", () => {
  it("turns a ShopifyBusyError into a 503 with Retry-After and the busy body, in whole seconds", async () => {
    const thrown = await answeringShopifyBusy(Promise.reject(new ShopifyBusyError("OrderForLabel", 2300))).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(Response);
    const response = thrown as Response;
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("3");
    expect(await response.json()).toEqual({ code: "shopify_busy", retryAfterSeconds: 3 });
  });

  it("passes every other error and every result through unchanged", async () => {
    const other = new AdminApiError("graphql", "OrderForLabel: bad");
    await expect(answeringShopifyBusy(Promise.reject(other))).rejects.toBe(other);
    await expect(answeringShopifyBusy(Promise.resolve(42))).resolves.toBe(42);
  });

  it("recognises only the busy answer as the boundary receives it", () => {
    expect(shopifyBusyFromRouteError({ status: 503, data: { code: "shopify_busy", retryAfterSeconds: 4 } })).toEqual({ code: "shopify_busy", retryAfterSeconds: 4 });
    expect(shopifyBusyFromRouteError({ status: 503, data: "Service Unavailable" })).toBeUndefined();
    expect(shopifyBusyFromRouteError({ status: 500, data: { code: "shopify_busy", retryAfterSeconds: 4 } })).toBeUndefined();
    expect(shopifyBusyFromRouteError({ status: 503, data: { code: "other", retryAfterSeconds: 4 } })).toBeUndefined();
    expect(shopifyBusyFromRouteError(new Error("boom"))).toBeUndefined();
    // An absurd wait is capped, so the page still retries within minutes.
    expect(shopifyBusyFromRouteError({ status: 503, data: { code: "shopify_busy", retryAfterSeconds: 1e9 } })?.retryAfterSeconds).toBe(300);
  });
});
