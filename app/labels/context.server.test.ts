import { describe, expect, it } from "vitest";
import { DEMO_SHIPPING_SETTINGS } from "../demo/seed-demo-shop.server";
import type { PrismaClient } from "../generated/prisma/client";
import type { AdminGraphqlClient } from "../shopify/admin-client";
import { createShopClientCache, labelContextForShop, SHOP_CLIENTS_KEPT_MS } from "./context.server";
import type { LabelContext } from "./label-order.server";

type Service = Awaited<ReturnType<LabelContext["service"]>>;

/** A cache whose loaders count their calls and hand out a new client each time (told apart by `id`). */
function countingCache(options: { failFirstAdmin?: boolean } = {}) {
  let clock = 1_000_000;
  const loads = { admin: [] as string[], service: [] as string[] };
  const cache = createShopClientCache({
    now: () => clock,
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
  return { cache, loads, advance: (ms: number) => (clock += ms) };
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
