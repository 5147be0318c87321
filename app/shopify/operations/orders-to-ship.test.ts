import { describe, expect, it } from "vitest";
import { mockAdmin } from "../../../test/helpers/mock-admin";
import { AdminApiError } from "../admin-client";
import { fetchOrdersToShip, ordersToShipSearch } from "./orders-to-ship";

const page = {
  orders: {
    nodes: [
      {
        id: "gid://shopify/Order/1",
        name: "#1001",
        createdAt: "2026-11-20T10:00:00Z",
        displayFulfillmentStatus: "UNFULFILLED",
        totalWeight: "1250",
        shippingAddress: { city: "Genève", countryCodeV2: "CH" },
      },
    ],
    pageInfo: { hasNextPage: true, hasPreviousPage: false, startCursor: "a", endCursor: "b" },
  },
};

describe("ordersToShipSearch", () => {
  it("asks for open, unshipped orders and narrows by a sanitised name", () => {
    expect(ordersToShipSearch()).toBe("fulfillment_status:unfulfilled status:open");
    expect(ordersToShipSearch(" #1001 ")).toBe("fulfillment_status:unfulfilled status:open name:1001");
    expect(ordersToShipSearch("10 OR status:any")).toBe("fulfillment_status:unfulfilled status:open name:10ORstatusany");
  });
});

describe("fetchOrdersToShip", () => {
  it("pages forward with first/after and parses the rows", async () => {
    const admin = mockAdmin({ OrdersToShip: () => ({ data: page }) });
    const result = await fetchOrdersToShip(admin, { after: "cursor-1", name: "1001" });
    expect(admin.calls[0]).toEqual({
      operationName: "OrdersToShip",
      variables: { first: 25, after: "cursor-1", query: "fulfillment_status:unfulfilled status:open name:1001" },
    });
    expect(result.nodes[0]).toMatchObject({ name: "#1001", totalWeight: 1250 });
    expect(result.pageInfo.endCursor).toBe("b");
  });

  it("pages backward with last/before", async () => {
    const admin = mockAdmin({ OrdersToShip: () => ({ data: page }) });
    await fetchOrdersToShip(admin, { before: "cursor-0" });
    expect(admin.calls[0]?.variables).toMatchObject({ last: 25, before: "cursor-0" });
  });

  it("turns THROTTLED into a throttled AdminApiError", async () => {
    const admin = mockAdmin({
      OrdersToShip: () => ({ errors: [{ message: "Throttled", extensions: { code: "THROTTLED" } }] }),
    });
    await expect(fetchOrdersToShip(admin, {})).rejects.toMatchObject({ kind: "throttled" });
  });

  it("rejects a response of the wrong shape", async () => {
    const admin = mockAdmin({ OrdersToShip: () => ({ data: { orders: { nodes: [{ id: 1 }] } } }) });
    await expect(fetchOrdersToShip(admin, {})).rejects.toBeInstanceOf(AdminApiError);
  });
});
