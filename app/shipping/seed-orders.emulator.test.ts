/**
 * Real seed orders, read from the Shopify emulator with the app's own query, mapped end to end.
 * The mapper stays pure; only this test talks to the emulator.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../emulators/shopify-admin/test-helpers";
import { labelRequestSchema } from "../label-service/contract";
import { fetchOrderForLabel, ORDER_FOR_LABEL_QUERY, orderForLabelSchema, type OrderForLabel } from "../shopify/operations/order-for-label";
import { mapOrderToLabelRequest } from "./map";
import { defaultShippingSettings } from "./settings";

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator();
});
afterAll(async () => {
  await emulator.emulator.close();
});

async function seedOrder(number: number): Promise<OrderForLabel> {
  const data = await emulator.gql(ORDER_FOR_LABEL_QUERY, { id: `gid://shopify/Order/${7100001000 + number}` });
  return orderForLabelSchema.parse(data.order);
}

const map = (order: OrderForLabel) => mapOrderToLabelRequest({ order, settings: defaultShippingSettings, customReference: "20261122-007" });

describe("seed orders from the emulator", () => {
  it("#1002, domestic France: a request without blocking problems, weight and box from settings", async () => {
    const order = await seedOrder(2);
    expect(order.shippingAddress?.countryCodeV2).toBe("FR");
    const { request, problems } = map(order);
    expect(problems.filter((problem) => problem.severity === "blocking")).toEqual([]);
    const parsed = labelRequestSchema.parse(request);
    expect(parsed.recipient.country).toBe("FR");
    expect(parsed.custom_reference).toBe("20261122-007");
    expect(Number(parsed.weight)).toBeGreaterThan(defaultShippingSettings.boxes[0]!.packagingWeightGrams);
    expect([parsed.length, parsed.width, parsed.height]).toEqual(["30", "20", "10"]);
    expect(parsed.sender.labelType).toBe("PDF_A4_300dpi");
  });

  it("#1035, Switzerland: CN23 lines in the presentment currency with comma prices and an origin", async () => {
    const order = await seedOrder(35);
    expect(order.shippingAddress?.countryCodeV2).toBe("CH");
    const { request, problems } = map(order);
    expect(problems.filter((problem) => problem.severity === "blocking")).toEqual([]);
    const parsed = labelRequestSchema.parse(request);
    const cn23 = parsed.cn23_data;
    expect(cn23?.category).toBe("3");
    expect(cn23?.shipping_price).toMatch(/^\d+,\d\d$/);
    expect(cn23?.products.length).toBeGreaterThan(0);
    for (const product of cn23?.products ?? []) {
      expect(product.currency_code).toBe(order.presentmentCurrencyCode);
      expect(product.unit_price).toMatch(/^\d+,\d\d$/);
      expect(product.weight).toMatch(/^\d+$/);
      expect(product.country_code).toMatch(/^[A-Z]{2}$/);
    }
    expect(parsed.carrier_name).toBe(defaultShippingSettings.carriers.world.carrierName);
  });

  it("#1015, Switzerland with an item lacking its HS code: blocked, the product named, the Shopify fix given", async () => {
    const order = await seedOrder(15);
    const { request, problems } = map(order);
    expect(request).toBeUndefined();
    const missing = problems.find((problem) => problem.code === "hs_code_missing");
    expect(missing?.severity).toBe("blocking");
    expect(missing?.orderName).toBe(order.name);
    const titles = order.lineItems.nodes.map((item) => item.title);
    expect(titles.some((title) => missing?.message.en.includes(title))).toBe(true);
    expect(missing?.fix.en).toMatch(/Products > .+ > the variant > Customs information/);
    expect(missing?.message.fr.length).toBeGreaterThan(0);
  });
});

describe("preview fixtures", () => {
  it.each([
    ["domestic-fr", 2],
    ["international-ch", 35],
    ["blocked-ch-missing-hs-code", 15],
  ])("%s.json is what fetchOrderForLabel returns today for seed order %s", async (file, number) => {
    const stored = JSON.parse(readFileSync(path.join(__dirname, "fixtures", `${file}.json`), "utf8")) as { order?: unknown; data?: { order?: unknown } };
    const admin = { graphql: async (query: string, options?: { variables?: Record<string, unknown> }) => Response.json((await emulator.post(query, options?.variables)).body) };
    const fresh = await fetchOrderForLabel(admin, `gid://shopify/Order/${7100001000 + number}`);
    expect(stored.order ?? stored.data?.order).toEqual(fresh);
  });
});
