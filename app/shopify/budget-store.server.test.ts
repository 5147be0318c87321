/**
 * The Shopify budget shared through the database: the same rules as the in-process one on a fixed clock (SQLite and
 * PostgreSQL) when a lease holds no more than the call; then its leases (decision 0193): statements counted, two
 * "processes" (two database clients, each with its own budget object) never handing out more than the bucket and its
 * restore, a dead process's lease forgotten, a THROTTLED answer correcting the row at once; then two processes
 * spending one shop's bucket on the Shopify emulator: no THROTTLED answer reaching a caller, the points spent follow
 * the restore rate, and far fewer statements than Admin calls.
 */
import pg from "pg";
import { z } from "zod";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "../db.server";
import { createTestDatabaseUrl } from "../../test/helpers/test-db";
import { createPostgresTestDatabase } from "../../test/helpers/test-postgres";
import { startShopifyEmulator, type ShopifyEmulator } from "../../emulators/shopify-admin/server";
import { DEMO_SHOP, DEMO_TOKEN } from "../../emulators/shopify-admin/test-helpers";
import { runAdmin, withShopifyBudget, type AdminGraphqlClient } from "./admin-client";
import { InProcessShopifyBudget, type ShopifyBudget, type ThrottleStatus } from "./budget";
import { createDatabaseShopifyBudget, type DatabaseBudgetConfig } from "./budget-store.server";
import { sql, sqlRunner, type SqlTarget } from "../jobs/sql.server";

type Options = Pick<DatabaseBudgetConfig, "leaseMs" | "flushMs" | "pendingGraceMs" | "idleMs"> & { wrap?: (target: SqlTarget) => SqlTarget };
type Budgets = {
  make(now?: () => number, assumed?: ThrottleStatus, options?: Options): ShopifyBudget & { expectedAvailable(shop: string): number | Promise<number> };
  close(): Promise<void>;
};

/** The database client as the budget sees it, counting its statements; `dead` makes every later statement fail. */
function counted(target: SqlTarget, counts: { statements: number; dead?: boolean }): SqlTarget {
  const check = () => {
    if (counts.dead) throw new Error("this process has died");
    counts.statements += 1;
  };
  if ("$queryRaw" in target) {
    return {
      $queryRaw: ((query) => (check(), target.$queryRaw(query))) as typeof target.$queryRaw,
      $executeRaw: ((query) => (check(), target.$executeRaw(query))) as typeof target.$executeRaw,
    };
  }
  return { query: async (text, values) => (check(), target.query(text, values)) };
}

const SETUPS: { label: string; setup: () => Promise<Budgets> }[] = [
  {
    label: "in process",
    async setup() {
      let shared: InProcessShopifyBudget | undefined;
      return {
        make: (now, assumed) => (shared ??= new InProcessShopifyBudget(now, assumed)),
        async close() {},
      };
    },
  },
  {
    label: "SQLite",
    async setup() {
      const { url, cleanup } = createTestDatabaseUrl();
      const clients: ReturnType<typeof createPrismaClient>[] = [];
      return {
        make(now, assumed, { wrap = (target: SqlTarget) => target, ...options } = {}) {
          const prisma = createPrismaClient(url);
          clients.push(prisma);
          return createDatabaseShopifyBudget({ db: wrap(prisma), dialect: "sqlite", now, assumed, ...options });
        },
        async close() {
          for (const client of clients) await client.$disconnect();
          cleanup();
        },
      };
    },
  },
  {
    label: "PostgreSQL",
    async setup() {
      const { url, drop } = await createPostgresTestDatabase();
      const pools: pg.Pool[] = [];
      return {
        make(now, assumed, { wrap = (target: SqlTarget) => target, ...options } = {}) {
          const pool = new pg.Pool({ connectionString: url, max: 4 });
          pool.on("error", () => undefined);
          pools.push(pool);
          return createDatabaseShopifyBudget({ db: wrap(pool), dialect: "postgresql", now, assumed, ...options });
        },
        async close() {
          for (const pool of pools) await pool.end();
          await drop();
        },
      };
    },
  },
];

const SMALL: ThrottleStatus = { maximumAvailable: 50, currentlyAvailable: 50, restoreRate: 10 };
/**
 * A lease no larger than the call and every answer written at once (decision 0180's one statement to reserve and one
 * to settle): the database budget then follows the in-process rules point for point.
 */
