/**
 * The background reconciler as a recurring job, on the real embedded queue over a test SQLite database; the
 * reconciler's label service and Shopify are faked as in app/labels/reconcile.server.test.ts.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { mockAdmin } from "../../../test/helpers/mock-admin";
import { createTestDatabaseUrl } from "../../../test/helpers/test-db";
import { createPostgresTestDatabase } from "../../../test/helpers/test-postgres";
import { DEFAULT_RECONCILE_TIMINGS } from "../../config.server";
import { createPrismaClient } from "../../db.server";
import type { ReconcilerDeps } from "../../labels/reconcile.server";
import { createEmbeddedQueue } from "../embedded-queue.server";
import { createPgBossQueue } from "../pgboss-queue.server";
import { registerJobs } from "../registry";
import { startJobQueue } from "../start.server";
import type { JobQueue } from "../types";
import { RECONCILE_LABELS_JOB, reconcileLabelsJob, scheduleReconcileLabels } from "./reconcile-labels.job";

const database = createTestDatabaseUrl();
const db = createPrismaClient(database.url);
const queues: JobQueue[] = [];
afterEach(async () => {
  for (const queue of queues.splice(0)) await queue.stop({ graceMs: 1000 });
  await db.job.deleteMany();
  await db.jobSchedule.deleteMany();
  await db.purchaseAttempt.deleteMany();
});
afterAll(async () => {
  await db.$disconnect();
  database.cleanup();
});

function fakeDeps(lookups: string[]): ReconcilerDeps {
  return {
    db,
    serviceFor: async () => ({
      generateLabel: async () => ({ status: "unknown" as const, error: { message: "unused" } }),
      lookUpLabelByReference: async (reference: string) => {
        lookups.push(reference);
        return { status: "absent" as const };
      },
    }),
    adminFor: async () => mockAdmin({}),
    notifyCustomerFor: async () => true,
  };
}

async function unknownPurchase(n: number) {
  return db.purchaseAttempt.create({
    data: { shop: "g.myshopify.com", orderId: `gid://shopify/Order/${n}`, orderName: `#${n}`, environment: "staging", customReference: `20261123-${n}`, orderSlot: `g|${n}|1`, status: "UNKNOWN", nextReconcileAt: new Date(0), requestJson: "{}" },
  });
}

const runs = (state?: string) => db.job.count({ where: { name: RECONCILE_LABELS_JOB, ...(state ? { state } : {}) } });
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe("the recurring reconciliation job", () => {
  it("runs a reconciliation pass as soon as the app's queue starts, without a request", async () => {
    const attempt = await unknownPurchase(95);
    const lookups: string[] = [];
    queues.push(await startJobQueue({ databaseUrl: database.url, prisma: db, reconcileIntervalMs: 60_000, pollMs: 20, reconciler: fakeDeps(lookups) }));

    await expect.poll(async () => (await db.purchaseAttempt.findUniqueOrThrow({ where: { id: attempt.id } })).reconcileCount).toBe(1);
    expect(lookups).toEqual(["20261123-95"]);
    await expect.poll(() => runs("completed")).toBe(1);
  });

  it("restarted within an interval, an instance still runs a first pass at once", async () => {
    let clock = 1_000_000;
    const deps = fakeDeps([]);
    const first = createEmbeddedQueue({ db, dialect: "sqlite", pollMs: 20, now: () => clock });
    await registerJobs(first, [reconcileLabelsJob(deps)]);
    await scheduleReconcileLabels(first, 60_000);
    await first.start();
    await expect.poll(() => runs("completed")).toBe(1);
    await first.stop({ graceMs: 1000 });

    clock += 1_000; // the schedule's next tick is 59 s ahead
    const restarted = createEmbeddedQueue({ db, dialect: "sqlite", pollMs: 20, now: () => clock });
    queues.push(restarted);
    await registerJobs(restarted, [reconcileLabelsJob(deps)]);
    await scheduleReconcileLabels(restarted, 60_000);
    await restarted.start();
    await expect.poll(() => runs("completed")).toBe(2);
  });

  it("a pass that fails is not retried; the next interval runs the next one", async () => {
    let clock = 1_000_000;
    // The pass's first read (dueAttempts, a plain statement) fails as a locked database does.
    const deps: ReconcilerDeps = { ...fakeDeps([]), db: { $queryRaw: () => Promise.reject(new Error("database is locked")) } as never };
    const queue = createEmbeddedQueue({ db, dialect: "sqlite", pollMs: 20, now: () => clock });
    queues.push(queue);
    await registerJobs(queue, [reconcileLabelsJob(deps)]);
    await scheduleReconcileLabels(queue, 60_000);
    await queue.start();
    await expect.poll(() => runs("failed")).toBe(1);
    const failed = await db.job.findFirstOrThrow({ where: { name: RECONCILE_LABELS_JOB, state: "failed" } });
    expect(failed.lastError).toContain("database is locked");
    await settle();
    expect(await runs()).toBe(1);
    clock += 60_000;
    await expect.poll(() => runs("failed")).toBe(2);
  });
});

/**
 * Two instances (each its own connection) on one queue database, both with the job scheduled, on a shared fake
 * clock. The reconciler's data stay in this file's SQLite database (its clock is real, its backoff all zeros), so
 * one purchase is looked up on every pass: the service sees exactly one lookup per interval.
 */
describe.each([
  {
    adapter: "embedded on SQLite",
    order: 7,
    async setup() {
      const clients: ReturnType<typeof createPrismaClient>[] = [];
      return {
        makeQueue(now: () => number) {
          const client = createPrismaClient(database.url);
          clients.push(client);
          return createEmbeddedQueue({ db: client, dialect: "sqlite", pollMs: 20, now });
        },
        async close() {
          for (const client of clients) await client.$disconnect();
        },
      };
    },
  },
  {
    adapter: "pg-boss on PostgreSQL",
    order: 8,
    async setup() {
      const { url, drop } = await createPostgresTestDatabase();
      return {
        makeQueue: (now: () => number) => createPgBossQueue({ databaseUrl: url, pollMs: 20, maintenanceIntervalSeconds: 1, now, onError: () => undefined }),
        close: drop,
      };
    },
  },
])("two instances sharing a queue database ($adapter)", ({ setup, order }) => {
  it("run one reconciliation pass per interval", async () => {
    const fixture = await setup();
    let clock = 1_000_000;
    const intervalMs = 60_000;
    const lookups: string[] = [];
    const deps: ReconcilerDeps = { ...fakeDeps(lookups), timings: { ...DEFAULT_RECONCILE_TIMINGS, backoffMs: Array<number>(10).fill(0) } };
    const instances = [fixture.makeQueue(() => clock), fixture.makeQueue(() => clock)];
    try {
      await unknownPurchase(order);
      for (const queue of instances) {
        await registerJobs(queue, [reconcileLabelsJob(deps)]);
        await scheduleReconcileLabels(queue, intervalMs);
      }
      for (const queue of instances) await queue.start();

      for (let interval = 1; interval <= 3; interval++) {
        await expect.poll(() => lookups.filter((reference) => reference === `20261123-${order}`).length, { timeout: 15_000 }).toBe(interval);
        await settle(); // many polls of both instances, none due
        expect(lookups).toEqual(Array<string>(interval).fill(`20261123-${order}`));
        clock += intervalMs;
      }
    } finally {
      for (const queue of instances) await queue.stop({ graceMs: 1000 });
      await fixture.close();
    }
  }, 60_000);
});
