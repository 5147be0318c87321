import { describe, expect, it } from "vitest";
import { BOTH_DATABASES, useDatabase } from "../../test/helpers/both-databases";
import { DEMO_SHIPPING_SETTINGS } from "../demo/seed-demo-shop.server";
import type { PrismaClient } from "../generated/prisma/client";
import type { AdminGraphqlClient } from "../shopify/admin-client";
import { createShopClientCache, databaseClientStamps, labelContextForShop, SHOP_CLIENTS_KEPT_MS } from "./context.server";
import type { LabelContext } from "./label-order.server";

type Service = Awaited<ReturnType<LabelContext["service"]>>;

/** A cache whose loaders count their calls and hand out a new client each time (told apart by `id`). */
function countingCache(options: { failFirstAdmin?: boolean } = {}) {
  let clock = 1_000_000;
  const loads = { admin: [] as string[], service: [] as string[] };
  /** What the clients are built from, per shop (and environment): null keeps none. */
  const stamps = new Map<string, string | null>();
  const cache = createShopClientCache({
    now: () => clock,
    stamps: {
      admin: async (shop) => (stamps.has(shop) ? stamps.get(shop)! : "token-1"),
      service: async (shop, environment) => (stamps.has(`${shop}|${environment}`) ? stamps.get(`${shop}|${environment}`)! : "saved-1"),
    },
    loadAdmin: async (shop, maxWaitMs) => {
      loads.admin.push(`${shop}|${maxWaitMs}`);
      if (options.failFirstAdmin && loads.admin.length === 1) throw new Error("no offline session yet");
      return { id: loads.admin.length, graphql: async () => new Response("{}") } as unknown as AdminGraphqlClient;
    },
    loadService: async (shop, environment) => {
      loads.service.push(`${shop}|${environment}`);
      return { id: loads.service.length } as unknown as Service;
    },
  });
  return { cache, loads, stamps, advance: (ms: number) => (clock += ms) };
}

const idOf = (client: unknown) => (client as { id: number }).id;

describe("createShopClientCache", () => {
  it("builds a shop's clients once for the items that follow within the kept time, then again", async () => {
    const { cache, loads, advance } = countingCache();
    const first = await Promise.all([cache.admin("a.myshopify.com", 30_000), cache.admin("a.myshopify.com", 30_000)]);
    expect(first.map(idOf)).toEqual([1, 1]);
    advance(SHOP_CLIENTS_KEPT_MS - 1);
    expect(idOf(await cache.admin("a.myshopify.com", 30_000))).toBe(1);
    expect(idOf(await cache.service("a.myshopify.com", "staging"))).toBe(1);
    advance(1);
    expect(idOf(await cache.admin("a.myshopify.com", 30_000))).toBe(2);
    expect(loads.admin).toEqual(["a.myshopify.com|30000", "a.myshopify.com|30000"]);
    advance(SHOP_CLIENTS_KEPT_MS - 1);
    expect(idOf(await cache.service("a.myshopify.com", "staging"))).toBe(2);
  });

  it("keeps a client per shop, per environment and per Shopify wait", async () => {
    const { cache, loads } = countingCache();
    await cache.service("a.myshopify.com", "staging");
    await cache.service("a.myshopify.com", "production");
    await cache.service("b.myshopify.com", "staging");
    await cache.admin("a.myshopify.com", 30_000);
    await cache.admin("a.myshopify.com", 10_000);
    await cache.admin("a.myshopify.com");
    expect(loads.service).toEqual(["a.myshopify.com|staging", "a.myshopify.com|production", "b.myshopify.com|staging"]);
    expect(loads.admin).toEqual(["a.myshopify.com|30000", "a.myshopify.com|10000", "a.myshopify.com|undefined"]);
  });

  it("builds again at once when what a client was built from changes, and keeps none while there is nothing to keep", async () => {
    const { cache, loads, stamps } = countingCache();
    expect(idOf(await cache.service("a.myshopify.com", "staging"))).toBe(1);
    stamps.set("a.myshopify.com|staging", "saved-2");
    expect(idOf(await cache.service("a.myshopify.com", "staging"))).toBe(2);
    expect(idOf(await cache.service("a.myshopify.com", "staging"))).toBe(2);
    expect(idOf(await cache.admin("a.myshopify.com"))).toBe(1);
    stamps.set("a.myshopify.com", null);
    expect(idOf(await cache.admin("a.myshopify.com"))).toBe(2);
    expect(idOf(await cache.admin("a.myshopify.com"))).toBe(3);
    stamps.set("a.myshopify.com", "token-2");
    expect(idOf(await cache.admin("a.myshopify.com"))).toBe(4);
    expect(idOf(await cache.admin("a.myshopify.com"))).toBe(4);
    expect(loads.service).toHaveLength(2);
  });

  it("shares a load that is not kept while it is under way (one token refresh for items starting together)", async () => {
    const { cache, loads, stamps } = countingCache();
    stamps.set("a.myshopify.com", null);
    const together = await Promise.all([cache.admin("a.myshopify.com"), cache.admin("a.myshopify.com"), cache.admin("a.myshopify.com")]);
    expect(together.map(idOf)).toEqual([1, 1, 1]);
    expect(idOf(await cache.admin("a.myshopify.com"))).toBe(2);
    expect(loads.admin).toHaveLength(2);
  });

  it("does not keep a failed load: the next item loads again", async () => {
    const { cache, loads } = countingCache({ failFirstAdmin: true });
    await expect(cache.admin("a.myshopify.com")).rejects.toThrow(/no offline session/);
    expect(idOf(await cache.admin("a.myshopify.com"))).toBe(2);
    expect(loads.admin).toHaveLength(2);
  });
});