const NO_LEASE: Options = { leaseMs: 0, flushMs: 0 };

describe.each(SETUPS)("Shopify budget ($label)", ({ label, setup }) => {
  let budgets: Budgets;
  beforeAll(async () => {
    budgets = await setup();
  });
  afterAll(async () => {
    await budgets.close();
  });

  it("takes points, queues callers as a debt, and refuses past the wait bound", async () => {
    let clock = 1_000_000;
    const [a, b] = [budgets.make(() => clock, SMALL, NO_LEASE), budgets.make(() => clock, SMALL, NO_LEASE)];
    const shop = `keeps-${label}.myshopify.com`.replace(/ /g, "-");
    expect(await a.reserve(shop, 40, 0)).toMatchObject({ granted: true, waitMs: 0 });
    expect(await b.reserve(shop, 40, 10_000)).toMatchObject({ granted: true, waitMs: 3000 });
    expect(await a.reserve("other.myshopify.com", 40, 0)).toMatchObject({ granted: true, waitMs: 0 });
    expect(await b.reserve(shop, 40, 1000)).toMatchObject({ granted: false, waitMs: 7000 });
    // The first call's answer: it spent 5 of its 40, Shopify has 45; the second call still holds 40.
    await a.settle(shop, 40, { maximumAvailable: 50, currentlyAvailable: 45, restoreRate: 10 }, 5);
    expect(await b.expectedAvailable(shop)).toBeCloseTo(5);
    clock += 2000; // +20 points restored, but Shopify's bucket stops at 50 and the second call will take 40
    expect(await a.expectedAvailable(shop)).toBeCloseTo(10);
    // The second call's answer, nothing else in flight: Shopify's figure becomes the bucket.
    await b.settle(shop, 40, { maximumAvailable: 50, currentlyAvailable: 32, restoreRate: 10 }, 30);
    expect(await a.expectedAvailable(shop)).toBeCloseTo(32);
    clock += 60_000;
    expect(await b.expectedAvailable(shop)).toBeCloseTo(50);
  });

  it("gives back a THROTTLED call's whole reservation and learns the shop's plan from the answer", async () => {
    const clock = 5_000_000;
    const budget = budgets.make(() => clock, SMALL, NO_LEASE);
    const shop = `plan-${label}.myshopify.com`.replace(/ /g, "-");
    await budget.reserve(shop, 30, 0);
    await budget.reserve(shop, 20, 0);
    await budget.settle(shop, 30, { maximumAvailable: 50, currentlyAvailable: 20, restoreRate: 10 }, 0);
    expect(await budget.expectedAvailable(shop)).toBeCloseTo(0); // 20 at Shopify, less the 20 still in flight
    await budget.settle(shop, 20, { maximumAvailable: 4000, currentlyAvailable: 3990, restoreRate: 200 }, 10);
    expect(await budget.expectedAvailable(shop)).toBeCloseTo(3990);
  });

  it("never lets a late, older answer raise the expectation", async () => {
    const clock = 7_000_000;
    const budget = budgets.make(() => clock, SMALL, NO_LEASE);
    const shop = `late-${label}.myshopify.com`.replace(/ /g, "-");
    const first = await budget.reserve(shop, 20, 0);
    const second = await budget.reserve(shop, 20, 0);
    // The second call's answer arrives first (both charged: 10 left); then the first's, whose status predates the second.
    await budget.settle(shop, 20, { maximumAvailable: 50, currentlyAvailable: 10, restoreRate: 10 }, 20, second.ticket);
    await budget.settle(shop, 20, { maximumAvailable: 50, currentlyAvailable: 30, restoreRate: 10 }, 20, first.ticket);
    // Conservative (the second answer counted the first call as still to pay), and not raised to the stale 30.
    expect(await budget.expectedAvailable(shop)).toBeLessThanOrEqual(10);
  });

  it("forgets points held by a call that never settled once its grace has passed", async () => {
    if (label === "in process") return; // a process that dies takes its memory with it
    let clock = 9_000_000;
    const budget = budgets.make(() => clock, SMALL, NO_LEASE);
    const shop = `crash-${label}.myshopify.com`.replace(/ /g, "-");
    await budget.reserve(shop, 40, 0); // never settled
    clock += 10 * 60_000;
    await budget.reserve(shop, 10, 0);
    await budget.settle(shop, 10, { maximumAvailable: 50, currentlyAvailable: 48, restoreRate: 10 }, 2);
    expect(await budget.expectedAvailable(shop)).toBeCloseTo(48);
  });
});

