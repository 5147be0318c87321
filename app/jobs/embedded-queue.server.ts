/**
 * The embedded adapter: jobs live in the app's own database (the Job table), are claimed by one
 * UPDATE ... RETURNING (so two processes on one SQLite file never run the same job) and run in-process.
 * A claim carries a lease renewed by heartbeats; a crashed worker's job is claimed again once its lease expired.
 * Works on SQLite (the default) and PostgreSQL (tests; PostgreSQL deployments use pg-boss).
 */
import { randomUUID } from "node:crypto";
import { pacedChunks } from "../event-loop";
import { errorFields, moduleLogger } from "../observability/logger.server";
import { joinSql, rawSql, sql, sqlRunner, unsynced, type Dialect, type SqlTarget } from "./sql.server";
import { createTickClaimer, ensureSchedule, RECURRING_SINGLETON_KEY } from "./schedule.server";
import {
  checkJob,
  DEFAULT_RETRY_BACKOFF_MS,
  retryLimitOf,
  type EnqueueOptions,
  type JobData,
  type JobHandler,
  type JobQueue,
  type JsonValue,
  type RecurringOptions,
  type StopOptions,
  type WorkOptions,
} from "./types";
import { WorkerLoop, type ClaimedJob, type JobStore, type Outcome } from "./worker-loop";

export type EmbeddedQueueConfig = {
  /** The app's Prisma client, or a pg pool (PostgreSQL). */
  db: SqlTarget;
  dialect: Dialect;
  pollMs?: number;
  leaseMs?: number;
  /** The clock (epoch ms); tests pass a fake one. */
  now?: () => number;
  onError?: (error: unknown) => void;
};

type ClaimedRow = { id: string; shop: string; payload: string; attempts: number; maxAttempts: number; backoffMs: number };

/** How often the embedded queue ends jobs whose last attempt lost its lease. */
const SWEEP_EVERY_MS = 1000;

/**
 * How long finished jobs stay in the table: 7 days, as pg-boss 10 keeps its archive (its `deleteAfterDays` default),
 * so an operator can look back at a week of work on either adapter. Without a limit the table grew by one row per
 * label and per recurring run, for ever (decision 0207).
 */
export const FINISHED_JOBS_KEPT_MS = 7 * 24 * 60 * 60 * 1000;

/** How often the finished jobs past FINISHED_JOBS_KEPT_MS are deleted, and how many rows one statement deletes. */
const PURGE_EVERY_MS = 60 * 60 * 1000;
const PURGE_ROWS_PER_STATEMENT = 500;
/** Statements per pass: a backlog (the first pass after an upgrade) is worked off a pass a second, not at once. */
const PURGE_STATEMENTS_PER_PASS = 10;

/**
 * Rows per INSERT in enqueueMany: 9 parameters each, far below SQLite's 32,766 and PostgreSQL's 65,535 parameters per
 * statement.
 */
const ENQUEUE_ROWS_PER_STATEMENT = 250;

/**
 * The claim: up to `limit` jobs of `name` made active under `token`, the earliest due first, among the queued jobs due
 * by `at` and the active ones whose lease lapsed before their last attempt (their worker died).
 * The two kinds are two ranges of the (name, state, runAfterMs) index, read apart so each stops at the limit: one
 * condition joining them with OR made the database read every job of the name, finished ones included, and sort them
 * on every claim. The outer condition is written so that no index serves it, so the update finds its rows by primary
 * key (decision 0207). On PostgreSQL the rows read are locked, and rows another claim holds are skipped.
 */
export function claimStatement(claim: { name: string; limit: number; at: bigint; token: string; leaseUntilMs: bigint; dialect: Dialect }) {
  const { name, limit, at } = claim;
  const lock = rawSql(claim.dialect === "postgresql" ? "FOR UPDATE SKIP LOCKED" : "");
  return sql`${unsynced}UPDATE "Job"
    SET "state" = 'active', "claimToken" = ${claim.token}, "leaseUntilMs" = ${claim.leaseUntilMs}, "attempts" = "attempts" + 1
    WHERE "id" IN (SELECT "id" FROM (
        SELECT "id", "runAfterMs" FROM (SELECT "id", "runAfterMs" FROM "Job"
          WHERE "name" = ${name} AND "state" = 'queued' AND "runAfterMs" <= ${at}
          ORDER BY "runAfterMs" LIMIT ${limit} ${lock}) AS "due"
        UNION ALL
        SELECT "id", "runAfterMs" FROM (SELECT "id", "runAfterMs" FROM "Job"
          WHERE "name" = ${name} AND "state" = 'active' AND "leaseUntilMs" < ${at} AND "attempts" < "maxAttempts"
          ORDER BY "runAfterMs" LIMIT ${limit} ${lock}) AS "lapsed"
      ) AS "candidates" ORDER BY "runAfterMs" LIMIT ${limit})
      AND CASE "state" WHEN 'queued' THEN "runAfterMs" <= ${at} WHEN 'active' THEN "leaseUntilMs" < ${at} ELSE FALSE END
    RETURNING "id", "shop", "payload", "attempts", "maxAttempts", "backoffMs"`;
}

