import { describe, expect, it } from "vitest";
import { mockAdmin } from "../../../test/helpers/mock-admin";
import { AdminApiError } from "../admin-client";
import { fetchRecentOrderProducts } from "./recent-order-products";

const TEA = { id: "gid://shopify/Product/11", title: "Thé vert en vrac" };
const MUG = { id: "gid://shopify/Product/12", title: "Tasse émaillée" };
const BOOK = { id: "gid://shopify/Product/13", title: "Atlas" };
const order = (...lines: ({ id: string; title: string } | null)[]) => ({ lineItems: { nodes: lines.map((product) => ({ title: product?.title ?? "Gravure", product })) } });

describe("fetchRecentOrderProducts", () => {
  it("asks for the last orders' products only (a valid document, no variables)", async () => {
    const admin = mockAdmin({ RecentOrderProducts: () => ({ data: { orders: { nodes: [] } } }) });
    expect(await fetchRecentOrderProducts(admin)).toEqual([]);
    expect(admin.calls).toEqual([{ operationName: "RecentOrderProducts", variables: {} }]);
  });

  it("lists each product once, the most ordered first, counting an order once, custom items left out", async () => {
    const admin = mockAdmin({
      RecentOrderProducts: () => ({ data: { orders: { nodes: [order(MUG, TEA, MUG), order(TEA, null), order(BOOK), order(TEA)] } } }),
    });
    expect(await fetchRecentOrderProducts(admin)).toEqual([
      { productId: TEA.id, title: TEA.title, orderCount: 3 },
      { productId: BOOK.id, title: BOOK.title, orderCount: 1 },
      { productId: MUG.id, title: MUG.title, orderCount: 1 },
    ]);
  });

  it("turns THROTTLED into a throttled AdminApiError", async () => {
    const admin = mockAdmin({ RecentOrderProducts: () => ({ errors: [{ message: "Throttled", extensions: { code: "THROTTLED" } }] }) });
    await expect(fetchRecentOrderProducts(admin)).rejects.toMatchObject({ kind: "throttled" });
  });

  it("rejects a response of the wrong shape", async () => {
    const admin = mockAdmin({ RecentOrderProducts: () => ({ data: { orders: { nodes: [{ lineItems: { nodes: [{ product: { id: 1 } }] } }] } } }) });
    await expect(fetchRecentOrderProducts(admin)).rejects.toBeInstanceOf(AdminApiError);
  });
});
