/**
 * The sweeper of bulk items left RUNNING, on both queue adapters (embedded on SQLite; pg-boss on PostgreSQL with a
 * Prisma client generated for PostgreSQL): what it hands back, to which path, and that it never sends an item with an
 * open purchase back to be bought. The item's queue job is a recording handler here; its real run is run-item's.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabaseUrl } from "../../test/helpers/test-db";
import { createPostgresPrismaClient, createPostgresTestDatabase } from "../../test/helpers/test-postgres";
import { createPrismaClient } from "../db.server";
import type { PrismaClient } from "../generated/prisma/client";
import { createEmbeddedQueue } from "../jobs/embedded-queue.server";
import { createPgBossQueue } from "../jobs/pgboss-queue.server";
import type { JobQueue } from "../jobs/types";
import { orderSlot } from "../labels/purchase.server";
import { defaultShippingSettings } from "../shipping/settings";
import { BULK_LABEL_ITEM_JOB, itemJobKey } from "./item-job";
import { MAX_SWEEPS, sweepQueuedItems, sweepRunningItems, sweepStaleAfterMs } from "./sweeper.server";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SHOP = "a.myshopify.com";
const STALE_MS = 60_000;

interface Fixture {
  db: PrismaClient;
  queue: JobQueue;
  close(): Promise<void>;
}

async function sqliteFixture(): Promise<Fixture> {
  const { url, cleanup } = createTestDatabaseUrl();
  const db = createPrismaClient(url);
  const queue = createEmbeddedQueue({ db, dialect: "sqlite", pollMs: 20, leaseMs: 2000, onError: () => undefined });
  return {
    db,
    queue,
    async close() {
      await queue.stop({ graceMs: 0 });
      await db.$disconnect();
      cleanup();
    },
  };
}

async function pgBossFixture(): Promise<Fixture> {
  const database = await createPostgresTestDatabase();
  const client = await createPostgresPrismaClient<PrismaClient>(database.url);
  const db = client.prisma;
  const queue = createPgBossQueue({ databaseUrl: database.url, pollMs: 20, leaseMs: 2000, maintenanceIntervalSeconds: 1, onError: () => undefined });
  return {
    db,
    queue,
    async close() {
      await queue.stop({ graceMs: 0 });
      await client.close();
      await database.drop();
    },
  };
}

describe("the sweeper's threshold", () => {
  it("is the reconciler's staleness, and never less than twice the queue's lease", () => {
    expect(sweepStaleAfterMs(600_000, 60_000)).toBe(600_000);
    expect(sweepStaleAfterMs(15_000, 60_000)).toBe(120_000);
  });
});

describe.each([
  { label: "embedded on SQLite", setup: sqliteFixture },
  { label: "pg-boss on PostgreSQL", setup: pgBossFixture },
])("sweeping bulk items left RUNNING: $label", ({ setup }) => {
  let fixture: Fixture;
  let db: PrismaClient;
  /** The order ids the item job was run for, in order. */
  const runs: string[] = [];

  beforeAll(async () => {
    fixture = await setup();
    db = fixture.db;
    await fixture.queue.work<{ bulkJobId: string; orderId: string }>(BULK_LABEL_ITEM_JOB, async (job) => {
      runs.push(job.payload.orderId);
    });
    await fixture.queue.start();
  }, 120_000);
  afterAll(async () => fixture?.close());
  beforeEach(async () => {
    runs.length = 0;
    await db.purchaseAttempt.deleteMany();
    await db.bulkJobItem.deleteMany();
    await db.bulkJob.deleteMany();
  });

  /** A job with one item per order, all RUNNING (as a killed worker leaves them) unless told otherwise. */
  async function job(orders: string[], status: "RUNNING" | "CANCELLED" = "RUNNING", itemStatus: "RUNNING" | "QUEUED" = "RUNNING") {
    const created = await db.bulkJob.create({
      data: {
        shop: SHOP,
        environment: "staging",
        status,
        settingsJson: JSON.stringify(defaultShippingSettings),
        items: { create: orders.map((orderId, position) => ({ shop: SHOP, orderId, orderName: `#${position + 1}`, position, status: itemStatus, attempts: itemStatus === "RUNNING" ? 1 : 0 })) },
      },
    });
    return created.id;
  }
  const item = (jobId: string, orderId: string) => db.bulkJobItem.findFirstOrThrow({ where: { jobId, orderId } });
  const later = () => Date.now() + STALE_MS + 5_000;
  const sweep = (now = later) => sweepRunningItems({ db, queue: fixture.queue, staleAfterMs: STALE_MS, now });
  const sweepQueued = (now = later) => sweepQueuedItems({ db, queue: fixture.queue, staleAfterMs: STALE_MS, now });
  async function attempt(orderId: string, status: string) {
    return db.purchaseAttempt.create({
      data: { shop: SHOP, orderId, orderName: "#1", environment: "staging", customReference: `ref-${orderId}`, orderSlot: orderSlot(SHOP, orderId, 1), status, requestJson: "{}" },
    });
  }
  async function waitForRuns(count: number) {
    for (let i = 0; i < 200 && runs.length < count; i++) await sleep(25);
  }

  it("an item with nothing bought is queued again, with a queue job that runs it", async () => {
    const id = await job(["o1"]);
    expect((await sweep()).swept).toEqual({ [(await item(id, "o1")).id]: "queued" });
    expect(await item(id, "o1")).toMatchObject({ status: "QUEUED", reasonJson: expect.stringContaining("item_swept") });
    await waitForRuns(1);
    expect(runs).toEqual(["o1"]);
  });

  it("an item whose purchase may have happened becomes PENDING on that attempt, and is never queued to buy again", async () => {
    const id = await job(["o1", "o2", "o3"]);
    const unknown = await attempt("o1", "UNKNOWN");
    const inFlight = await attempt("o2", "PENDING");
    const review = await attempt("o3", "NEEDS_REVIEW");
    const { swept } = await sweep();
    expect(Object.values(swept)).toEqual(["pending", "pending", "pending"]);
    expect(await item(id, "o1")).toMatchObject({ status: "PENDING", attemptId: unknown.id, reasonJson: expect.stringContaining(unknown.customReference) });
    expect((await item(id, "o2")).attemptId).toBe(inFlight.id);
    expect((await item(id, "o3")).attemptId).toBe(review.id);
    // No item is left to run, so the job is finished (its PENDING items settle later from their attempts).
    expect((await db.bulkJob.findUniqueOrThrow({ where: { id } })).status).toBe("COMPLETED");
    await sleep(300);
    expect(runs).toEqual([]);
  });

  it("an item whose purchase is settled as bought runs again through the normal path (labelOrder reports that label)", async () => {
    const id = await job(["o1"]);
    await attempt("o1", "CREATED");
    expect(Object.values((await sweep()).swept)).toEqual(["queued"]);
    await waitForRuns(1);
    expect(runs).toEqual(["o1"]);
    expect((await item(id, "o1")).status).toBe("QUEUED");
  });

  it("an item still within its time is left alone", async () => {
    const id = await job(["o1"]);
    expect((await sweep(() => Date.now() + STALE_MS - 5_000)).swept).toEqual({});
    expect((await item(id, "o1")).status).toBe("RUNNING");
  });

  it("two sweepers at once (two instances) hand an item back once", async () => {
    const id = await job(["o1", "o2"]);
    const [a, b] = await Promise.all([sweep(), sweep()]);
    expect(Object.keys(a.swept).length + Object.keys(b.swept).length).toBe(2);
    await waitForRuns(2);
    await sleep(300);
    expect([...runs].sort()).toEqual(["o1", "o2"]);
    expect((await item(id, "o1")).status).toBe("QUEUED");
  });

  it("in a cancelled job, an item with nothing bought is cancelled and the job finishes", async () => {
    const id = await job(["o1"], "CANCELLED");
    expect(Object.values((await sweep()).swept)).toEqual(["cancelled"]);
    expect((await item(id, "o1")).status).toBe("CANCELLED");
    expect((await db.bulkJob.findUniqueOrThrow({ where: { id } })).finishedAt).not.toBeNull();
  });

  it(`an item that stalls ${MAX_SWEEPS} times is set aside REFUSED with a reason, nothing bought`, async () => {
    const id = await job(["o1"]);
    for (let sweeps = 1; sweeps <= MAX_SWEEPS; sweeps++) {
      expect(Object.values((await sweep()).swept)).toEqual(["queued"]);
      // Its new run claims it and dies again.
      await db.bulkJobItem.updateMany({ where: { jobId: id }, data: { status: "RUNNING" } });
    }
    expect(Object.values((await sweep()).swept)).toEqual(["refused"]);
    expect(await item(id, "o1")).toMatchObject({ status: "REFUSED", reasonJson: expect.stringContaining("item_stalled") });
  });

  // Order ids of their own below: a queue job enqueued by a test above may still run meanwhile.
  const ours = () => runs.filter((orderId) => orderId.startsWith("q"));
  async function waitForOurs(count: number) {
    for (let i = 0; i < 200 && ours().length < count; i++) await sleep(25);
  }
  it("an item left QUEUED whose queue job is gone is queued again, with a queue job that runs it", async () => {
    const id = await job(["q1"], "RUNNING", "QUEUED");
    expect((await sweepQueued()).swept).toEqual({ [(await item(id, "q1")).id]: "requeued" });
    await waitForOurs(1);
    expect(ours()).toEqual(["q1"]);
    expect((await item(id, "q1")).status).toBe("QUEUED");
  });

  it("an item QUEUED whose queue job still waits (delayed, or for a retry) is left alone", async () => {
    const id = await job(["q1", "q2"], "RUNNING", "QUEUED");
    await fixture.queue.enqueue(BULK_LABEL_ITEM_JOB, { shop: SHOP, payload: { bulkJobId: id, orderId: "q1" } }, { delayMs: 60_000, singletonKey: itemJobKey(id, "q1") });
    // Another shop's job for an item of the same ids is not this item's.
    await fixture.queue.enqueue(BULK_LABEL_ITEM_JOB, { shop: "b.myshopify.com", payload: { bulkJobId: id, orderId: "q2" } }, { delayMs: 60_000 });
    expect((await sweepQueued()).swept).toEqual({ [(await item(id, "q2")).id]: "requeued" });
    await waitForOurs(1);
    await sleep(300);
    expect(ours()).toEqual(["q2"]);
  });

  it("an item QUEUED within its time is left alone, its job or not", async () => {
    await job(["q1"], "RUNNING", "QUEUED");
    expect((await sweepQueued(() => Date.now() + STALE_MS - 5_000)).swept).toEqual({});
  });

  it("two sweepers at once queue a lost item once", async () => {
    await job(["q1", "q2"], "RUNNING", "QUEUED");
    const [a, b] = await Promise.all([sweepQueued(), sweepQueued()]);
    expect(Object.keys(a.swept).length + Object.keys(b.swept).length).toBe(2);
    await waitForOurs(2);
    await sleep(300);
    expect(ours().sort()).toEqual(["q1", "q2"]);
  });

  it("a RUNNING item handed back is not queued a second time by the QUEUED pass", async () => {
    const id = await job(["q1"]);
    // Stalled for real (its row last changed two thresholds ago), so both passes run on the real clock: the hand-back
    // must make the item fresh again, or the QUEUED pass would take it for a lost one once its new job has run.
    await db.bulkJobItem.updateMany({ where: { jobId: id }, data: { updatedAt: new Date(Date.now() - 2 * STALE_MS) } });
    expect(Object.values((await sweep(() => Date.now())).swept)).toEqual(["queued"]);
    await waitForOurs(1);
    expect((await sweepQueued(() => Date.now() + 1_000)).swept).toEqual({});
    await waitForOurs(1);
    await sleep(300);
    expect(ours()).toEqual(["q1"]);
  });
});
