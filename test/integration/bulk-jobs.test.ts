/**
 * Bulk jobs end to end on the real queue, on both adapters (embedded on SQLite; pg-boss on PostgreSQL with a Prisma
 * client generated for PostgreSQL): the app's real Admin client against the Shopify emulator, the real label-service
 * client against the label sandbox. Labels bought are counted from the sandbox's inspection endpoint.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fulfilTestLabelsOn } from "../helpers/dev-store";
import { DEMO_SHOP, DEMO_TOKEN, startTestEmulator, type TestEmulator } from "../../emulators/shopify-admin/test-helpers";
import { DEMO_ACCOUNT, startLabelSandbox, type LabelSandbox } from "../../emulators/label-sandbox/server";
import { cancelBulkJob, createBulkJob, getBulkJob, listBulkJobs, retryFailedItems } from "../../app/bulk/bulk-jobs.server";
import { preflightBulkJob, readOrdersForPreflight } from "../../app/bulk/preflight.server";
import { destinationZone } from "../../app/shipping/customs";
import { bulkReasonText } from "../../app/bulk/reasons";
import type { BulkRunDeps } from "../../app/bulk/run-item.server";
import type { BulkJobView } from "../../app/bulk/types";
import { DEMO_SHIPPING_SETTINGS } from "../../app/demo/seed-demo-shop.server";
import { createPrismaClient } from "../../app/db.server";
import type { PrismaClient } from "../../app/generated/prisma/client";
import { createEmbeddedQueue } from "../../app/jobs/embedded-queue.server";
import { bulkLabelItemJob } from "../../app/jobs/handlers/bulk-label-item.job";
import { createPgBossQueue } from "../../app/jobs/pgboss-queue.server";
import { registerJobs } from "../../app/jobs/registry";
import { createSemaphore } from "../../app/jobs/semaphore.server";
import type { JobQueue } from "../../app/jobs/types";
import { createLabelServiceClient } from "../../app/label-service";
import type { LabelEnvironment } from "../../app/labels/environments";
import type { LabelContext } from "../../app/labels/label-order.server";
import { saveShippingSettings } from "../../app/settings/shipping-settings.server";
import { withShopifyBudget } from "../../app/shopify/admin-client";
import { InProcessShopifyBudget } from "../../app/shopify/budget";
import { createTestDatabaseUrl } from "../helpers/test-db";
import { createPostgresPrismaClient, createPostgresTestDatabase } from "../helpers/test-postgres";
import { realAdminFor } from "../helpers/real-admin";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const gid = (n: number) => `gid://shopify/Order/71000010${String(n).padStart(2, "0")}`;

/** Ready with the demo settings (French, EU, Swiss, UK and US destinations). */
const READY = [2, 3, 4, 6, 8, 35].map(gid);
/** A Swiss order whose product has no HS code: blocked before anything is bought. */
const NO_HS_CODE = gid(15);

interface Fixture {
  db: PrismaClient;
  /** A new queue, as if another app process (its own connections). */
  makeQueue(options?: { leaseMs?: number }): Promise<JobQueue>;
  dialect: "sqlite" | "postgresql";
  close(): Promise<void>;
}

async function sqliteFixture(): Promise<Fixture> {
  const { url, cleanup } = createTestDatabaseUrl();
  const db = createPrismaClient(url);
  const closers: (() => Promise<void>)[] = [];
  return {
    db,
    dialect: "sqlite",
    async makeQueue(options = {}) {
      const queue = createEmbeddedQueue({ db, dialect: "sqlite", pollMs: 20, leaseMs: options.leaseMs ?? 2000, onError: () => undefined });
      closers.push(() => queue.stop({ graceMs: 0 }));
      return queue;
    },
    async close() {
      for (const close of closers) await close();
      await db.$disconnect();
      cleanup();
    },
  };
}

/** A Prisma client generated for PostgreSQL (the checkout's client is SQLite's), on a fresh database. */
async function pgBossFixture(): Promise<Fixture> {
  const database = await createPostgresTestDatabase();
  const client = await createPostgresPrismaClient<PrismaClient>(database.url, { max: 8 });
  const db = client.prisma;
  const queues: JobQueue[] = [];
  return {
    db,
    dialect: "postgresql",
    async makeQueue(options = {}) {
      const queue = createPgBossQueue({ databaseUrl: database.url, pollMs: 20, leaseMs: options.leaseMs ?? 2000, maintenanceIntervalSeconds: 1, onError: () => undefined });
      queues.push(queue);
      return queue;
    },
    async close() {
      for (const queue of queues) await queue.stop({ graceMs: 0 });
      await client.close();
      await database.drop();
    },
  };
}

