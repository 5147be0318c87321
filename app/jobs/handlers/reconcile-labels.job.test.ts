/**
 * The background reconciler as a recurring job, on the real embedded queue over a test SQLite database; the
 * reconciler's label service and Shopify are faked as in app/labels/reconciler.server.test.ts.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { mockAdmin } from "../../../test/helpers/mock-admin";
import { createTestDatabaseUrl } from "../../../test/helpers/test-db";
import { createPrismaClient } from "../../db.server";
import type { ReconcilerDeps } from "../../labels/reconciler.server";
import { createEmbeddedQueue } from "../embedded-queue.server";
import { registerJobs } from "../registry";
import { startJobQueue } from "../start.server";
import type { JobQueue } from "../types";
import { RECONCILE_LABELS_JOB, reconcileLabelsJob, scheduleReconcileLabels } from "./reconcile-labels.job";

const database = createTestDatabaseUrl();
const db = createPrismaClient(database.url);
const queues: JobQueue[] = [];
const clients: ReturnType<typeof createPrismaClient>[] = [];
afterEach(async () => {
  for (const queue of queues.splice(0)) await queue.stop({ graceMs: 1000 });
  for (const client of clients.splice(0)) await client.$disconnect();
  await db.job.deleteMany();
  await db.jobSchedule.deleteMany();
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

  it("runs one pass per interval when two instances share the database", async () => {
    let clock = 1_000_000;
    const intervalMs = 60_000;
    const lookups: string[] = [];
    // Two app processes: each its own connection to the one database file.
    clients.push(createPrismaClient(database.url), createPrismaClient(database.url));
    const instances = clients.map((client) => createEmbeddedQueue({ db: client, dialect: "sqlite", pollMs: 20, now: () => clock }));
    queues.push(...instances);
    for (const queue of instances) {
      await registerJobs(queue, [reconcileLabelsJob(fakeDeps(lookups))]);
      await scheduleReconcileLabels(queue, intervalMs);
    }
    for (const queue of instances) await queue.start();

    for (let interval = 1; interval <= 3; interval++) {
      await expect.poll(() => runs("completed")).toBe(interval);
      await settle(); // many polls of both instances, none due
      expect(await runs()).toBe(interval);
      clock += intervalMs;
    }
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
    const deps: ReconcilerDeps = { ...fakeDeps([]), db: { purchaseAttempt: { findMany: () => Promise.reject(new Error("database is locked")) } } as never };
    const queue = createEmbeddedQueue({ db, dialect: "sqlite", pollMs: 20, now: () => clock });
    queues.push(queue);
    await registerJobs(queue, [reconcileLabelsJob(deps)]);
    await scheduleReconcileLabels(queue, 60_000);
    await queue.start();
    await expect.poll(() => runs("failed")).toBe(1);
    await settle();
    expect(await runs()).toBe(1);
    clock += 60_000;
    await expect.poll(() => runs("failed")).toBe(2);
  });
});
