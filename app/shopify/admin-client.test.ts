/**
 * The Admin client against the Shopify emulator's real cost answers, with a tiny bucket and a fake clock shared by
 * the emulator and the client: sleeping advances the clock, so nothing here depends on wall time.
 */
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { DEMO_SHOP, DEMO_TOKEN, startTestEmulator, type TestEmulator } from "../../emulators/shopify-admin/test-helpers";
import { createTestDatabase } from "../../test/helpers/test-db";
import { realAdminFor } from "../../test/helpers/real-admin";
import { AdminApiError, AdminTransportError, runAdmin, ShopifyBusyError, withShopifyBudget, type AdminClock, type AdminGraphqlClient } from "./admin-client";
import { InProcessShopifyBudget, type ShopifyBudget } from "./budget";

const TWENTY_ORDERS = "query TwentyOrders { orders(first: 20) { nodes { id } } }"; // 2 + 20 x 1 = 22 points
const twentyOrders = z.object({ orders: z.object({ nodes: z.array(z.object({ id: z.string() })) }) });
const METAFIELD_SET = `mutation ThrottleTestMetafield($metafields: [MetafieldsSetInput!]!) {
  metafieldsSet(metafields: $metafields) { metafields { id } userErrors { field message } }
}`;
const metafieldSet = z.object({ metafieldsSet: z.object({ metafields: z.array(z.object({ id: z.string() })).nullish() }) });

let t: TestEmulator | undefined;
afterEach(async () => {
  await t?.emulator.close();
  t = undefined;
});

/** A clock whose sleep moves time forward at once, recording each wait. */
function fakeClock(start = 1_000_000) {
  const clock = {
    time: start,
    sleeps: [] as number[],
    now: () => clock.time,
    sleep: async (ms: number) => {
      clock.sleeps.push(ms);
      clock.time += ms;
    },
  };
  return clock satisfies AdminClock & { sleeps: number[] };
}

/**
 * Virtual time for concurrent callers: a sleeper wakes only when every call that holds points is either asleep or
 * answered, and the clock then jumps to the earliest wake-up. Calls are counted through the budget they reserve from.
 */
function virtualTime(inner: ShopifyBudget) {
  const sleepers: { at: number; wake: () => void }[] = [];
  let outstanding = 0;
  let pumping = false;
  const clock = {
    time: 1_000_000,
    sleeps: [] as number[],
    now: () => clock.time,
    sleep: (ms: number) =>
      new Promise<void>((wake) => {
        clock.sleeps.push(ms);
        sleepers.push({ at: clock.time + ms, wake });
        pump();
      }),
  };
  const pump = () => {
    if (pumping) return;
    pumping = true;
    const tick = () => {
      if (outstanding !== sleepers.length) return void setTimeout(tick, 1); // a call is on the wire: let it land first
      sleepers.sort((a, b) => a.at - b.at);
      const next = sleepers.shift();
      if (!next) return void (pumping = false);
      clock.time = Math.max(clock.time, next.at);
      next.wake();
      setTimeout(tick, 1);
    };
    setTimeout(tick, 1);
  };
  const budget: ShopifyBudget = {
    async reserve(shop, cost, maxWaitMs) {
      const reservation = await inner.reserve(shop, cost, maxWaitMs);
      if (reservation.granted) outstanding += 1;
      return reservation;
    },
    async settle(shop, reserved, status, spent) {
      outstanding -= 1;
      await inner.settle(shop, reserved, status, spent);
    },
  };
  return { clock, budget };
}

/** A minimal client posting to the emulator (answers as Responses, THROTTLED included), counting THROTTLED answers. */
function fetchClient(url: string) {
  const client = {
    throttledAnswers: 0,
    calls: 0,
    async graphql(query: string, options?: { variables?: Record<string, unknown> }) {
      client.calls += 1;
      const response = await fetch(`${url}/admin/api/2026-10/graphql.json`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Shopify-Access-Token": DEMO_TOKEN },
        body: JSON.stringify({ query, variables: options?.variables ?? {} }),
      });
      const text = await response.text();
      if (text.includes('"THROTTLED"')) client.throttledAnswers += 1;
      return new Response(text, { status: response.status });
    },
  };
  return client satisfies AdminGraphqlClient;
}

async function drain(times: number) {
  for (let i = 0; i < times; i += 1) expect((await t!.post(TWENTY_ORDERS)).body.errors).toBeUndefined();
}

