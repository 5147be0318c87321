/** The bulk job's stored copies of orders (decision 0184) follow customers/redact, shop/redact and the retention pass. */
import { afterAll, beforeEach, expect, it } from "vitest";
import { createTestDatabase } from "../../test/helpers/test-db";
import { ORDER_DRAFT_FRESH_MS, PREFLIGHT_READ_KEPT_MS } from "../bulk/order-draft.server";
import { deleteShopData, redactCustomerOrders } from "./redact.server";
import { enforceRecipientRetention } from "./retention.server";

const database = createTestDatabase();
const db = database.prisma;
afterAll(() => database.close());

const SHOP = "a.myshopify.com";
const ORDER = "gid://shopify/Order/1";
const OTHER = "gid://shopify/Order/2";

beforeEach(async () => {
  await db.bulkJobItem.deleteMany();
  await db.bulkJob.deleteMany();
  await db.preflightRead.deleteMany();
});

async function stored(readAt: Date) {
  await db.bulkJob.create({
    data: {
      shop: SHOP, environment: "staging", settingsJson: "{}",
      items: { create: [ORDER, OTHER].map((orderId, position) => ({ shop: SHOP, orderId, orderName: `#${position}`, position, status: "QUEUED", orderSealed: "v1:x", orderReadAt: readAt })) },
    },
  });
  await db.preflightRead.createMany({ data: [ORDER, OTHER].map((orderId) => ({ shop: SHOP, orderId, orderSealed: "v1:x", readAt })) });
}

it("customers/redact drops the stored copies of the customer's orders only", async () => {
  await stored(new Date());
  await redactCustomerOrders(db, SHOP, [ORDER]);
  expect((await db.bulkJobItem.findMany({ where: { orderSealed: { not: null } } })).map((item) => item.orderId)).toEqual([OTHER]);
  expect((await db.preflightRead.findMany()).map((row) => row.orderId)).toEqual([OTHER]);
});

it("shop/redact drops the shop's kept preflight reads", async () => {
  await stored(new Date());
  await deleteShopData(db, SHOP);
  expect(await db.preflightRead.count()).toBe(0);
});

it("the retention pass drops copies past their use and keeps fresh ones", async () => {
  const now = new Date();
  await stored(new Date(now.getTime() - Math.max(ORDER_DRAFT_FRESH_MS, PREFLIGHT_READ_KEPT_MS) - 1000));
  const outcome = await enforceRecipientRetention(db, { now });
  expect(outcome.clearedOrderDrafts).toBe(4);
  expect(await db.bulkJobItem.count({ where: { orderSealed: { not: null } } })).toBe(0);
  expect(await db.preflightRead.count()).toBe(0);
  await db.bulkJobItem.deleteMany();
  await db.bulkJob.deleteMany();
  await stored(now);
  expect((await enforceRecipientRetention(db, { now })).clearedOrderDrafts).toBe(0);
});
