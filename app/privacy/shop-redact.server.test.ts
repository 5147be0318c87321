/**
 * shop/redact erases every row of the shop. The models are read from prisma/schema.prisma: each one with a `shop`
 * field must have a row seeded here, so a model added later without its erasure fails this test.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/helpers/test-db";
import { accountSemaphoreKey } from "../bulk/item-job";
import { createEmbeddedQueue } from "../jobs/embedded-queue.server";
import { deleteShopData } from "./redact.server";

const database = createTestDatabase();
const db = database.prisma;
afterAll(() => database.close());

const SHOP = "gone.myshopify.com";
const OTHER = "stays.myshopify.com";
const SHARED_EMAIL = "shared@example.fr";

/** The models of prisma/schema.prisma that have a `shop` field. */
function shopKeyedModels(): string[] {
  const schema = readFileSync(new URL("../../prisma/schema.prisma", import.meta.url), "utf8");
  return [...schema.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)].filter(([, , body]) => /^\s+shop\s/m.test(body!)).map(([, name]) => name!);
}

let n = 0;
const unique = () => `${(n += 1)}`;

/** One row of each shop-keyed model for `shop`. */
const SEED: Record<string, (shop: string) => Promise<unknown>> = {
  Session: (shop) => db.session.create({ data: { id: `offline_${shop}`, shop, state: "s", accessToken: "t" } }),
  ShopSettings: (shop) => db.shopSettings.create({ data: { shop } }),
  LabelServiceAccount: (shop) => db.labelServiceAccount.create({ data: { shop, environment: "staging", email: `${shop}@example.fr`, passwordCiphertext: "x", keyVersion: 1 } }),
  PurchaseAttempt: (shop) =>
    db.purchaseAttempt.create({ data: { shop, orderId: "gid://shopify/Order/1", orderName: "#1", environment: "staging", customReference: `r${unique()}`, status: "CREATED", requestJson: "{}" } }),
  Label: (shop) =>
    db.label.create({
      data: {
        shop, orderId: "gid://shopify/Order/1", orderName: "#1", environment: "staging", customReference: `r${unique()}`, serviceLabelId: `s${unique()}`, trackingNumber: "T",
        trackingUrl: "https://t", labelUrl: "https://l", carrierName: "Dhl", carrierServiceName: "P", labelFormat: "PDF", requestSnapshotJson: "{}",
      },
    }),
  PrintFile: (shop) => db.printFile.create({ data: { shop, format: "PDF", labelIdsJson: "[]", labelCount: 0, downloadToken: unique() } }),
  ReferenceCounter: (shop) => db.referenceCounter.create({ data: { shop, day: "20261126" } }),
  WebhookDelivery: (shop) => db.webhookDelivery.create({ data: { webhookId: unique(), shop, topic: "APP_UNINSTALLED" } }),
  CustomerDataRequest: (shop) => db.customerDataRequest.create({ data: { shop, requestKey: unique(), orderIdsJson: "[]" } }),
  Job: (shop) => db.job.create({ data: { id: unique(), name: "bulk-label-item", shop, payload: "{}", state: "queued", runAfterMs: 0n, maxAttempts: 1, backoffMs: 0, createdAtMs: 0n } }),
  BulkJob: (shop) => db.bulkJob.create({ data: { shop, environment: "staging", settingsJson: "{}" } }),
  BulkJobItem: async (shop) => {
    const job = await db.bulkJob.create({ data: { shop, environment: "staging", settingsJson: "{}" } });
    return db.bulkJobItem.create({ data: { jobId: job.id, shop, orderId: "gid://shopify/Order/1", orderName: "#1", position: 0, status: "QUEUED", orderSealed: "v1:x" } });
  },
  PreflightRead: (shop) => db.preflightRead.create({ data: { shop, orderId: "gid://shopify/Order/1", orderSealed: "v1:x", readAt: new Date() } }),
  ShopifyBucket: (shop) => db.shopifyBucket.create({ data: { shop, available: 1, maximum: 1, restoreRate: 1, atMs: 0n } }),
  CustomsDescription: (shop) => db.customsDescription.create({ data: { shop, productId: "gid://shopify/Product/1", description: "Cotton shirt", productTitle: "Chemise" } }),
};