/**
 * Which of `names` have a job the claim would take at `at` (claimStatement's two kinds), in one read: a full poll asks
 * it before claiming (decision 0216). One probe per name and kind on the (name, state, runAfterMs) index, each stopping
 * at its first row, so a long queue or a week of finished jobs costs nothing.
 */
export function dueStatement({ names, at }: { names: readonly string[]; at: bigint }) {
  const probes = names.map(
    (name) => sql`SELECT CAST(${name} AS TEXT) AS "name"
      WHERE EXISTS (SELECT 1 FROM "Job" WHERE "name" = ${name} AND "state" = 'queued' AND "runAfterMs" <= ${at})
        OR EXISTS (SELECT 1 FROM "Job" WHERE "name" = ${name} AND "state" = 'active' AND "leaseUntilMs" < ${at} AND "attempts" < "maxAttempts")`,
  );
  return joinSql(probes, " UNION ALL ");
}

export function createEmbeddedQueue(config: EmbeddedQueueConfig): JobQueue {
  const { dialect } = config;
  const db = sqlRunner(config.db, dialect);
  const now = config.now ?? Date.now;
  const recurring = new Map<string, RecurringOptions>();
  const claimTick = createTickClaimer(db);
  let lastSweepAt = Number.NEGATIVE_INFINITY;
  let lastPurgeAt = Number.NEGATIVE_INFINITY;
  const reportError = config.onError ?? ((error: unknown) => moduleLogger("jobs").error(errorFields(error), "embedded queue error"));

  /**
   * Writes jobs in multi-row INSERTs (decision 0203); the id of each job written, null where its key was already
   * queued or came earlier in the list (DO NOTHING skips the row, RETURNING names only the rows written).
   */
  async function insertJobs(name: string, jobs: readonly { data: JobData<JsonValue>; singletonKey?: string }[], options: Omit<EnqueueOptions, "singletonKey">) {
    const retryLimit = retryLimitOf(name, options);
    const at = now();
    const runAfterMs = BigInt(at + (options.delayMs ?? 0));
    const backoffMs = options.retryBackoffMs ?? DEFAULT_RETRY_BACKOFF_MS;
    const rows = jobs.map((job) => {
      const { shop, payload } = checkJob(name, job.data);
      return { id: randomUUID(), shop, payload: JSON.stringify(payload), activeKey: job.singletonKey === undefined ? null : `${name}:${job.singletonKey}` };
    });
    const client = options.tx ? sqlRunner(options.tx as SqlTarget, dialect) : db;
    const inserted = new Set<string>();
    // Hundreds of jobs (a bulk job's items) are several statements: the event loop gets its turns between them.
    for await (const chunk of pacedChunks(rows, ENQUEUE_ROWS_PER_STATEMENT)) {
      const values = chunk.map((row) => sql`(${row.id}, ${name}, ${row.shop}, ${row.payload}, 'queued', ${row.activeKey}, ${runAfterMs}, 0, ${retryLimit + 1}, ${backoffMs}, ${BigInt(at)})`);
      const written = await client.query<{ id: string }>(sql`INSERT INTO "Job" ("id", "name", "shop", "payload", "state", "activeKey",
          "runAfterMs", "attempts", "maxAttempts", "backoffMs", "createdAtMs")
        VALUES ${joinSql(values)}
        ON CONFLICT ("activeKey") DO NOTHING
        RETURNING "id"`);
      for (const row of written) inserted.add(row.id);
    }
    if (inserted.size > 0 && !options.tx && !options.delayMs) loop.wake(name); // a delayed job: the poll after its delay
    return rows.map((row) => (inserted.has(row.id) ? row.id : null));
  }

  async function enqueue<P extends JsonValue>(name: string, data: JobData<P>, options: EnqueueOptions = {}) {
    const { singletonKey, ...rest } = options;
    const [id] = await insertJobs(name, [{ data, singletonKey }], rest);
    return id ?? null;
  }

  const store: JobStore = {
    async claim(name, limit, leaseMs) {
      const at = BigInt(now());
      const token = randomUUID();
      const rows = await db.query<ClaimedRow>(claimStatement({ name, limit, at, token, leaseUntilMs: at + BigInt(leaseMs), dialect }));
      return rows.map(
        (row): ClaimedJob => ({
          id: row.id,
          name,
          shop: row.shop,
          payload: JSON.parse(row.payload) as JsonValue,
          attempt: Number(row.attempts),
          maxAttempts: Number(row.maxAttempts),
          backoffMs: Number(row.backoffMs),
          token,
        }),
      );
    },
    async due(names) {
      const rows = await db.query<{ name: string }>(dueStatement({ names, at: BigInt(now()) }));
      return new Set(rows.map((row) => row.name));
    },
    async renew(job, leaseMs) {
      const count = await db.execute(sql`${unsynced}UPDATE "Job" SET "leaseUntilMs" = ${BigInt(now() + leaseMs)}
        WHERE "id" = ${job.id} AND "claimToken" = ${job.token} AND "state" = 'active'`);
      return count === 1;
    },
    async settle(job, outcome: Outcome) {
      const at = BigInt(now());
      if (outcome.kind === "retry") {
        await db.execute(sql`${unsynced}UPDATE "Job" SET "state" = 'queued', "runAfterMs" = ${at + BigInt(outcome.delayMs)},
            "claimToken" = NULL, "leaseUntilMs" = NULL, "lastError" = ${outcome.error}
          WHERE "id" = ${job.id} AND "claimToken" = ${job.token} AND "state" = 'active'`);
        return;
      }
      const error = outcome.kind === "failed" ? outcome.error : null;
      await db.execute(sql`${unsynced}UPDATE "Job" SET "state" = ${outcome.kind}, "activeKey" = NULL, "finishedAtMs" = ${at},
          "claimToken" = NULL, "leaseUntilMs" = NULL, "lastError" = ${error}
        WHERE "id" = ${job.id} AND "claimToken" = ${job.token} AND "state" = 'active'`);
    },
    async tick() {
      const at = now();
      // Whether a pass last run at `last` is due again (a clock that went back counts as due).
      const due = (last: number, everyMs: number) => at - last >= everyMs || at < last;
      // A job whose last allowed attempt lost its lease (its worker died) ends failed instead of staying active. Swept
      // at most once a second (a lease is far longer than that), whatever the poll interval a queue was given.
      if (due(lastSweepAt, SWEEP_EVERY_MS)) {
        lastSweepAt = at;
        await db.execute(sql`${unsynced}UPDATE "Job" SET "state" = 'failed', "activeKey" = NULL, "finishedAtMs" = ${BigInt(at)},
            "claimToken" = NULL, "lastError" = 'lease expired on the last attempt'
          WHERE "state" = 'active' AND "leaseUntilMs" < ${BigInt(at)} AND "attempts" >= "maxAttempts"`);
      }
      // The purge never stands in the way of the claims: a failed one is reported and tried again in an hour, and a
      // backlog goes on a second later, not before every claim.
      if (due(lastPurgeAt, PURGE_EVERY_MS)) {
        lastPurgeAt = at;
        try {
          if (!(await purgeFinished(at))) lastPurgeAt = at - PURGE_EVERY_MS + SWEEP_EVERY_MS;
        } catch (error) {
          reportError(error);
        }
      }
      for (const [name, options] of recurring) {
        if (await claimTick(name, at, options.everyMs)) {
          await enqueue(name, { shop: options.shop ?? "*", payload: options.payload ?? null }, { singletonKey: RECURRING_SINGLETON_KEY, retryLimit: 0 });
        }
      }
    },
  };

  /**
   * Deletes finished jobs older than FINISHED_JOBS_KEPT_MS, a bounded number of rows per statement (each statement is one
   * short write) and per pass; true when none are left, false when a backlog remains. Every instance may run
   * it: deleting what another already deleted changes nothing. Reads the (state, finishedAtMs) index.
   */
  async function purgeFinished(at: number): Promise<boolean> {
    const before = BigInt(at - FINISHED_JOBS_KEPT_MS);
    for (let statement = 0; statement < PURGE_STATEMENTS_PER_PASS; statement += 1) {
      const deleted = await db.execute(sql`DELETE FROM "Job" WHERE "id" IN (SELECT "id" FROM "Job"
          WHERE "state" IN ('completed', 'failed') AND "finishedAtMs" < ${before} LIMIT ${PURGE_ROWS_PER_STATEMENT})`);
      if (deleted < PURGE_ROWS_PER_STATEMENT) return true;
    }
    return false;
  }

  const loop = new WorkerLoop(store, {
    pollMs: config.pollMs ?? 500,
    leaseMs: config.leaseMs ?? 60_000,
    onError: reportError,
  });

  return {
    kind: "embedded",
    enqueue,
    async enqueueMany(name, jobs, options = {}) {
      return insertJobs(name, jobs, options);
    },
    async work<P extends JsonValue>(name: string, handler: JobHandler<P>, options: WorkOptions = {}) {
      loop.register(name, handler as JobHandler, options.concurrency ?? 1);
    },
    async recurring(name: string, options: RecurringOptions) {
      if (!Number.isInteger(options.everyMs) || options.everyMs < 1) throw new Error(`Recurring "${name}": everyMs must be >= 1`);
      await ensureSchedule(db, name, options.everyMs, now());
      recurring.set(name, options);
    },
    async livePayloads(name: string, shop: string) {
      const rows = await db.query<{ payload: string }>(sql`SELECT "payload" FROM "Job"
        WHERE "name" = ${name} AND "shop" = ${shop} AND "state" IN ('queued', 'active')`);
      return rows.map((row) => JSON.parse(row.payload) as JsonValue);
    },
    async forgetShop(shop: string) {
      // A running job's row goes too: its handler finds nothing of the shop, and its settle updates no row.
      return db.execute(sql`DELETE FROM "Job" WHERE "shop" = ${shop}`);
    },
    async start() {
      loop.start();
    },
    async stop(options: StopOptions = {}) {
      await loop.stop(options.graceMs ?? 10_000);
    },
  };
}
