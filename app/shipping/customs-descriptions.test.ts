import { describe, expect, it } from "vitest";
import { wantsEnglishCustomsDescriptions } from "./carriers";
import { checkCustomsDescription, suggestCustomsDescription } from "./customs-descriptions";
import { mapOrderToLabelRequest } from "./map";
import { defaultShippingSettings } from "./settings";
import { testOrder } from "./test-orders";

const TEA = "gid://shopify/Product/11";
const MUG = "gid://shopify/Product/12";
const swissOrder = () =>
  testOrder({
    country: "CH",
    zip: "1204",
    lines: [
      { title: "Thé vert en vrac", quantity: 2, total: "30.00", hsCode: "090210", origin: "FR", productId: TEA },
      { title: "Tasse émaillée", quantity: 1, total: "12.00", hsCode: "691200", origin: "FR", productId: MUG },
    ],
  });
const dhl = { carrierName: "Dhl", serviceName: "P" };
const colissimo = { carrierName: "Colissimo", serviceName: "DOM" };
const map = (order: ReturnType<typeof testOrder>, carrier: { carrierName: string; serviceName: string }, customsDescriptions?: Map<string, string>) =>
  mapOrderToLabelRequest({ order, settings: defaultShippingSettings, customReference: "20261126-001", carrier, ...(customsDescriptions ? { customsDescriptions } : {}) });
const missing = (result: ReturnType<typeof map>) => result.problems.filter((problem) => problem.code === "customs_description_missing");

describe("checking a typed description", () => {
  it.each([
    ["  Green tea,   loose leaf ", { ok: true, value: "Green tea, loose leaf" }],
    ["Cotton T-shirt (100% cotton)", { ok: true, value: "Cotton T-shirt (100% cotton)" }],
    ["   ", { ok: false, error: "empty" }],
    ["Thé vert", { ok: false, error: "not_plain_english" }],
    ["Mug “enamel”", { ok: false, error: "not_plain_english" }],
    ["x".repeat(101), { ok: false, error: "too_long" }],
  ])("%j", (typed, expected) => expect(checkCustomsDescription(typed)).toEqual(expected));

  it("keeps exactly the length the service keeps", () => expect(checkCustomsDescription("x".repeat(100))).toEqual({ ok: true, value: "x".repeat(100) }));
});

describe("the suggestion from a product title", () => {
  it.each([
    ["Thé vert en vrac", "The vert en vrac"],
    ["Bœuf séché « maison »", 'Boeuf seche "maison"'],
    ["Tasse émaillée – bleu", "Tasse emaillee - bleu"],
    ["Coffret 🎁 cadeau", "Coffret cadeau"],
  ])("%s -> %s", (title, suggestion) => expect(suggestCustomsDescription(title)).toBe(suggestion));

  it("always passes the check (when anything is left of the title)", () => {
    for (const title of ["Crème brûlée", "Œuvre d'art", "Ça va ?", "x".repeat(300)]) expect(checkCustomsDescription(suggestCustomsDescription(title)).ok).toBe(true);
  });
});

describe("which carriers want English", () => {
  it.each([
    ["Dhl", true],
    ["DHL Express", true],
    ["dhl", true],
    ["Colissimo", false],
    ["Chronopost", false],
    ["Dhlx", false],
  ])("%s: %s", (carrier, wanted) => expect(wantsEnglishCustomsDescriptions(carrier)).toBe(wanted));
});

describe("the mapper and the saved descriptions", () => {
  it("uses a product's saved description for its CN23 line and the parcel's contents, the title for the others", () => {
    const result = map(swissOrder(), dhl, new Map([[TEA, "Green tea, loose leaf"]]));
    expect(result.request?.cn23_data?.products.map((product) => product.description)).toEqual(["Green tea, loose leaf", "Tasse émaillée"]);
    expect(result.request?.description).toContain("2x Green tea, loose leaf");
    expect(result.draft?.lines.map((line) => [line.productId, line.customsDescription])).toEqual([
      [TEA, "Green tea, loose leaf"],
      [MUG, undefined],
    ]);
  });

  it("warns, without blocking, for each DHL customs line without a saved description, naming the product and what to do", () => {
    const result = map(swissOrder(), dhl, new Map([[TEA, "Green tea, loose leaf"]]));
    expect(result.request).toBeDefined();
    const [warning, ...others] = missing(result);
    expect(others).toEqual([]);
    expect(warning).toMatchObject({ severity: "warning", path: "cn23_data.products[1].description", orderName: "#1001", params: { title: "Tasse émaillée", carrier: "DHL Express" } });
    expect(warning?.message.en).toContain('"Tasse émaillée" has no English customs description');
    expect(warning?.fix.en).toContain("Save for this product");
    expect(warning?.message.fr).toContain("« Tasse émaillée » n'a pas de description douanière en anglais");
    expect(warning?.fix.fr).toContain("Enregistrer pour ce produit");
  });

  it("does not warn once every line is described", () => {
    expect(missing(map(swissOrder(), dhl, new Map([[TEA, "Green tea"], [MUG, "Enamel mug"]])))).toEqual([]);
  });

  it("does not warn for a carrier that takes the title as it is", () => {
    expect(missing(map(swissOrder(), colissimo, new Map()))).toEqual([]);
  });

  it("does not warn when no customs declaration is needed", () => {
    const order = testOrder({ country: "DE", zip: "10115", lines: [{ title: "Thé vert", quantity: 1, total: "15.00", productId: TEA }] });
    expect(missing(map(order, dhl, new Map()))).toEqual([]);
  });

  it("does not judge when the descriptions were not read", () => {
    expect(missing(map(swissOrder(), dhl))).toEqual([]);
  });

  it("warns for a custom item (no product) too: it can only be described on the order", () => {
    const order = testOrder({ country: "CH", zip: "1204", lines: [{ title: "Gravure", quantity: 1, total: "5.00", hsCode: "960000", origin: "FR", productId: null }] });
    expect(missing(map(order, dhl, new Map()))).toHaveLength(1);
  });
});
