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
import { claimStatement, createEmbeddedQueue, dueStatement, FINISHED_JOBS_KEPT_MS } from "./embedded-queue.server";
import { TerminalJobError } from "./errors";
import type { Prisma } from "../generated/prisma/client";
import { joinSql, sql, sqlRunner, type Dialect, type PgLike, type PrismaLike, type SqlRunner, type SqlTarget } from "./sql.server";
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

  it("works off a backlog of old finished jobs 5,000 rows a pass, a pass a second, and keeps running jobs meanwhile", async () => {
    const { db, queue, clock } = await setup();
    await insertFinished(db, 6_200, clock.now - FINISHED_JOBS_KEPT_MS - HOUR_MS);
    await insertFinished(db, 3, clock.now - FINISHED_JOBS_KEPT_MS + HOUR_MS);
    const ran: number[] = [];
    await queue.work("ship", async (job) => void ran.push(job.payload as number));
    await queue.start();
    await queue.enqueue("ship", { shop: "s.myshopify.com", payload: 1 });
    // The first pass deletes 10 statements of 500 rows; with the clock standing still, no other pass runs.
    await waitFor(async () => (await finishedCount(db)) === 1_200 + 3 + 1, "the first pass and the job");
    await sleep(200);
    expect(await finishedCount(db)).toBe(1_204);
    expect(ran).toEqual([1]);
    // A second later the rest goes; the three jobs inside the week and the one just run stay.
    clock.now += 1000;
    await waitFor(async () => (await finishedCount(db)) === 4, "the backlog deleted");
  });

  it("claims as usual when the purge fails, and tries the purge again an hour later", async () => {
    const store = await open();
    const clock = { now: Date.now() };
    let purges = 0;
    const errors: unknown[] = [];
    const isPurge = (text: string) => text.startsWith('DELETE FROM "Job" WHERE "id" IN');
    const fail = () => {
      purges += 1;
      throw new Error("disk I/O error");
    };
    // The same database, except that the purge's statement fails.
    const target = store.target as Partial<PrismaLike & PgLike>;
    const failing: SqlTarget = target.$executeRaw
      ? {
          $queryRaw: ((query: Prisma.Sql) => target.$queryRaw!(query)) as PrismaLike["$queryRaw"],
          $executeRaw: ((query: Prisma.Sql) => (isPurge(query.sql) ? fail() : target.$executeRaw!(query))) as PrismaLike["$executeRaw"],
        }
      : { query: (text: string, values: unknown[]) => (isPurge(text) ? fail() : target.query!(text, values)) };
    const queue = createEmbeddedQueue({ db: failing, dialect, pollMs: 20, now: () => clock.now, onError: (error) => errors.push(error) });
    cleanups.push(store.close, () => queue.stop({ graceMs: 0 }));
    const ran: number[] = [];
    await queue.work("ship", async (job) => void ran.push(job.payload as number));
    await queue.start();
    for (const payload of [1, 2, 3]) await queue.enqueue("ship", { shop: "s.myshopify.com", payload });
    await waitFor(async () => ran.length === 3, "the three jobs");
    expect(purges).toBe(1);
    expect(errors).toEqual([expect.objectContaining({ message: "disk I/O error" })]);
    clock.now += HOUR_MS;
    await waitFor(async () => purges === 2, "the purge an hour later");
  });

  it("claims the earliest due among queued and lapsed jobs, up to the limit, and nothing else", async () => {
    const { db } = await setup();
    const at = 1_000_000n;
    const job = (id: string, state: string, runAfterMs: bigint, lease: bigint | null, attempts: number) =>
      sql`(${id}, 'ship', 's.myshopify.com', 'null', ${state}, NULL, ${runAfterMs}, ${attempts}, 3, 1000, 1, ${lease})`;
    await db.execute(sql`INSERT INTO "Job" ("id", "name", "shop", "payload", "state", "activeKey", "runAfterMs", "attempts",
      "maxAttempts", "backoffMs", "createdAtMs", "leaseUntilMs") VALUES ${joinSql([
        job("queued-early", "queued", 100n, null, 0),
        job("lapsed", "active", 200n, at - 1n, 1),
        job("queued-later", "queued", 300n, null, 0),
        job("queued-not-due", "queued", at + 1n, null, 0),
        job("lapsed-last-attempt", "active", 50n, at - 1n, 3),
        job("leased", "active", 60n, at + 60_000n, 1),
        job("finished", "completed", 10n, null, 1),
      ])}`);
    const claim = async (limit: number, token: string) =>
      (await db.query<{ id: string }>(claimStatement({ name: "ship", limit, at, token, leaseUntilMs: at + 60_000n, dialect }))).map((row) => row.id).sort();
    expect(await claim(2, "first")).toEqual(["lapsed", "queued-early"]);
    expect(await claim(5, "second")).toEqual(["queued-later"]);
    expect(await claim(5, "third")).toEqual([]);
    const rows = await db.query<{ id: string; claimToken: string; attempts: number }>(sql`SELECT "id", "claimToken", "attempts" FROM "Job" WHERE "claimToken" IS NOT NULL ORDER BY "id"`);
    expect(rows.map((row) => [row.id, row.claimToken, Number(row.attempts)])).toEqual([
      ["lapsed", "first", 2],
      ["queued-early", "first", 1],
      ["queued-later", "second", 1],
    ]);
  });

  it("names, in one read, exactly the names a claim would find a job for", async () => {
    const { db } = await setup();
    const at = 1_000_000n;
    const job = (name: string, state: string, runAfterMs: bigint, lease: bigint | null, attempts: number) =>
      sql`(${randomUUID()}, ${name}, 's.myshopify.com', 'null', ${state}, NULL, ${runAfterMs}, ${attempts}, 3, 1000, 1, ${lease})`;
    await db.execute(sql`INSERT INTO "Job" ("id", "name", "shop", "payload", "state", "activeKey", "runAfterMs", "attempts",
      "maxAttempts", "backoffMs", "createdAtMs", "leaseUntilMs") VALUES ${joinSql([
        job("due", "queued", at, null, 0),
        job("lapsed", "active", 10n, at - 1n, 1),
        job("not-yet", "queued", at + 1n, null, 0),
        job("last-attempt-lapsed", "active", 10n, at - 1n, 3),
        job("leased", "active", 10n, at + 60_000n, 1),
        job("finished", "completed", 10n, null, 1),
        job("finished", "failed", 10n, null, 3),
      ])}`);
    const names = ["due", "lapsed", "not-yet", "last-attempt-lapsed", "leased", "finished", "never-enqueued"];
    const due = await db.query<{ name: string }>(dueStatement({ names, at }));
    expect(due.map((row) => row.name).sort()).toEqual(["due", "lapsed"]);
    // What the claim takes at the same instant, name by name, agrees.
    for (const name of names) {
      const claimed = await db.query<{ id: string }>(claimStatement({ name, limit: 5, at, token: `t-${name}`, leaseUntilMs: at + 60_000n, dialect }));
      expect(claimed.length > 0, name).toBe(name === "due" || name === "lapsed");
    }
  });

  it("an idle queue's full polls read once each and write nothing", async () => {
    const store = await open();
    const texts: string[] = [];
    const target = store.target as Partial<PrismaLike & PgLike>;
    const counting: SqlTarget = target.$executeRaw
      ? {
          $queryRaw: ((query: Prisma.Sql) => (texts.push(query.sql), target.$queryRaw!(query))) as PrismaLike["$queryRaw"],
          $executeRaw: ((query: Prisma.Sql) => (texts.push(query.sql), target.$executeRaw!(query))) as PrismaLike["$executeRaw"],
        }
      : { query: (text: string, values: unknown[]) => (texts.push(text), target.query!(text, values)) };
    const queue = createEmbeddedQueue({ db: counting, dialect, pollMs: 20 });
    cleanups.push(store.close, () => queue.stop({ graceMs: 0 }));
    for (const name of ["a", "b", "c", "d", "e", "f"]) await queue.work(name, async () => undefined);
    await queue.start();
    const probes = () => texts.filter((text) => text.startsWith("SELECT CAST("));
    await waitFor(async () => probes().length >= 4, "four full polls");
    await queue.stop({ graceMs: 0 });
    const claim = /^(?:\/\* unsynced \*\/ )?UPDATE "Job"\s+SET "state" = 'active'/;
    const claims = texts.filter((text) => claim.test(text));
    expect(claims).toEqual([]);
    // The claim's text as the filter reads it, so the check above can fail.
    expect(claimStatement({ name: "a", limit: 1, at: 1n, token: "t", leaseUntilMs: 2n, dialect }).sql).toMatch(claim);
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

  it("probes each name's due range on the job index, never a pass over the table", () => {
    const { url, cleanup } = createTestDatabaseUrl();
    cleanups.push(async () => cleanup());
    const file = new Database(url.replace(/^file:/, ""));
    cleanups.push(async () => void file.close());
    const statement = dueStatement({ names: ["ship", "sweep"], at: 1000n });
    const plan = (file.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`).all(...statement.values) as { detail: string }[]).map((row) => row.detail);

    expect(plan.filter((detail) => detail.includes("(name=? AND state=? AND runAfterMs<?)"))).toHaveLength(2);
    expect(plan.filter((detail) => /^SCAN Job\b/.test(detail))).toEqual([]);
  });
});