const DATABASES = SETUPS.filter((setup) => setup.label !== "in process");

describe.each(DATABASES)("leases of one shop's budget ($label)", ({ label, setup }) => {
  let budgets: Budgets;
  beforeAll(async () => {
    budgets = await setup();
  });
  afterAll(async () => {
    await budgets.close();
  });
  const shopNamed = (name: string) => `${name}-${label}.myshopify.com`.replace(/ /g, "-");

  it("serves most calls from a lease and writes their answers in batches", async () => {
    const clock = 11_000_000;
    const counts = { statements: 0 };
    const plus = { maximumAvailable: 20_000, currentlyAvailable: 20_000, restoreRate: 1000 };
    const budget = budgets.make(() => clock, plus, { wrap: (target) => counted(target, counts) });
    const shop = shopNamed("batches");
    const CALLS = 40;
    for (let call = 1; call <= CALLS; call += 1) {
      const reservation = await budget.reserve(shop, 10, 0);
      expect(reservation).toMatchObject({ granted: true, waitMs: 0 });
      await budget.settle(shop, 10, { ...plus, currentlyAvailable: plus.currentlyAvailable - 10 * call }, 10, reservation.ticket);
    }
    // Everything the answers taught reaches the row: Shopify's last figure.
    expect(await budget.expectedAvailable(shop)).toBeCloseTo(plus.currentlyAvailable - 10 * CALLS);
    // Reserving and settling one call at a time took 2 statements a call (decision 0180).
    console.log(`leases (${label}): ${counts.statements} statements for ${CALLS} calls`);
    expect(counts.statements).toBeLessThanOrEqual(CALLS / 4);
  });

  it("never lets two processes hand out more than the bucket holds and restores", async () => {
    let clock = 13_000_000;
    const start = clock;
    const bucket = { maximumAvailable: 100, currentlyAvailable: 100, restoreRate: 50 };
    const processes = [budgets.make(() => clock, bucket), budgets.make(() => clock, bucket)];
    const shop = shopNamed("two-processes");
    const sent: { at: number; cost: number }[] = [];
    let refused = 0;
    // Each step, both processes' workers ask for points at once; the clock moves on by an uneven step.
    for (let step = 0; step < 30; step += 1) {
      await Promise.all(
        processes.flatMap((budget, index) =>
          [0, 1].map(async (worker) => {
            const cost = 7 + ((step + index + worker) % 3) * 4;
            const reservation = await budget.reserve(shop, cost, 2000);
            if (!reservation.granted) {
              refused += 1;
              return;
            }
            sent.push({ at: clock + reservation.waitMs, cost });
            await budget.settle(shop, cost, undefined, cost, reservation.ticket);
          }),
        ),
      );
      clock += 20 + ((step * 37) % 90);
    }
    expect(sent.length).toBeGreaterThan(10);
    // Every call sent by time T spent points the bucket held at the start or restored by T.
    sent.sort((x, y) => x.at - y.at);
    let spent = 0;
    for (const call of sent) {
      spent += call.cost;
      expect(spent).toBeLessThanOrEqual(bucket.maximumAvailable + ((call.at - start) * bucket.restoreRate) / 1000 + 1e-6);
    }
    console.log(`two processes (${label}): ${sent.length} calls, ${refused} refused, ${spent} points by ${sent.at(-1)!.at - start} ms`);
  });

  it("forgets the lease of a process that died once the grace has passed", async () => {
    let clock = 15_000_000;
    const dying = { statements: 0, dead: false };
    const doomed = budgets.make(() => clock, SMALL, { wrap: (target) => counted(target, dying), pendingGraceMs: 60_000 });
    const survivor = budgets.make(() => clock, SMALL, { pendingGraceMs: 60_000 });
    const shop = shopNamed("dead-lease");
    expect(await doomed.reserve(shop, 10, 0)).toMatchObject({ granted: true, waitMs: 0 });
    dying.dead = true; // never settles, never gives its lease back
    const held = SMALL.maximumAvailable - (await survivor.expectedAvailable(shop));
    expect(held).toBeGreaterThan(10); // the call's 10 points and the rest of the lease
    clock += 30_000; // within the grace: still held, whatever the restore
    expect(await survivor.expectedAvailable(shop)).toBeCloseTo(SMALL.maximumAvailable - held);
    clock += 31_000;
    expect(await survivor.expectedAvailable(shop)).toBeCloseTo(SMALL.maximumAvailable);
  });

  it("keeps a lease alive on the row while a call outlasts half the grace", async () => {
    let clock = 19_000_000;
    const holder = budgets.make(() => clock, SMALL, { pendingGraceMs: 2_000, flushMs: 20, idleMs: 60_000 });
    const reader = budgets.make(() => clock, SMALL, { pendingGraceMs: 2_000 });
    const shop = shopNamed("slow-call");
    expect(await holder.reserve(shop, 10, 0)).toMatchObject({ granted: true, waitMs: 0 });
    const held = SMALL.maximumAvailable - (await reader.expectedAvailable(shop));
    expect(held).toBeGreaterThanOrEqual(10);
    // The call is still waiting for Shopify well past the grace: the holder's timer renews its hold meanwhile.
    for (let step = 0; step < 6; step += 1) {
      clock += 1_100;
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    expect(await reader.expectedAvailable(shop)).toBeLessThanOrEqual(SMALL.maximumAvailable - 10);
  });

  it("does not bring back the row of a shop whose data was erased", async () => {
    const clock = 21_000_000;
    let target: SqlTarget | undefined;
    const budget = budgets.make(() => clock, SMALL, {
      wrap: (given) => {
        target = given;
        return given;
      },
    });
    const shop = shopNamed("erased");
    const flush = () => (budget as unknown as { flush(): Promise<void> }).flush();
    const first = await budget.reserve(shop, 10, 0);
    const second = await budget.reserve(shop, 10, 0);
    const run = sqlRunner(target!, label === "PostgreSQL" ? "postgresql" : "sqlite");
    await run.execute(sql`DELETE FROM "ShopifyBucket" WHERE "shop" = ${shop}`); // shop/redact
    // Both calls' answers arrive after the erasure, each written on its own.
    await budget.settle(shop, 10, { ...SMALL, currentlyAvailable: 35 }, 10, first.ticket);
    await flush();
    await budget.settle(shop, 10, { ...SMALL, currentlyAvailable: 30 }, 10, second.ticket);
    await flush();
    expect(await run.query(sql`SELECT "shop" FROM "ShopifyBucket" WHERE "shop" = ${shop}`)).toEqual([]);
  });

  it("gives the lease back and corrects the shared row as soon as an answer is THROTTLED", async () => {
    const clock = 17_000_000;
    const bucket = { maximumAvailable: 1000, currentlyAvailable: 1000, restoreRate: 100 };
    const [a, b, reader] = [budgets.make(() => clock, bucket), budgets.make(() => clock, bucket), budgets.make(() => clock, bucket)];
    const shop = shopNamed("throttled");
    const first = await a.reserve(shop, 50, 0);
    await b.reserve(shop, 50, 0);
    const before = await reader.expectedAvailable(shop);
    expect(before).toBeLessThanOrEqual(900); // both calls and whatever their leases hold
    // Someone else (another app? a process's stale view) spent the bucket: Shopify has 30 points and refuses a's call.
    await a.settle(shop, 50, { ...bucket, currentlyAvailable: 30 }, 0, first.ticket);
    // Shopify's 30, less what b still holds: b's call and its lease are not there either.
    const heldByB = (bucket.maximumAvailable - before) / 2; // the two processes leased alike
    expect(await reader.expectedAvailable(shop)).toBeCloseTo(30 - heldByB);
    // a's next call waits for the restore instead of meeting THROTTLED again.
    const again = await a.reserve(shop, 50, 10_000);
    expect(again.granted).toBe(true);
    expect(again.waitMs).toBeGreaterThanOrEqual(((50 - (30 - heldByB)) / bucket.restoreRate) * 1000);
  });
});

/** The emulator's answers, counted: the test's proof that no THROTTLED answer was ever produced. */
function countingClient(emulator: ShopifyEmulator, counts: { calls: number; throttled: number; spent: number }): AdminGraphqlClient {
  return {
    async graphql(query, options) {
      const response = await fetch(`${emulator.url}/admin/api/2026-10/graphql.json`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Shopify-Access-Token": DEMO_TOKEN },
        body: JSON.stringify({ query, variables: options?.variables ?? {} }),
      });
      const body = (await response.clone().json()) as { errors?: { extensions?: { code?: string } }[]; extensions?: { cost?: { actualQueryCost?: number | null } } };
      counts.calls += 1;
      if (body.errors?.some((error) => error.extensions?.code === "THROTTLED")) counts.throttled += 1;
      counts.spent += body.extensions?.cost?.actualQueryCost ?? 0;
      return response;
    },
  };
}

