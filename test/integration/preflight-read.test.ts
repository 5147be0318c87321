/**
 * A preflight's kept read (app/bulk/order-draft.server.ts) on both databases: written in several statements, sealed,
 * replaced by a newer read of the same order, this shop's stale reads pruned, and taken whole by the job (or not at
 * all when an order is missing), then gone.
 */
import { describe, expect, it, vi } from "vitest";
import { statements } from "../../app/db-direct.server";
import type { PrismaClient } from "../../app/generated/prisma/client";
import { keepPreflightRead, PREFLIGHT_READ_KEPT_MS, takePreflightRead } from "../../app/bulk/order-draft.server";
import { createSecretBox } from "../../app/security/secret-box.server";
import type { OrderForLabel } from "../../app/shopify/operations/order-for-label";
import { BOTH_DATABASES, useDatabase } from "../helpers/both-databases";

const SHOP = "kept-read.myshopify.com";
const OTHER_SHOP = "other-kept-read.myshopify.com";
const box = createSecretBox(new Map([[1, Buffer.alloc(32, 7)]]), 1);

function order(n: number, city = "Lyon"): OrderForLabel {
  return {
    id: `gid://shopify/Order/${n}`,
    name: `#${n}`,
    email: "anne@example.com",
    displayFulfillmentStatus: "UNFULFILLED",
    currencyCode: "EUR",
    presentmentCurrencyCode: "EUR",
    shippingAddress: { name: "Anne Martin", address1: "3 rue des Lilas", city, zip: "69001", countryCodeV2: "FR" },
    totalShippingPriceSet: { shopMoney: { amount: "5.00", currencyCode: "EUR" }, presentmentMoney: { amount: "5.00", currencyCode: "EUR" } },
    lineItems: { nodes: [] },
    fulfillmentOrders: { nodes: [] },
  } as unknown as OrderForLabel;
}

const ordersOf = (numbers: number[], city?: string) => new Map(numbers.map((n) => [`gid://shopify/Order/${n}`, order(n, city)]));
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

describe.each(BOTH_DATABASES)("a preflight's kept read on %s", (_name, open) => {
  let db: PrismaClient;
  useDatabase(open, (client) => (db = client));

  it("is kept sealed in several statements, a newer read replaces an order's, and the job takes it whole", async () => {
    const readAt = new Date("2026-11-27T08:00:00.000Z");
    const staleAt = new Date(readAt.getTime() - PREFLIGHT_READ_KEPT_MS - 1);
    await db.preflightRead.createMany({
      data: [
        { shop: SHOP, orderId: "gid://shopify/Order/1", orderSealed: "v1:stale", readAt: staleAt },
        { shop: OTHER_SHOP, orderId: "gid://shopify/Order/1", orderSealed: "v1:stale", readAt: staleAt },
      ],
    });
    // 250 orders: three INSERTs (after the pruning DELETE).
    const executed = vi.spyOn(statements(db), "$executeRaw");
    await keepPreflightRead(db, SHOP, ordersOf(range(100, 250)), readAt, box);
    const sqlOf = (call: unknown[]) => ((call[0] as { sql?: string }).sql ?? (call[0] as string[]).join("?")).trim();
    expect(executed.mock.calls.map((call) => sqlOf(call).split(" ")[0])).toEqual(["DELETE", "INSERT", "INSERT", "INSERT"]);
    executed.mockRestore();
    // A second preflight of some of them, a minute later, with a new address for one.
    const later = new Date(readAt.getTime() + 60_000);
    await keepPreflightRead(db, SHOP, ordersOf([100, 101], "Grenoble"), later, box);
    // A slower preflight that started before it and ended after it does not put its older read back.
    await keepPreflightRead(db, SHOP, ordersOf([101], "Annecy"), new Date(readAt.getTime() + 30_000), box);
    const replaced = await db.preflightRead.findMany({ where: { shop: SHOP, orderId: { in: ["gid://shopify/Order/100", "gid://shopify/Order/101"] } } });
    expect(replaced.map((row) => row.readAt.getTime())).toEqual([later.getTime(), later.getTime()]);

    const rows = await db.preflightRead.findMany({ where: { shop: SHOP }, orderBy: { orderId: "asc" } });
    expect(rows).toHaveLength(250);
    expect(rows.every((row) => row.orderSealed.startsWith("v1:") && !row.orderSealed.includes("Lilas"))).toBe(true);
    // Another shop's stale read is the retention's to prune, not this shop's preflight's.
    expect(await db.preflightRead.count({ where: { shop: OTHER_SHOP } })).toBe(1);

    const ids = range(100, 250).map((n) => `gid://shopify/Order/${n}`);
    const taken = await takePreflightRead(db, SHOP, ids, new Date(later.getTime() + 1000), box);
    expect(taken?.orders.size).toBe(250);
    expect(taken?.readAt.getTime()).toBe(readAt.getTime());
    expect(taken?.orders.get("gid://shopify/Order/100")?.shippingAddress?.city).toBe("Grenoble");
    expect(taken?.orders.get("gid://shopify/Order/101")?.shippingAddress?.city).toBe("Grenoble");
    expect(taken?.orders.get("gid://shopify/Order/102")?.shippingAddress?.city).toBe("Lyon");
    expect(await db.preflightRead.count({ where: { shop: SHOP } })).toBe(0);
  });

  it("is not taken when one order of the selection is missing or stale: the job reads the orders again", async () => {
    const readAt = new Date("2026-11-27T09:00:00.000Z");
    await keepPreflightRead(db, SHOP, ordersOf([1, 2]), readAt, box);
    const now = new Date(readAt.getTime() + 1000);
    expect(await takePreflightRead(db, SHOP, ["gid://shopify/Order/1", "gid://shopify/Order/2", "gid://shopify/Order/3"], now, box)).toBeNull();

    await keepPreflightRead(db, SHOP, ordersOf([1, 2]), readAt, box);
    expect(await takePreflightRead(db, SHOP, ["gid://shopify/Order/1", "gid://shopify/Order/2"], new Date(readAt.getTime() + PREFLIGHT_READ_KEPT_MS + 1), box)).toBeNull();
    // Taken or not, the rows are gone: the job's items keep their own copies.
    expect(await db.preflightRead.count({ where: { shop: SHOP } })).toBe(0);
  });
});
