import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadSeedFile, parseSeed, SeedError } from "./seed";
import { DEFAULT_SEED_FILE, startShopifyEmulator } from "./server";
import { startTestEmulator } from "./test-helpers";

const defaultSeed = () => JSON.parse(fs.readFileSync(DEFAULT_SEED_FILE, "utf8"));

describe("seed validation", () => {
  it("accepts the committed default seed, which covers the cases the label flow needs", () => {
    const seed = loadSeedFile(DEFAULT_SEED_FILE);
    const shop = seed.shops[0]!;
    expect(shop.domain).toBe("etiquette-demo.myshopify.com");
    expect(shop.accessToken).toBe("shpat_etiquette_demo");
    expect(shop.currencyCode).toBe("EUR");
    const countries = new Set(shop.orders.map((o) => o.shippingAddress?.countryCode));
    for (const code of ["FR", "DE", "BE", "ES", "IT", "NL", "CH", "GB", "US", "CA", "NO", "JP", "RE", "GP"]) expect(countries).toContain(code);
    const currencies = new Set(shop.orders.map((o) => o.presentmentCurrencyCode ?? "EUR"));
    for (const code of ["EUR", "USD", "GBP", "CHF"]) expect(currencies).toContain(code);
    const variants = shop.products.flatMap((p) => p.variants);
    expect(new Set(variants.map((v) => v.weight.unit))).toEqual(new Set(["GRAMS", "KILOGRAMS", "OUNCES", "POUNDS"]));
    expect(variants.some((v) => v.weight.value === 0 && v.requiresShipping)).toBe(true);
    expect(variants.some((v) => v.requiresShipping && v.harmonizedSystemCode === null)).toBe(true);
    expect(variants.some((v) => v.requiresShipping && v.countryCodeOfOrigin === null)).toBe(true);
    expect(variants.some((v) => v.isGiftCard)).toBe(true);
    expect(shop.orders.some((o) => o.lineItems.length >= 3)).toBe(true);
    expect(shop.orders.some((o) => o.shippingAddress && o.shippingAddress.phone === null)).toBe(true);
    expect(shop.orders.some((o) => o.shippingAddress?.company)).toBe(true);
    expect(shop.orders.some((o) => o.shippingAddress?.address2)).toBe(true);
    expect(shop.orders.some((o) => (o.shippingAddress?.address1?.length ?? 0) > 35)).toBe(true);
    expect(shop.orders.some((o) => /[^\p{Script=Latin}\p{P}\p{Zs}-]/u.test(`${o.shippingAddress?.firstName}${o.shippingAddress?.lastName}`))).toBe(true);
  });

  it("names every problem with its path", () => {
    const seed = defaultSeed();
    seed.shops[0].domain = "not a domain";
    seed.shops[0].orders[3].lineItems[0].quantity = 0;
    seed.shops[0].orders[4].lineItems[0].variantId = 1;
    seed.shops[0].orders[5].shippingAddress.countryCode = "XX";
    seed.shops[0].products[0].variants[0].price = "12.345";
    seed.shops[0].orders[6].colour = "blue";
    let error: unknown;
    try {
      parseSeed(seed, "my-seed.json");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SeedError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Invalid Shopify emulator seed \(my-seed\.json\):/);
    expect(message).toContain('shops[0].domain: must look like "my-shop.myshopify.com"');
    expect(message).toContain("shops[0].orders[3].lineItems[0].quantity: Too small: expected number to be >=1");
    expect(message).toContain('shops[0].products[0].variants[0].price: must be an amount with at most 2 decimals, such as "12.50"');
    expect(message).toContain("shops[0].orders[6]: Unrecognized key");
  });

  it("checks references and codes against the schema once the shape is right", () => {
    const seed = defaultSeed();
    seed.shops[0].orders[4].lineItems[0].variantId = 1;
    seed.shops[0].orders[5].shippingAddress.countryCode = "XX";
    seed.shops[0].orders[7].number = seed.shops[0].orders[8].number;
    expect(() => parseSeed(seed)).toThrow(/shops\[0\]\.orders\[4\]\.lineItems\[0\]\.variantId: no product variant with id 1 in this shop/);
    expect(() => parseSeed(seed)).toThrow(/shops\[0\]\.orders\[5\]\.shippingAddress\.countryCode: XX is not a CountryCode of the 2026-10 schema/);
    expect(() => parseSeed(seed)).toThrow(/shops\[0\]\.orders\[8\]\.number: duplicate order number/);
  });

  it("reports unreadable and non-JSON files clearly, and the server refuses to start on a bad seed", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shopify-emulator-"));
    const file = path.join(dir, "seed.json");
    fs.writeFileSync(file, "{ nope");
    expect(() => loadSeedFile(file)).toThrow(`Shopify emulator seed ${file} is not valid JSON`);
    expect(() => loadSeedFile(path.join(dir, "missing.json"))).toThrow("Cannot read Shopify emulator seed");
    await expect(startShopifyEmulator({ port: 0, seed: { shops: [] } })).rejects.toThrow("shops: Too small");
    fs.rmSync(dir, { recursive: true });
  });
});

describe("persistence", () => {
  it("keeps fulfillments, notifications and metafields across a restart when given a data file", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shopify-emulator-"));
    const dataFile = path.join(dir, "state.json");
    const first = await startTestEmulator({ dataFile });
    const fo = await first.gql('{ order(id: "gid://shopify/Order/7100001002") { fulfillmentOrders(first: 1) { nodes { id } } } }');
    const created = await first.gql(
      "mutation F($f: FulfillmentInput!) { fulfillmentCreate(fulfillment: $f) { fulfillment { id } userErrors { message } } }",
      { f: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo.order.fulfillmentOrders.nodes[0].id }], notifyCustomer: true } },
    );
    expect(created.fulfillmentCreate.userErrors).toEqual([]);
    await first.emulator.close();

    const second = await startTestEmulator({ dataFile });
    const order = await second.gql('{ order(id: "gid://shopify/Order/7100001002") { displayFulfillmentStatus fulfillments { id } } }');
    expect(order.order).toEqual({ displayFulfillmentStatus: "FULFILLED", fulfillments: [{ id: created.fulfillmentCreate.fulfillment.id }] });
    expect((await second.inspect("/__admin/notifications")).body.notifications).toHaveLength(1);
    await second.inspect("/__admin/reset", "POST");
    await second.emulator.close();

    const third = await startTestEmulator({ dataFile });
    const reset = await third.gql('{ order(id: "gid://shopify/Order/7100001002") { displayFulfillmentStatus } }');
    expect(reset.order.displayFulfillmentStatus).toBe("UNFULFILLED");
    await third.emulator.close();
    fs.rmSync(dir, { recursive: true });
  });
});