describe("waiting out THROTTLED", () => {
  it("waits for the points the query requested, at the restore rate Shopify reports, then returns the data", async () => {
    const clock = fakeClock();
    t = await startTestEmulator({ bucket: { size: 50, restoreRate: 10 }, now: clock.now });
    await drain(2); // 50 - 22 - 22 = 6 points left
    const client = fetchClient(t.emulator.url);
    const data = await runAdmin(withShopifyBudget(client, { clock }), "TwentyOrders", TWENTY_ORDERS, {}, twentyOrders);
    expect(data.orders.nodes.length).toBe(20);
    // 22 requested, 6 available, 10 points/s: 1.6 s.
    expect(clock.sleeps).toEqual([1600]);
    expect(client.throttledAnswers).toBe(1);
    expect(client.calls).toBe(2);
  });

  it("waits out THROTTLED thrown by the library's own client (GraphqlQueryError)", async () => {
    const clock = fakeClock();
    t = await startTestEmulator({ bucket: { size: 50, restoreRate: 10 }, now: clock.now });
    const database = createTestDatabase();
    try {
      const admin = await realAdminFor(t.emulator.url, database.prisma, DEMO_SHOP, DEMO_TOKEN);
      await drain(2);
      const data = await runAdmin(withShopifyBudget(admin, { clock }), "TwentyOrders", TWENTY_ORDERS, {}, twentyOrders);
      expect(data.orders.nodes.length).toBe(20);
      expect(clock.sleeps).toEqual([1600]);
    } finally {
      await database.close();
    }
  });

  it("sends a THROTTLED mutation again (Shopify did not run it) and it takes effect once", async () => {
    const clock = fakeClock();
    t = await startTestEmulator({ bucket: { size: 50, restoreRate: 10 }, now: clock.now });
    await drain(2); // 6 left; a mutation requests 10
    const client = fetchClient(t.emulator.url);
    const orderId = "gid://shopify/Order/7100001002";
    await runAdmin(withShopifyBudget(client, { clock }), "ThrottleTestMetafield", METAFIELD_SET, {
      metafields: [{ ownerId: orderId, namespace: "$app", key: "throttle_test", type: "json", value: "{}" }],
    }, metafieldSet);
    expect(client.throttledAnswers).toBe(1);
    expect(clock.sleeps).toEqual([400]);
    const order = (await t.inspect("/__admin/orders/1002")).body as { metafields: { key: string }[] };
    expect(order.metafields.filter((metafield) => metafield.key === "throttle_test")).toHaveLength(1);
  });

  it("gives up with a retryable ShopifyBusyError when the wait would pass the bound, without sleeping past it", async () => {
    const clock = fakeClock();
    t = await startTestEmulator({ bucket: { size: 50, restoreRate: 10 }, now: clock.now });
    await drain(2);
    const client = fetchClient(t.emulator.url);
    const failure = await runAdmin(withShopifyBudget(client, { clock, maxWaitMs: 1000 }), "TwentyOrders", TWENTY_ORDERS, {}, twentyOrders).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ShopifyBusyError);
    expect(failure).toBeInstanceOf(AdminApiError);
    const busy = failure as ShopifyBusyError;
    expect(busy.retryable).toBe(true);
    expect(busy.kind).toBe("throttled");
    expect(busy.retryAfterMs).toBe(1600);
    expect(clock.sleeps).toEqual([]);
  });

  it("sends a query once more when the first call got no answer at all, but never a mutation", async () => {
    t = await startTestEmulator();
    const real = fetchClient(t.emulator.url);
    const flaky = (failures: number): AdminGraphqlClient & { calls: number } => {
      const client = {
        calls: 0,
        async graphql(query: string, options?: { variables?: Record<string, unknown> }) {
          client.calls += 1;
          if (client.calls <= failures) throw new Error("Http request error, no response available: GraphQL Client: fetch failed");
          return real.graphql(query, options);
        },
      };
      return client;
    };
    const once = flaky(1);
    expect((await runAdmin(once, "TwentyOrders", TWENTY_ORDERS, {}, twentyOrders)).orders.nodes).toHaveLength(20);
    expect(once.calls).toBe(2);
    const twice = flaky(2);
    await expect(runAdmin(twice, "TwentyOrders", TWENTY_ORDERS, {}, twentyOrders)).rejects.toBeInstanceOf(AdminTransportError);
    expect(twice.calls).toBe(2);
    const mutation = flaky(1);
    const args = { metafields: [{ ownerId: "gid://shopify/Order/7100001002", namespace: "$app", key: "transport_test", type: "json", value: "{}" }] };
    await expect(runAdmin(mutation, "ThrottleTestMetafield", METAFIELD_SET, args, metafieldSet)).rejects.toBeInstanceOf(AdminTransportError);
    expect(mutation.calls).toBe(1);
  });

  it("does not retry other GraphQL errors", async () => {
    const clock = fakeClock();
    t = await startTestEmulator({ now: clock.now });
    const client = fetchClient(t.emulator.url);
    const failure = await runAdmin(withShopifyBudget(client, { clock }), "Bad", "query Bad { shop { nope } }", {}, z.unknown()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AdminApiError);
    expect((failure as AdminApiError).kind).toBe("graphql");
    expect((failure as AdminApiError).retryable).toBe(false);
    expect(client.calls).toBe(1);
  });
});

