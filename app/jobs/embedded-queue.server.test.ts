/**
 * What only the embedded adapter does (the shared contract is queue.contract.test.ts): how its claim reads the Job
 * table, and how long finished jobs stay in it (decision 0207). pg-boss keeps its own archive.
 */
import { randomUUID } from "node:crypto";
import Database from "libsql";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createPrismaClient } from "../db.server";
import { createTestDatabaseUrl } from "../../test/helpers/test-db";
import { createPostgresTestDatabase } from "../../test/helpers/test-postgres";
import { claimStatement, createEmbeddedQueue, FINISHED_JOBS_KEPT_MS } from "./embedded-queue.server";
import { TerminalJobError } from "./errors";
import { joinSql, sql, sqlRunner, type Dialect, type SqlRunner, type SqlTarget } from "./sql.server";
import type { JobQueue } from "./types";

const HOUR_MS = 60 * 60 * 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

type Store = { target: SqlTarget; db: SqlRunner; close(): Promise<void> };

const STORES: { dialect: Dialect; open(): Promise<Store> }[] = [
  {
    dialect: "sqlite",
    async open() {
      const { url, cleanup } = createTestDatabaseUrl();
      const prisma = createPrismaClient(url);
      return {
        target: prisma,
        db: sqlRunner(prisma, "sqlite"),
        async close() {
          await prisma.$disconnect();
          cleanup();
        },
      };
    },
  },
  {
    dialect: "postgresql",
    async open() {
      const { url, drop } = await createPostgresTestDatabase();
      const pool = new pg.Pool({ connectionString: url, max: 4 });
      pool.on("error", () => undefined);
      return {
        target: pool,
        db: sqlRunner(pool, "postgresql"),
        async close() {
          await pool.end();
          await drop();
        },
      };
    },
  },
];

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function jobs(db: SqlRunner): Promise<{ name: string; state: string }[]> {
  const rows = await db.query<{ name: string; state: string }>(sql`SELECT "name", "state" FROM "Job" ORDER BY "name", "state"`);
  return rows.map((row) => ({ name: row.name, state: row.state }));
}

async function finishedCount(db: SqlRunner): Promise<number> {
  const [row] = await db.query<{ n: number | bigint | string }>(sql`SELECT COUNT(*) AS "n" FROM "Job" WHERE "state" IN ('completed', 'failed')`);
  return Number(row!.n);
}

/** `count` jobs finished at `finishedAtMs`, written straight to the table (as months of work would have left them). */
async function insertFinished(db: SqlRunner, count: number, finishedAtMs: number): Promise<void> {
  for (let start = 0; start < count; start += 1000) {
    const values = Array.from({ length: Math.min(1000, count - start) }, () => {
      const at = BigInt(finishedAtMs);
      return sql`(${randomUUID()}, 'old', 's.myshopify.com', 'null', 'completed', NULL, ${at}, 1, 1, 1000, ${at}, ${at})`;
    });
    await db.execute(sql`INSERT INTO "Job" ("id", "name", "shop", "payload", "state", "activeKey", "runAfterMs", "attempts",
      "maxAttempts", "backoffMs", "createdAtMs", "finishedAtMs") VALUES ${joinSql(values)}`);
  }
}

describe.each(STORES)("embedded queue on $dialect", ({ dialect, open }) => {
  async function setup(): Promise<{ db: SqlRunner; queue: JobQueue; clock: { now: number } }> {
    const store = await open();
    const clock = { now: Date.now() };
    const queue = createEmbeddedQueue({ db: store.target, dialect, pollMs: 20, now: () => clock.now });
    cleanups.push(store.close, () => queue.stop({ graceMs: 0 }));
    return { db: store.db, queue, clock };
  }

  it("keeps a finished job a week, then deletes it; never a job still to run", async () => {
    const { db, queue, clock } = await setup();
    await queue.work("ship", async () => undefined);
    await queue.work("refuse", async () => {
      throw new TerminalJobError("no");
    });
    await queue.start();
    await queue.enqueue("ship", { shop: "s.myshopify.com", payload: 1 });
    await queue.enqueue("ship", { shop: "s.myshopify.com", payload: 2 });
    await queue.enqueue("refuse", { shop: "s.myshopify.com", payload: 3 });
    await queue.enqueue("later", { shop: "s.myshopify.com", payload: 4 }, { delayMs: 30 * 24 * HOUR_MS });
    await waitFor(async () => (await finishedCount(db)) === 3, "three finished jobs");

    // Six days on: nothing is old enough.
    clock.now += 6 * 24 * HOUR_MS;
    await queue.enqueue("ship", { shop: "s.myshopify.com", payload: 5 });
    await waitFor(async () => (await finishedCount(db)) === 4, "the fourth job");
    await sleep(200);
    expect(await finishedCount(db)).toBe(4);

    // A week and an hour after the first three finished: they go; the one finished a day later, and the delayed one, stay.
    clock.now += 24 * HOUR_MS + HOUR_MS;
    await waitFor(async () => (await finishedCount(db)) === 1, "the week-old jobs deleted");
    expect(await jobs(db)).toEqual([
      { name: "later", state: "queued" },
      { name: "ship", state: "completed" },
    ]);
  });

  it("works off a backlog of old finished jobs over several passes, and keeps running jobs meanwhile", async () => {
    const { db, queue, clock } = await setup();
    await insertFinished(db, 6_200, clock.now - FINISHED_JOBS_KEPT_MS - HOUR_MS);
    await insertFinished(db, 3, clock.now - FINISHED_JOBS_KEPT_MS + HOUR_MS);
    const ran: number[] = [];
    await queue.work("ship", async (job) => void ran.push(job.payload as number));
    await queue.start();
    await queue.enqueue("ship", { shop: "s.myshopify.com", payload: 1 });
    // One pass deletes at most 5,000 rows; the rest goes at the next ticks, not an hour later.
    await waitFor(async () => (await finishedCount(db)) === 4, "the backlog deleted", 30_000);
    expect(ran).toEqual([1]);
  });
});

describe("the embedded claim on SQLite", () => {
  it("reads the due range of the job index and updates by primary key, however many jobs of the name finished", () => {
    const { url, cleanup } = createTestDatabaseUrl();
    cleanups.push(async () => cleanup());
    const file = new Database(url.replace(/^file:/, ""));
    cleanups.push(async () => void file.close());
    const statement = claimStatement({ name: "ship", limit: 4, at: 1000n, token: "t", leaseUntilMs: 2000n, dialect: "sqlite" });
    const plan = (file.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`).all(...statement.values) as { detail: string }[]).map((row) => row.detail);

    expect(plan).toContain("SEARCH Job USING INDEX Job_name_state_runAfterMs_idx (name=? AND state=? AND runAfterMs<?)");
    expect(plan).toContain("SEARCH Job USING INDEX Job_name_state_runAfterMs_idx (name=? AND state=?)");
    expect(plan.some((detail) => /^SEARCH Job USING (INDEX sqlite_autoindex_Job_1|INTEGER PRIMARY KEY) \(id=\?\)/.test(detail))).toBe(true);
    // Never a pass over every row of the table or of the name.
    expect(plan.filter((detail) => /^SCAN Job\b/.test(detail) || /\(name=\?\)$/.test(detail))).toEqual([]);
  });
});