type CountDelegate = { count(args: { where: { shop: string } }): Promise<number> };
const delegate = (model: string) => (db as unknown as Record<string, CountDelegate>)[model.charAt(0).toLowerCase() + model.slice(1)]!;

async function counts(shop: string): Promise<Record<string, number>> {
  const entries = await Promise.all(shopKeyedModels().map(async (model) => [model, await delegate(model).count({ where: { shop } })] as const));
  return Object.fromEntries(entries);
}

async function semaphoreKeys(): Promise<string[]> {
  return (await db.semaphoreSlot.findMany({ orderBy: { key: "asc" } })).map((row) => row.key);
}

describe("shop/redact", () => {
  beforeEach(async () => {
    await db.bulkJobItem.deleteMany();
    for (const model of shopKeyedModels()) await (delegate(model) as unknown as { deleteMany(): Promise<unknown> }).deleteMany();
    await db.semaphoreSlot.deleteMany();
  });

  it("reads the shop-keyed models from the schema, and has a row to seed for each (add one with its erasure)", () => {
    expect(shopKeyedModels()).toContain("BulkJob");
    expect(shopKeyedModels().filter((model) => !(model in SEED))).toEqual([]);
  });

  it("deletes every row of every shop-keyed model of the shop, and none of another shop", async () => {
    for (const shop of [SHOP, OTHER]) for (const model of shopKeyedModels()) await SEED[model]!(shop);
    const before = await counts(SHOP);
    expect(Object.values(before).every((count) => count > 0)).toBe(true);

    await deleteShopData(db, SHOP);

    const after = await counts(SHOP);
    expect(Object.entries(after).filter(([, count]) => count > 0)).toEqual([]);
    expect(await counts(OTHER)).toEqual(before);
  });

  it("deletes the shop's semaphore slots, keeping a login's slots another shop shares", async () => {
    const slot = (key: string) => db.semaphoreSlot.create({ data: { key, slot: 0, holder: "h", leaseUntilMs: 0n } });
    await db.labelServiceAccount.create({ data: { shop: SHOP, environment: "production", email: "Own@example.fr", passwordCiphertext: "x", keyVersion: 1 } });
    for (const shop of [SHOP, OTHER]) await db.labelServiceAccount.create({ data: { shop, environment: "staging", email: SHARED_EMAIL, passwordCiphertext: "x", keyVersion: 1 } });
    const own = accountSemaphoreKey("production", "Own@example.fr", SHOP);
    const shared = accountSemaphoreKey("staging", SHARED_EMAIL, SHOP);
    const unsaved = accountSemaphoreKey("staging", null, SHOP);
    const others = accountSemaphoreKey("staging", null, OTHER);
    for (const key of [own, shared, unsaved, others]) await slot(key);

    await deleteShopData(db, SHOP);

    expect(await semaphoreKeys()).toEqual([shared, others].sort());
  });

  it("deletes the shop's jobs from the queue too (pg-boss keeps them outside the app's tables)", async () => {
    const queue = createEmbeddedQueue({ db, dialect: "sqlite", onError: () => undefined });
    await queue.enqueue("bulk-label-item", { shop: SHOP, payload: { n: 1 } }, { delayMs: 60_000 });
    const forgotten: string[] = [];
    await deleteShopData(db, SHOP, { queue: { forgetShop: async (shop) => (forgotten.push(shop), queue.forgetShop(shop)) } });
    expect(forgotten).toEqual([SHOP]);
    expect(await queue.livePayloads("bulk-label-item", SHOP)).toEqual([]);
  });
});
