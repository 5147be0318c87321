/**
 * An order with 120 line items (issue 16 item 3): Shopify pages an order's lines (the app reads 3, then pages of 50),
 * and nothing may be dropped. Through the emulator and the label sandbox: every line reaches the CN23 declaration and
 * the fulfillment covers every line. The label service documents no cap on customs lines (label-service interface
 * 2.4), so there is no refusal to prove; a cap would be a mapper problem naming the order, never a silent cut.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SEED_FILE, type Seed } from "../../emulators/shopify-admin/server";
import { DEMO_SHOP, DEMO_TOKEN, startTestEmulator, type TestEmulator } from "../../emulators/shopify-admin/test-helpers";
import { DEMO_ACCOUNT, startLabelSandbox, type LabelSandbox } from "../../emulators/label-sandbox/server";
import { DEMO_SHIPPING_SETTINGS } from "../../app/demo/seed-demo-shop.server";
import { createLabelServiceClient } from "../../app/label-service";
import { labelContextFromAdmin } from "../../app/labels/context.server";
import { labelOrder } from "../../app/labels/label-order.server";
import { openRequest } from "../../app/privacy/snapshot-seal.server";
import { saveShippingSettings } from "../../app/settings/shipping-settings.server";
import { fetchOrderForLabel } from "../../app/shopify/operations/order-for-label";
import { fulfilTestLabelsOn } from "../helpers/dev-store";
import { realAdminFor } from "../helpers/real-admin";
import { createTestDatabase } from "../helpers/test-db";

const LINES = 120;
const ORDER_NUMBER = 1035;
const ORDER_ID = `gid://shopify/Order/${7100000000 + ORDER_NUMBER}`;
// Light goods with an HS code and an origin, so the order is not blocked for other reasons.
const VARIANTS = [44000011, 44000031, 44000032, 44000033];

function seedWithLargeOrder(): Seed {
  const seed = JSON.parse(readFileSync(DEFAULT_SEED_FILE, "utf8")) as Seed & { shops: { orders: { number: number; lineItems: unknown[] }[] }[] };
  const order = seed.shops[0]!.orders.find((candidate) => candidate.number === ORDER_NUMBER)!;
  order.lineItems = Array.from({ length: LINES }, (_, index) => ({ id: 19000000000 + index, variantId: VARIANTS[index % VARIANTS.length], quantity: 1, taxRate: 0 }));
  return seed;
}

const database = createTestDatabase();
const db = database.prisma;
let emulator: TestEmulator;
let sandbox: LabelSandbox;

beforeAll(async () => {
  [emulator, sandbox] = await Promise.all([startTestEmulator({ seed: seedWithLargeOrder(), plan: "plus" }), startLabelSandbox({ port: 0 })]);
  await saveShippingSettings(db, DEMO_SHOP, DEMO_SHIPPING_SETTINGS);
  await fulfilTestLabelsOn(db, DEMO_SHOP);
});
afterAll(async () => {
  await Promise.all([emulator.emulator.close(), sandbox.close()]);
  await database.close();
});

describe(`an order with ${LINES} line items`, () => {
  it("is read whole: every line, past the first page and Shopify's 50-per-page habit", async () => {
    const admin = await realAdminFor(emulator.emulator.url, db, DEMO_SHOP, DEMO_TOKEN);
    const order = await fetchOrderForLabel(admin, ORDER_ID);
    expect(order?.lineItems.nodes).toHaveLength(LINES);
    expect(new Set(order?.lineItems.nodes.map((line) => line.id)).size).toBe(LINES);
    const remaining = order!.fulfillmentOrders.nodes.flatMap((fulfillmentOrder) => fulfillmentOrder.lineItems.nodes);
    expect(remaining.reduce((sum, line) => sum + line.remainingQuantity, 0)).toBe(LINES);
  });

  it("declares every line on the CN23 and fulfils every line in Shopify", async () => {
    const admin = await realAdminFor(emulator.emulator.url, db, DEMO_SHOP, DEMO_TOKEN);
    const service = createLabelServiceClient({
      shop: DEMO_SHOP,
      environment: "staging",
      account: { baseUrl: sandbox.url, ...DEMO_ACCOUNT },
      tokenCache: undefined,
      options: { generateTimeoutMs: 10_000, defaultTimeoutMs: 10_000 },
    });
    const context = await labelContextFromAdmin(DEMO_SHOP, admin, { database: db, service: async () => service });
    const outcome = await labelOrder(context, { orderId: String(7100000000 + ORDER_NUMBER) });
    if (outcome.kind !== "labelled" || outcome.alreadyLabelled) throw new Error(JSON.stringify(outcome).slice(0, 2000));
    const sent = openRequest(outcome.label.requestSnapshotJson) as { cn23_data: { products: { quantity: number; description: string }[] } };
    expect(sent.cn23_data.products.reduce((sum, product) => sum + product.quantity, 0)).toBe(LINES);
    expect(outcome.fulfillment?.status).toBe("created");

    const { body } = await emulator.inspect(`/__admin/orders/${ORDER_NUMBER}`);
    expect(body.fulfillments).toHaveLength(1);
    const fulfilled = JSON.stringify(body.fulfillments[0]);
    for (let index = 0; index < LINES; index += 1) expect(fulfilled).toContain(String(19000000000 + index));
    // Nothing left to ship: Shopify's own reading of the order after the fulfillment.
    const after = await fetchOrderForLabel(admin, ORDER_ID);
    expect(after!.fulfillmentOrders.nodes.flatMap((fulfillmentOrder) => fulfillmentOrder.lineItems.nodes).every((line) => line.remainingQuantity === 0)).toBe(true);
  });
});