describe("pacing by the shop's budget", () => {
  it("waits before sending when the shop's bucket (as last reported) cannot pay, so Shopify never answers THROTTLED", async () => {
    const clock = fakeClock();
    t = await startTestEmulator({ bucket: { size: 50, restoreRate: 10 }, now: clock.now });
    const client = fetchClient(t.emulator.url);
    const budget = new InProcessShopifyBudget(clock.now);
    const paced = withShopifyBudget(client, { shop: DEMO_SHOP, budget, clock });
    // The first answer teaches the client this query's requested cost (22) and the bucket (50 at 10/s).
    await runAdmin(paced, "TwentyOrders", TWENTY_ORDERS, {}, twentyOrders);
    for (let i = 0; i < 5; i += 1) await runAdmin(paced, "TwentyOrders", TWENTY_ORDERS, {}, twentyOrders);
    expect(client.throttledAnswers).toBe(0);
    expect(client.calls).toBe(6);
    // 28 after the first, 6 after the second; each later call waits for the 16 points it lacks (1.6 s), then 22 each (2.2 s).
    expect(clock.sleeps).toEqual([1600, 2200, 2200, 2200]);
  });

  it("paces concurrent calls of one shop: the later ones queue behind the earlier ones' reservations", async () => {
    const { clock, budget } = virtualTime(new InProcessShopifyBudget(() => clock.now()));
    t = await startTestEmulator({ bucket: { size: 50, restoreRate: 10 }, now: () => clock.now() });
    const client = fetchClient(t.emulator.url);
    const paced = withShopifyBudget(client, { shop: DEMO_SHOP, budget, clock });
    await runAdmin(paced, "TwentyOrders", TWENTY_ORDERS, {}, twentyOrders); // learns the cost and the bucket: 28 left
    await Promise.all(Array.from({ length: 4 }, () => runAdmin(paced, "TwentyOrders", TWENTY_ORDERS, {}, twentyOrders)));
    expect(client.throttledAnswers).toBe(0);
    expect(client.calls).toBe(5);
    // One goes at once (6 left); the others queue 16, 38 and 60 points short: 1.6, 3.8 and 6 s after it.
    expect(clock.sleeps.sort((a, b) => a - b)).toEqual([1600, 3800, 6000]);
  });

  it("keeps each shop's bucket apart", async () => {
    const budget = new InProcessShopifyBudget(() => 0, { maximumAvailable: 50, currentlyAvailable: 50, restoreRate: 10 });
    expect(await budget.reserve("a.myshopify.com", 40, 0)).toMatchObject({ granted: true, waitMs: 0 });
    expect(await budget.reserve("a.myshopify.com", 40, 10_000)).toMatchObject({ granted: true, waitMs: 3000 });
    expect(await budget.reserve("b.myshopify.com", 40, 0)).toMatchObject({ granted: true, waitMs: 0 });
    // Past the bound: nothing taken, and the answer says how long it would have been.
    expect(await budget.reserve("a.myshopify.com", 40, 1000)).toMatchObject({ granted: false, waitMs: 7000 });
    // The answer to the first call arrives (it spent 5 of its 40): 45 left at Shopify, less the 40 the second holds.
    await budget.settle("a.myshopify.com", 40, { maximumAvailable: 50, currentlyAvailable: 45, restoreRate: 10 }, 5);
    expect(budget.expectedAvailable("a.myshopify.com")).toBe(5);
  });
});