const TWENTY_ORDERS = "query TwentyOrders { orders(first: 20) { nodes { id } } }";
const twentyOrders = z.object({ orders: z.object({ nodes: z.array(z.object({ id: z.string() })) }) });

describe.each(SETUPS.filter((setup) => setup.label !== "in process"))("two processes on one shop's budget ($label)", ({ setup }) => {
  let budgets: Budgets;
  let emulator: ShopifyEmulator;
  afterEach(async () => {
    await emulator?.close();
    await budgets?.close();
  });

  /** Two processes, four workers each, making their calls one after the other against a bucket of `bucket`. */
  async function spend(bucket: { size: number; restoreRate: number }, callsPerWorker: number) {
    emulator = await startShopifyEmulator({ port: 0, bucket });
    budgets = await setup();
    const assumed = { maximumAvailable: bucket.size, currentlyAvailable: bucket.size, restoreRate: bucket.restoreRate };
    const counts = { calls: 0, throttled: 0, spent: 0, statements: 0 };
    const processes = [0, 1].map(() =>
      withShopifyBudget(countingClient(emulator, counts), {
        shop: DEMO_SHOP,
        budget: budgets.make(Date.now, assumed, { wrap: (target) => counted(target, counts) }),
        maxWaitMs: 60_000,
      }),
    );
    const started = Date.now();
    await Promise.all(
      processes.flatMap((admin) =>
        Array.from({ length: 4 }, async () => {
          for (let call = 0; call < callsPerWorker; call += 1) {
            const data = await runAdmin(admin, "TwentyOrders", TWENTY_ORDERS, {}, twentyOrders);
            expect(data.orders.nodes.length).toBe(20);
          }
        }),
      ),
    );
    const seconds = (Date.now() - started) / 1000;
    expect(counts.calls - counts.throttled).toBe(2 * 4 * callsPerWorker);
    // The bucket is the only bound on spending: what was spent cannot exceed what it held plus what it restored.
    expect(counts.spent).toBeLessThanOrEqual(bucket.size + bucket.restoreRate * seconds + 1);
    return { ...counts, seconds };
  }

  it("never meets THROTTLED, and spends at about the restore rate", async () => {
    // A small, fast bucket: 60 points, 300 per second; each call requests (and spends) 22.
    const bucket = { size: 60, restoreRate: 300 };
    const counts = await spend(bucket, 8);
    // None reached a caller (every call returned its data). Shopify-side, a loaded machine (CI, other suites on 2
    // cores) showed up to 4 of 64 answers THROTTLED on SQLite and 3 on PostgreSQL before leases (decision 0193: the
    // same machine, load 13), and 6 on SQLite in a CI run that shared the machine's 2 cores with other test runs,
    // each waited out by runAdmin: the shared estimate keeps them rare (here, at most one call in eight), it does not
    // make them impossible, since a late timer on a loaded machine spends a little after the estimate. Open question,
    // see decision 0180.
    expect(counts.throttled).toBeLessThanOrEqual(8);
    console.log(
      `two processes: ${counts.throttled} THROTTLED, ${counts.spent} points in ${counts.seconds.toFixed(2)} s = ${((counts.spent - bucket.size) / counts.seconds).toFixed(0)} points/s after the bucket (restore rate ${bucket.restoreRate}); ${counts.statements} statements for ${counts.calls} calls`,
    );
  }, 60_000);

  it("runs far fewer statements than Admin calls when the bucket is large", async () => {
    // Shopify Plus's bucket: every call is served at once, from leases.
    const counts = await spend({ size: 20_000, restoreRate: 1000 }, 10);
    expect(counts.throttled).toBe(0);
    console.log(`two processes, Plus bucket: ${counts.statements} statements for ${counts.calls} calls in ${counts.seconds.toFixed(2)} s`);
    // Reserving and settling each call was 2 statements a call (decision 0180).
    expect(counts.statements).toBeLessThanOrEqual(counts.calls / 2);
  }, 60_000);
});
