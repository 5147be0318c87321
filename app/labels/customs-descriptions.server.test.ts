import { afterAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/helpers/test-db";
import { testOrder } from "../shipping/test-orders";
import { customsDescriptionRows, customsDescriptionsFor, customsDescriptionsForOrder, listCustomsDescriptions, productIdsOf, saveCustomsDescription } from "./customs-descriptions.server";

const database = createTestDatabase();
const db = database.prisma;
afterAll(() => database.close());

const A = "shop-a.myshopify.com";
const B = "shop-b.myshopify.com";
const TEA = "gid://shopify/Product/11";
const MUG = "gid://shopify/Product/12";

describe("saving a description", () => {
  it("stores the cleaned text, replaces it on a second save, and keeps each shop's apart", async () => {
    expect(await saveCustomsDescription(db, A, { productId: TEA, productTitle: "Thé vert", description: "  Green   tea " })).toEqual({ ok: true, productId: TEA, description: "Green tea" });
    await saveCustomsDescription(db, A, { productId: TEA, productTitle: "Thé vert en vrac", description: "Green tea, loose leaf" });
    await saveCustomsDescription(db, B, { productId: TEA, productTitle: "Thé vert", description: "Tea" });
    expect(await customsDescriptionsFor(db, A, [TEA, MUG])).toEqual(new Map([[TEA, "Green tea, loose leaf"]]));
    expect(await customsDescriptionsFor(db, B, [TEA])).toEqual(new Map([[TEA, "Tea"]]));
    expect((await listCustomsDescriptions(db, A)).map((row) => [row.productTitle, row.description])).toEqual([["Thé vert en vrac", "Green tea, loose leaf"]]);
  });

  it.each([
    [{ productId: MUG, productTitle: "Tasse", description: "Tasse émaillée" }, { ok: false, productId: MUG, error: "not_plain_english" }],
    [{ productId: MUG, productTitle: "Tasse", description: " " }, { ok: false, productId: MUG, error: "empty" }],
    [{ productId: MUG, productTitle: "Tasse", description: "m".repeat(101) }, { ok: false, productId: MUG, error: "too_long" }],
    [{ productId: "gid://shopify/Order/1", productTitle: "Tasse", description: "Mug" }, { ok: false, productId: "gid://shopify/Order/1", error: "bad_request" }],
    [{ description: "Mug" }, { ok: false, productId: null, error: "bad_request" }],
  ])("refuses %j and stores nothing", async (input, expected) => {
    expect(await saveCustomsDescription(db, A, input)).toEqual(expected);
    expect(await customsDescriptionsFor(db, A, [MUG, "gid://shopify/Order/1"])).toEqual(new Map());
  });
});

describe("reading them for an order", () => {
  it("reads the order's products only", async () => {
    const order = testOrder({ lines: [
      { title: "Thé vert", quantity: 1, total: "10.00", productId: TEA },
      { title: "Gravure", quantity: 1, total: "5.00", productId: null },
    ] });
    expect(productIdsOf([order])).toEqual([TEA]);
    expect(await customsDescriptionsForOrder(db, A, order)).toEqual(new Map([[TEA, "Green tea, loose leaf"]]));
    expect(await customsDescriptionsFor(db, A, [])).toEqual(new Map());
  });
});

describe("the page's rows", () => {
  it("lists recent products with their saved text or a suggestion, then products described earlier", () => {
    const rows = customsDescriptionRows(
      [
        { productId: MUG, title: "Tasse émaillée", orderCount: 3 },
        { productId: TEA, title: "Thé vert", orderCount: 1 },
      ],
      [
        { productId: TEA, productTitle: "Thé vert", description: "Green tea" },
        { productId: "gid://shopify/Product/99", productTitle: "Ancien produit", description: "Old product" },
      ],
    );
    expect(rows).toEqual([
      { productId: MUG, title: "Tasse émaillée", description: "Tasse emaillee", saved: false, orderCount: 3 },
      { productId: TEA, title: "Thé vert", description: "Green tea", saved: true, orderCount: 1 },
      { productId: "gid://shopify/Product/99", title: "Ancien produit", description: "Old product", saved: true, orderCount: null },
    ]);
  });
});