describe("labelContextForShop with kept clients", () => {
  it("gives each item's context the shop's kept clients, built once", async () => {
    const { cache, loads } = countingCache();
    const frozen = { environment: "staging" as const, settings: DEMO_SHIPPING_SETTINGS, database: {} as PrismaClient, clients: cache };
    const one = await labelContextForShop("a.myshopify.com", frozen);
    const two = await labelContextForShop("a.myshopify.com", frozen);
    expect(two.admin).toBe(one.admin);
    expect(await two.service()).toBe(await one.service());
    expect(one.environment).toBe("staging");
    expect(one.settings).toBe(DEMO_SHIPPING_SETTINGS);
    expect(loads).toEqual({ admin: ["a.myshopify.com|undefined"], service: ["a.myshopify.com|staging"] });
  });
});

describe.each(BOTH_DATABASES)("databaseClientStamps on %s", (_name, open) => {
  let db: PrismaClient;
  useDatabase(open, (client) => (db = client));

  it("names the offline session's token, and nothing for a shop without one or whose token is soon refreshed", async () => {
    let clock = Date.parse("2026-11-28T12:00:00Z");
    const stamps = databaseClientStamps(db, { now: () => clock });
    expect(await stamps.admin("a.myshopify.com")).toBeNull();
    await db.session.create({ data: { id: "offline_a.myshopify.com", shop: "a.myshopify.com", state: "s", accessToken: "shpat_one" } });
    const first = await stamps.admin("a.myshopify.com");
    expect(first).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(first).not.toContain("shpat");
    expect(await stamps.admin("a.myshopify.com")).toBe(first);
    await db.session.update({ where: { id: "offline_a.myshopify.com" }, data: { accessToken: "shpat_two", expires: new Date(clock + 60 * 60_000) } });
    const second = await stamps.admin("a.myshopify.com");
    expect(second).not.toBeNull();
    expect(second).not.toBe(first);
    // Within 5 minutes of its expiry (the library refreshes it at the next load): not kept.
    clock += 60 * 60_000 - 5 * 60_000 - 1;
    expect(await stamps.admin("a.myshopify.com")).toBe(second);
    clock += 2;
    expect(await stamps.admin("a.myshopify.com")).toBeNull();
    await db.session.delete({ where: { id: "offline_a.myshopify.com" } });
    expect(await stamps.admin("a.myshopify.com")).toBeNull();
  });

  it("names when the label-service account was last saved, per environment", async () => {
    const stamps = databaseClientStamps(db);
    expect(await stamps.service("a.myshopify.com", "staging")).toBeNull();
    const saved = { shop: "a.myshopify.com", environment: "staging", email: "a@b.test", passwordCiphertext: "v1:x", keyVersion: 1 };
    await db.labelServiceAccount.create({ data: { ...saved, updatedAt: new Date("2026-11-28T10:00:00Z") } });
    expect(await stamps.service("a.myshopify.com", "staging")).toBe(String(Date.parse("2026-11-28T10:00:00Z")));
    expect(await stamps.service("a.myshopify.com", "production")).toBeNull();
    await db.labelServiceAccount.update({ where: { shop_environment: { shop: "a.myshopify.com", environment: "staging" } }, data: { passwordCiphertext: "v1:y" } });
    expect(await stamps.service("a.myshopify.com", "staging")).not.toBe(String(Date.parse("2026-11-28T10:00:00Z")));
  });
});
