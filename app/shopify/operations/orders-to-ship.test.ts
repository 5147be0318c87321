import { describe, expect, it } from "vitest";
import { mockAdmin } from "../../../test/helpers/mock-admin";
import { AdminApiError } from "../admin-client";
import { fetchOrderRowLines, fetchOrderRowLocations, fetchOrdersPage, ordersSearch } from "./orders-to-ship";

const page = {
  orders: {
    edges: [
      {
        cursor: "c1",
        node: {
          id: "gid://shopify/Order/1",
          name: "#1001",
          createdAt: "2026-11-20T10:00:00Z",
          displayFulfillmentStatus: "UNFULFILLED",
          totalWeight: "1250",
          shippingAddress: { name: "Léa Rochat", city: "Genève", zip: "1201", countryCodeV2: "CH" },
        },
      },
    ],
    pageInfo: { hasNextPage: true, hasPreviousPage: false, startCursor: "a", endCursor: "b" },
  },
};

describe("ordersSearch", () => {
  it("asks for open, unshipped orders and narrows by the merchant's words as free text", () => {
    expect(ordersSearch()).toBe("fulfillment_status:unfulfilled status:open");
    expect(ordersSearch({ text: " #1001 " })).toBe("fulfillment_status:unfulfilled status:open #1001");
    expect(ordersSearch({ text: "Van den Broeck" })).toBe("fulfillment_status:unfulfilled status:open Van den Broeck");
  });

  it("never lets the merchant's words become Shopify syntax", () => {
    expect(ordersSearch({ text: "10 OR status:any" })).toBe("fulfillment_status:unfulfilled status:open 10 statusany");
    expect(ordersSearch({ text: '-name:1 (x) "y" NOT z' })).toBe("fulfillment_status:unfulfilled status:open name1 x y z");
  });

  it("asks for any order from an id on, for the labelled tab", () => {
    expect(ordersSearch({ scope: "any", minId: "gid://shopify/Order/7100001040", text: "Madrid" })).toBe("status:any id:>=7100001040 Madrid");
  });
});

describe("fetchOrderRowLines", () => {
  it("reads the line items of the rows shown only, by id, and tells a truncated list", async () => {
    const admin = mockAdmin({
      OrderRowLines: () => ({
        data: {
          nodes: [
            { id: "gid://shopify/Order/1", lineItems: { nodes: [{ requiresShipping: false, isGiftCard: false }], pageInfo: { hasNextPage: true } } },
            null,
          ],
        },
      }),
    });
    const lines = await fetchOrderRowLines(admin, ["gid://shopify/Order/1", "gid://shopify/Order/2"]);
    expect(admin.calls[0]).toEqual({ operationName: "OrderRowLines", variables: { ids: ["gid://shopify/Order/1", "gid://shopify/Order/2"] } });
    expect(lines.get("gid://shopify/Order/1")).toEqual({ lineItems: [{ requiresShipping: false, isGiftCard: false }], complete: false });
    expect(lines.has("gid://shopify/Order/2")).toBe(false);
    expect(await fetchOrderRowLines(admin, [])).toEqual(new Map());
    expect(admin.calls).toHaveLength(1);
  });
});

describe("fetchOrderRowLocations", () => {
  it("reads the named orders' fulfillment orders and their locations, by id, and skips an order Shopify does not return", async () => {
    const fo = { status: "OPEN", deliveryMethod: { methodType: "SHIPPING" }, supportedActions: [{ action: "CREATE_FULFILLMENT" }], assignedLocation: { name: "Entrepôt Lyon", location: { id: "gid://shopify/Location/2" } } };
    const admin = mockAdmin({ OrderRowLocations: () => ({ data: { nodes: [{ id: "gid://shopify/Order/1", fulfillmentOrders: { nodes: [fo] } }, null] } }) });
    const read = await fetchOrderRowLocations(admin, ["gid://shopify/Order/1", "gid://shopify/Order/2"]);
    expect(admin.calls[0]).toEqual({ operationName: "OrderRowLocations", variables: { ids: ["gid://shopify/Order/1", "gid://shopify/Order/2"] } });
    expect(read.get("gid://shopify/Order/1")).toEqual([fo]);
    expect(read.has("gid://shopify/Order/2")).toBe(false);
    expect(await fetchOrderRowLocations(admin, [])).toEqual(new Map());
    expect(admin.calls).toHaveLength(1);
  });
});

describe("fetchOrdersPage", () => {
  it("pages forward with first/after and parses the rows", async () => {
    const admin = mockAdmin({ OrdersToShip: () => ({ data: page }) });
    const result = await fetchOrdersPage(admin, { after: "cursor-1", query: ordersSearch({ text: "1001" }) });
    expect(admin.calls[0]).toEqual({
      operationName: "OrdersToShip",
      variables: { first: 25, after: "cursor-1", query: "fulfillment_status:unfulfilled status:open 1001" },
    });
    expect(result.edges[0]?.node).toMatchObject({ name: "#1001", totalWeight: 1250 });
    expect(result.pageInfo.endCursor).toBe("b");
  });

  it("pages backward with last/before", async () => {
    const admin = mockAdmin({ OrdersToShip: () => ({ data: page }) });
    await fetchOrdersPage(admin, { before: "cursor-0", query: ordersSearch() });
    expect(admin.calls[0]?.variables).toMatchObject({ last: 25, before: "cursor-0" });
  });

  it("turns THROTTLED into a throttled AdminApiError", async () => {
    const admin = mockAdmin({
      OrdersToShip: () => ({ errors: [{ message: "Throttled", extensions: { code: "THROTTLED" } }] }),
    });
    await expect(fetchOrdersPage(admin, { query: "" })).rejects.toMatchObject({ kind: "throttled" });
  });

  it("rejects a response of the wrong shape", async () => {
    const admin = mockAdmin({ OrdersToShip: () => ({ data: { orders: { edges: [{ node: { id: 1 } }] } } }) });
    await expect(fetchOrdersPage(admin, { query: "" })).rejects.toBeInstanceOf(AdminApiError);
  });
});
