/**
 * A downloaded label file shows the recipient's name, address and phone: customers/redact and shop/redact remove the
 * files of the labels they concern from this instance's cache (decision 0205), and the webhook handler passes it.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, expect, it } from "vitest";
import { createTestDatabase } from "../../test/helpers/test-db";
import { createLabelFiles } from "../print/label-files.server";
import { handleWebhook } from "../webhooks/handlers.server";
import { deleteShopData, redactCustomerOrders } from "./redact.server";

const database = createTestDatabase();
const db = database.prisma;
afterAll(() => database.close());

const SHOP = "a.myshopify.com";
const OTHER_SHOP = "b.myshopify.com";
const PDF = new TextEncoder().encode("%PDF-1.7\n% a label\n");
const fetch = (async () => new Response(PDF)) as unknown as typeof globalThis.fetch;

let dir: string;
beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "etiquette-redact-cache-"));
  await db.label.deleteMany();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
/** A label of `shop` for order `order`, its file already in the cache. */
async function cachedLabel(files: ReturnType<typeof createLabelFiles>, shop: string, order: number) {
  n += 1;
  const label = await db.label.create({
    data: {
      shop, orderId: `gid://shopify/Order/${order}`, orderName: `#${order}`, environment: "staging", customReference: `r${n}`, serviceLabelId: `s${n}`,
      trackingNumber: "T", trackingUrl: "https://t", labelUrl: `https://labels.test/${n}.pdf`, carrierName: "Dhl", carrierServiceName: "P",
      labelFormat: "PDF_10x15_300dpi", requestSnapshotJson: "{}",
    },
  });
  await files.get(label);
  return label;
}

it("customers/redact removes the cached files of the customer's orders only", async () => {
  const files = createLabelFiles({ fetch, cacheDir: dir });
  await cachedLabel(files, SHOP, 1);
  await cachedLabel(files, SHOP, 1);
  await cachedLabel(files, SHOP, 2);
  await cachedLabel(files, OTHER_SHOP, 1);
  expect(readdirSync(dir)).toHaveLength(4);
  await redactCustomerOrders(db, SHOP, ["gid://shopify/Order/1"], { labelFiles: files });
  expect(readdirSync(dir)).toHaveLength(2);
});

it("shop/redact removes the cached files of every label of the shop", async () => {
  const files = createLabelFiles({ fetch, cacheDir: dir });
  await cachedLabel(files, SHOP, 1);
  await cachedLabel(files, SHOP, 2);
  const kept = await cachedLabel(files, OTHER_SHOP, 1);
  await deleteShopData(db, SHOP, { labelFiles: files });
  expect(readdirSync(dir)).toHaveLength(1);
  // The other shop's file is still served from the cache.
  const offline = createLabelFiles({ fetch: (async () => new Response("down", { status: 503 })) as unknown as typeof globalThis.fetch, cacheDir: dir });
  expect(await offline.get(kept)).toEqual(PDF);
});

it("the webhook handler hands its cache to both redactions", async () => {
  const files = createLabelFiles({ fetch, cacheDir: dir });
  await cachedLabel(files, SHOP, 7);
  await cachedLabel(files, SHOP, 8);
  await handleWebhook(db, "w-1", { topic: "CUSTOMERS_REDACT", shop: SHOP, payload: { shop_domain: SHOP, customer: { id: 1 }, orders_to_redact: [7] } }, { labelFiles: files });
  expect(readdirSync(dir)).toHaveLength(1);
  await handleWebhook(db, "w-2", { topic: "SHOP_REDACT", shop: SHOP }, { labelFiles: files });
  expect(readdirSync(dir)).toHaveLength(0);
});
