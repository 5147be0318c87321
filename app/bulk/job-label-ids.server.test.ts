/**
 * A bulk job's labels for its print (decision 0115): the label each item names, and for an order shipping from two
 * locations the other location's label too, found by the attempt's own `locationId`, never by reading the order slot.
 */
import { afterAll, beforeEach, expect, it } from "vitest";
import { createTestDatabase } from "../../test/helpers/test-db";
import { orderSlot } from "../labels/purchase.server";
import { bulkJobLabelIds } from "./ui-pages.server";

const database = createTestDatabase();
const db = database.prisma;
afterAll(() => database.close());

const SHOP = "a.myshopify.com";
const OTHER_SHOP = "b.myshopify.com";
const SPLIT = "gid://shopify/Order/1";
const SINGLE = "gid://shopify/Order/2";
const PARIS = "gid://shopify/Location/1";
const LYON = "gid://shopify/Location/2";

beforeEach(async () => {
  await db.bulkJobItem.deleteMany();
  await db.bulkJob.deleteMany();
  await db.purchaseAttempt.deleteMany();
  await db.label.deleteMany();
});

let counter = 0;
/** A label and its attempt; `slot` false when the attempt no longer holds its slot (the label was voided). */
async function label(shop: string, orderId: string, options: { location?: string; labelIndex?: number; slot?: boolean } = {}) {
  counter += 1;
  const labelIndex = options.labelIndex ?? 1;
  const created = await db.label.create({
    data: {
      shop, orderId, orderName: `#${counter}`, environment: "staging", customReference: `ref-${counter}`, serviceLabelId: `s${counter}`,
      trackingNumber: `T${counter}`, trackingUrl: "https://t", labelUrl: "https://l", carrierName: "Dhl", carrierServiceName: "P", labelFormat: "PDF",
      requestSnapshotJson: "{}",
    },
  });
  await db.purchaseAttempt.create({
    data: {
      shop, orderId, orderName: created.orderName, environment: "staging", customReference: created.customReference, status: "CREATED", requestJson: "{}",
      labelIndex, locationId: options.location ?? null, labelId: created.id,
      orderSlot: options.slot === false ? null : orderSlot(shop, orderId, labelIndex, options.location),
    },
  });
  return created.id;
}

it("lists each item's label, then the other locations' labels of an order shipping from two, and nothing else", async () => {
  const paris = await label(SHOP, SPLIT, { location: PARIS });
  const lyon = await label(SHOP, SPLIT, { location: LYON });
  const single = await label(SHOP, SINGLE);
  // A second label the merchant asked for on a one-location order is not part of the job.
  await label(SHOP, SINGLE, { labelIndex: 2 });
  // Another shop's label for an order of the same id never is.
  await label(OTHER_SHOP, SPLIT, { location: LYON });
  const job = await db.bulkJob.create({
    data: {
      shop: SHOP, environment: "staging", settingsJson: "{}",
      items: { create: [{ shop: SHOP, orderId: SPLIT, orderName: "#1", position: 0, status: "LABELLED", labelId: paris }, { shop: SHOP, orderId: SINGLE, orderName: "#2", position: 1, status: "LABELLED", labelId: single }] },
    },
  });
  expect(await bulkJobLabelIds(db, SHOP, job.id)).toEqual([paris, lyon, single]);
  expect(await bulkJobLabelIds(db, OTHER_SHOP, job.id)).toBeNull();
});

it("keeps a location's label whose attempt gave its slot back (voided), like the item's own label: the print leaves void labels out", async () => {
  const paris = await label(SHOP, SPLIT, { location: PARIS });
  const lyon = await label(SHOP, SPLIT, { location: LYON, slot: false });
  const job = await db.bulkJob.create({
    data: { shop: SHOP, environment: "staging", settingsJson: "{}", items: { create: [{ shop: SHOP, orderId: SPLIT, orderName: "#1", position: 0, status: "LABELLED", labelId: paris }] } },
  });
  expect(await bulkJobLabelIds(db, SHOP, job.id)).toEqual([paris, lyon]);
});