const ADAPTERS = [
  { label: "embedded on SQLite", setup: sqliteFixture },
  { label: "pg-boss on PostgreSQL", setup: pgBossFixture },
];

let emulator: TestEmulator;
let sandbox: LabelSandbox;

beforeAll(async () => {
  [emulator, sandbox] = await Promise.all([startTestEmulator(), startLabelSandbox({ port: 0 })]);
});
afterAll(async () => {
  await Promise.all([emulator?.emulator.close(), sandbox?.close()]);
});

async function bought() {
  return (await (await fetch(`${sandbox.url}/__admin/labels`)).json()) as { count: number; countByReference: Record<string, number> };
}
async function fault(config: unknown) {
  await fetch(`${sandbox.url}/__admin/faults`, { method: "POST", body: JSON.stringify(config) });
}
async function fulfillmentsOf(orderGid: string) {
  const number = orderGid.slice(-4);
  return ((await emulator.inspect(`/__admin/orders/${number}`)).body as { fulfillments: unknown[] }).fulfillments.length;
}

describe.each(ADAPTERS)("bulk jobs: $label", ({ setup }) => {
  let fx: Fixture;
  let admin: LabelContext["admin"];
  let environmentsSeen: LabelEnvironment[];

  beforeAll(async () => {
    fx = await setup();
    const real = await realAdminFor(emulator.emulator.url, fx.db, DEMO_SHOP, DEMO_TOKEN);
    admin = withShopifyBudget(real, { shop: DEMO_SHOP, maxWaitMs: 30_000, budget: new InProcessShopifyBudget() });
    await saveShippingSettings(fx.db, DEMO_SHOP, DEMO_SHIPPING_SETTINGS);
    // The Shopify step is under test: test labels reach the (development) store (decision 0170).
    await fulfilTestLabelsOn(fx.db, DEMO_SHOP);
  }, 180_000);
  afterAll(async () => {
    await fx?.close();
  });
  beforeEach(async () => {
    await fetch(`${sandbox.url}/__admin/reset`, { method: "POST" });
    await emulator.inspect("/__admin/reset", "POST");
    await fx.db.bulkJobItem.deleteMany();
    await fx.db.bulkJob.deleteMany();
    await fx.db.purchaseAttempt.deleteMany();
    await fx.db.label.deleteMany();
    await fx.db.semaphoreSlot.deleteMany();
    await fx.db.shopSettings.updateMany({ where: { shop: DEMO_SHOP }, data: { environment: "staging" } });
    environmentsSeen = [];
  });

  function service() {
    const client = createLabelServiceClient({
      shop: DEMO_SHOP,
      environment: "staging",
      account: { baseUrl: sandbox.url, ...DEMO_ACCOUNT },
      options: { generateTimeoutMs: 5_000, defaultTimeoutMs: 5_000 },
    });
    return client;
  }

  function context(environment: LabelEnvironment = "staging"): LabelContext {
    const client = service();
    return { shop: DEMO_SHOP, db: fx.db, admin, environment, settings: DEMO_SHIPPING_SETTINGS, service: async () => client };
  }

  function deps(overrides: Partial<BulkRunDeps> = {}): BulkRunDeps {
    return {
      db: fx.db,
      semaphore: createSemaphore({ db: fx.db, dialect: fx.dialect }),
      maxConcurrency: 4,
      refusalDelayMs: () => 50,
      async contextFor(shop, frozen) {
        environmentsSeen.push(frozen.environment);
        const client = service();
        return { shop, db: frozen.database, admin, environment: frozen.environment, settings: frozen.settings, service: async () => client };
      },
      ...overrides,
    };
  }

  let running: JobQueue[] = [];
  afterEach(async () => {
    // Each test's workers stop with it, so no work of one test runs into the next.
    await Promise.all(running.map((queue) => queue.stop({ graceMs: 5_000 })));
    running = [];
    await fault({ latency: { probability: 0 }, rateLimit: { next: 0 }, refuseLabel: { next: 0 } });
  });

  async function worker(options: { leaseMs?: number; concurrency?: number; runDeps?: Partial<BulkRunDeps> } = {}) {
    const queue = await fx.makeQueue({ leaseMs: options.leaseMs });
    running.push(queue);
    await registerJobs(queue, [bulkLabelItemJob(deps(options.runDeps), { concurrency: options.concurrency ?? 4 })]);
    return queue;
  }

  async function finished(id: string, timeoutMs = 60_000): Promise<BulkJobView> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = (await getBulkJob(fx.db, DEMO_SHOP, id))!;
      // finishedAt: the last item records it just after its own status (a cancelled job stays CANCELLED meanwhile).
      if (job.status !== "RUNNING" && job.finishedAt !== null && job.counts.remaining === 0 && job.counts.pending === 0) return job;
      if (Date.now() > deadline) throw new Error(`job ${id} did not finish: ${JSON.stringify(job.counts)}`);
      await sleep(50);
    }
  }

  it("preflight is free: ready, blocked grouped by cause, unknown and duplicate ids", async () => {
    const preflight = await preflightBulkJob(context(), [...READY, READY[0]!, NO_HS_CODE, "gid://shopify/Order/1", "not-an-order"]);
    expect(preflight.ready.map((order) => order.orderId)).toEqual(READY);
    expect(preflight.blocked.map((order) => order.orderId)).toEqual([NO_HS_CODE]);
    expect(preflight.unknown).toEqual(["gid://shopify/Order/1", "not-an-order"]);
    expect(preflight.groups).toHaveLength(1);
    expect(preflight.groups[0]!.orderCount).toBe(1);
    expect(bulkReasonText(preflight.blocked[0]!.reasons[0]!, "fr")).toMatch(/douane/i);
    expect(preflight.chargedLabels).toBe(0);
    expect((await bought()).count).toBe(0);
  });

  it("preflight asks the service what it sells to a destination while the other orders are still being read", async () => {
    const events: string[] = [];
    let lookedUp!: () => void;
    const firstLookup = new Promise<void>((resolve) => (lookedUp = resolve));
    const client = service();
    const watched = new Proxy(client, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (property === "carrierServices") {
          return (country: string) => {
            events.push("lookup");
            lookedUp();
            return client.carrierServices(country);
          };
        }
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    // Every order read after the first waits for a lookup (at most 3 s): read after the reads, the lookups come last.
    let reads = 0;
    const reading: LabelContext["admin"] = {
      pacing: admin.pacing,
      async graphql(query, options) {
        const order = query.includes("query OrderForLabel(");
        if (order && reads++ > 0) await Promise.race([firstLookup, sleep(3_000)]);
        const response = await admin.graphql(query, options);
        if (order) events.push("read");
        return response;
      },
    };
    const preflight = await preflightBulkJob({ ...context(), admin: reading, service: async () => watched }, READY);
    expect(preflight.ready.map((order) => order.orderId)).toEqual(READY);
    expect(events.indexOf("lookup")).toBeGreaterThanOrEqual(0);
    expect(events.indexOf("lookup")).toBeLessThan(events.lastIndexOf("read"));
  });

  it("preflight names the shipping rule (or zone default) that chose each order's service", async () => {
    const rule = { id: "ch-gb", name: "Switzerland and UK", when: { countries: ["CH", "GB"] }, then: { carrier: DEMO_SHIPPING_SETTINGS.carriers.world } };
    const preflight = await preflightBulkJob({ ...context(), settings: { ...DEMO_SHIPPING_SETTINGS, rules: [rule] } }, [...READY, NO_HS_CODE]);
    const orders = await readOrdersForPreflight(admin, [...READY, NO_HS_CODE]);
    const expected = (id: string) => {
      const order = orders.get(id)!;
      const country = order.shippingAddress?.countryCodeV2 ?? "";
      const sender = DEMO_SHIPPING_SETTINGS.sender;
      const zone = destinationZone({ country: sender.countryCode, zip: sender.zip }, { country, zip: order.shippingAddress?.zip ?? "" });
      return ["CH", "GB"].includes(country) ? "rule:1:Switzerland and UK" : `zone_default:${zone}`;
    };
    const seen = [...preflight.ready, ...preflight.blocked].map((order) => {
      const choice = order.serviceChoice;
      const said = choice?.source === "rule" ? `rule:${choice.position}:${choice.name}` : choice?.source === "zone_default" ? `zone_default:${choice.zone}` : String(choice?.source);
      return [order.orderId, said] as const;
    });
    expect(seen).toEqual([...READY, NO_HS_CODE].map((id) => [id, expected(id)]));
    expect(seen.filter(([, choice]) => choice.startsWith("rule:")).length).toBeGreaterThanOrEqual(2);
    expect(seen.filter(([, choice]) => choice.startsWith("zone_default:")).length).toBeGreaterThanOrEqual(2);
    expect((await bought()).count).toBe(0);
  });

  it("labels the ready orders, reports the blocked and the already labelled, and never buys twice", async () => {
    const queue = await worker();
    await queue.start();
    const before = await Promise.all(READY.map(fulfillmentsOf));
    const first = await createBulkJob(context(), { orderIds: [READY[0]!], staffUserId: "42", queue });
    await finished(first.id);
    const created = await createBulkJob(context(), { orderIds: [...READY, NO_HS_CODE], staffUserId: "42", queue });
    expect(created.url).toBe(`/app/bulk/${created.id}`);
    const job = await finished(created.id);
    expect(job.status).toBe("COMPLETED");
    expect(job.counts).toMatchObject({ total: 7, labelled: 6, blocked: 1, remaining: 0 });
    const byOrder = new Map(job.items.map((item) => [item.orderId, item]));
    expect(byOrder.get(READY[0]!)).toMatchObject({ status: "LABELLED", alreadyLabelled: true });
    expect(byOrder.get(READY[1]!)).toMatchObject({ status: "LABELLED", alreadyLabelled: false, trackingNumber: expect.any(String) });
    expect(byOrder.get(NO_HS_CODE)).toMatchObject({ status: "BLOCKED", reason: { code: "order_problem" } });
    const labels = await bought();
    expect(labels.count).toBe(READY.length);
    expect(Math.max(...Object.values(labels.countByReference))).toBe(1);
    expect((await Promise.all(READY.map(fulfillmentsOf))).map((count, index) => count - before[index]!)).toEqual(READY.map(() => 1));
    expect(new Set(environmentsSeen)).toEqual(new Set(["staging"]));
    const list = await listBulkJobs(fx.db, DEMO_SHOP);
    expect(list.map((entry) => entry.id)).toEqual([created.id, first.id]);
    expect(await getBulkJob(fx.db, "other-shop.myshopify.com", created.id)).toBeNull();
  });

  it("one refused order does not stop the others; Retry failed buys only it", async () => {
    const queue = await worker({ concurrency: 1 });
    await queue.start();
    await fault({ refuseLabel: { next: 1 } });
    const created = await createBulkJob(context(), { orderIds: READY.slice(0, 3), staffUserId: null, queue });
    const job = await finished(created.id);
    expect(job.counts).toMatchObject({ labelled: 2, refused: 1 });
    const refused = job.items.find((item) => item.status === "REFUSED")!;
    // The field the service named, in the merchant's words and with what to do; not its French text or field path.
    expect(refused.reason).toMatchObject({ code: "order_problem", params: { problem: "service_refused_field", path: "recipient.address_line1" } });
    for (const text of [refused.reason!.params!.messageEn, refused.reason!.params!.messageFr, refused.reason!.params!.fixFr]) {
      expect(text).not.toMatch(/recipient\.|address_line1|\.:|invalide \(/);
    }
    expect(refused.reason!.params!.messageEn).toMatch(/^Address.*refused/);
    expect(refused.reason!.params!.messageFr).toMatch(/^Adresse.*refusé/);
    // The service's own words about the field, quoted, and how a job's order is redone.
    expect(refused.reason!.params!.messageFr).toContain("« adresse inconnue du transporteur »");
    expect(refused.reason!.params!.fixEn).toMatch(/Retry failed/);
    expect((await bought()).count).toBe(2);

    const retry = await retryFailedItems(fx.db, DEMO_SHOP, created.id, { queue });
    expect(retry?.retried).toBe(1);
    const again = await finished(created.id);
    expect(again.counts).toMatchObject({ labelled: 3, refused: 0 });
    expect((await bought()).count).toBe(3);
    expect(await retryFailedItems(fx.db, "other-shop.myshopify.com", created.id, { queue })).toBeNull();
  });

  it("a 429 is retried with backoff; repeated, the item ends REFUSED with nothing charged", async () => {
    const queue = await worker({ concurrency: 1 });
    await queue.start();
    await fault({ rateLimit: { next: 2, retryAfterSeconds: 0 } });
    const created = await createBulkJob(context(), { orderIds: [READY[0]!], staffUserId: null, queue });
    expect((await finished(created.id)).counts.labelled).toBe(1);
    await fault({ rateLimit: { next: 50, retryAfterSeconds: 0 } });
    const second = await createBulkJob(context(), { orderIds: [READY[1]!], staffUserId: null, queue });
    const job = await finished(second.id);
    expect(job.items[0]).toMatchObject({ status: "REFUSED", reason: { code: "service_retries_exhausted" } });
    expect((await bought()).count).toBe(1);
    await fault({ rateLimit: { next: 0 } });
  });

  it("Cancel stops the items not started; the running one finishes", async () => {
    await fault({ latency: { probability: 1, minMs: 400, maxMs: 400 } });
    const queue = await worker({ concurrency: 1, runDeps: { maxConcurrency: 1 } });
    await queue.start();
    const created = await createBulkJob(context(), { orderIds: READY, staffUserId: null, queue });
    for (let i = 0; i < 200; i++) {
      const job = (await getBulkJob(fx.db, DEMO_SHOP, created.id))!;
      if (job.items.some((item) => item.status === "RUNNING")) break;
      await sleep(20);
    }
    const cancelled = await cancelBulkJob(fx.db, DEMO_SHOP, created.id);
    expect(cancelled!.cancelled).toBeGreaterThan(0);
    expect(cancelled!.job.status).toBe("CANCELLED");
    const job = await finished(created.id);
    await fault({ latency: { probability: 0 } });
    expect(job.status).toBe("CANCELLED");
    expect(job.finishedAt).not.toBeNull();
    expect(job.counts.cancelled).toBe(cancelled!.cancelled);
    expect(job.counts.labelled + job.counts.cancelled).toBe(READY.length);
    expect((await bought()).count).toBe(job.counts.labelled);
    expect(await cancelBulkJob(fx.db, "other-shop.myshopify.com", created.id)).toBeNull();
  });

  it("the environment is frozen: switching the shop to production mid-job charges nothing", async () => {
    await fault({ latency: { probability: 1, minMs: 100, maxMs: 100 } });
    const queue = await worker({ concurrency: 1 });
    await queue.start();
    const created = await createBulkJob(context(), { orderIds: READY.slice(0, 3), staffUserId: null, queue });
    await fx.db.shopSettings.update({ where: { shop: DEMO_SHOP }, data: { environment: "production" } });
    const job = await finished(created.id);
    await fault({ latency: { probability: 0 } });
    expect(job.environment).toBe("staging");
    expect(new Set(environmentsSeen)).toEqual(new Set(["staging"]));
    expect((await fx.db.label.findMany()).map((label) => label.environment)).toEqual(["staging", "staging", "staging"]);
  });

  it("a production job needs the charged number confirmed", async () => {
    const queue = await worker();
    await expect(createBulkJob(context("production"), { orderIds: READY.slice(0, 2), staffUserId: null, queue })).rejects.toMatchObject({ code: "confirmation_required", params: { chargedLabels: "2" } });
    await expect(createBulkJob(context("production"), { orderIds: READY.slice(0, 2), confirmChargedLabels: 3, staffUserId: null, queue })).rejects.toMatchObject({ code: "confirmation_required" });
    expect(await fx.db.bulkJob.count()).toBe(0);
  });

  it("a queue stopped with work in flight, then a new one: the job completes, no order bought twice", async () => {
    await fault({ latency: { probability: 1, minMs: 300, maxMs: 300 } });
    const before = await Promise.all(READY.map(fulfillmentsOf));
    const first = await worker({ leaseMs: 1500, concurrency: 2 });
    await first.start();
    const created = await createBulkJob(context(), { orderIds: READY, staffUserId: null, queue: first });
    for (let i = 0; i < 200; i++) {
      const job = (await getBulkJob(fx.db, DEMO_SHOP, created.id))!;
      if (job.counts.labelled >= 1 && job.items.some((item) => item.status === "RUNNING")) break;
      await sleep(20);
    }
    await first.stop({ graceMs: 0 });
    const second = await worker({ leaseMs: 1500, concurrency: 4 });
    await second.start();
    const job = await finished(created.id, 90_000);
    await fault({ latency: { probability: 0 } });
    expect(job.counts).toMatchObject({ labelled: READY.length, remaining: 0, pending: 0 });
    const labels = await bought();
    expect(labels.count).toBe(READY.length);
    expect(Math.max(...Object.values(labels.countByReference))).toBe(1);
    expect((await Promise.all(READY.map(fulfillmentsOf))).map((count, index) => count - before[index]!)).toEqual(READY.map(() => 1));
  }, 120_000);

  it("two workers on one job never buy an order twice", async () => {
    const [a, b] = [await worker({ concurrency: 3 }), await worker({ concurrency: 3 })];
    const created = await createBulkJob(context(), { orderIds: READY, staffUserId: null, queue: a });
    await Promise.all([a.start(), b.start()]);
    const job = await finished(created.id);
    expect(job.counts.labelled).toBe(READY.length);
    const labels = await bought();
    expect(labels.count).toBe(READY.length);
    expect(Math.max(...Object.values(labels.countByReference))).toBe(1);
  });
});
