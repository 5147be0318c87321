/**
 * The pg-boss adapter (PostgreSQL, several app instances). pg-boss 10 stores and fetches the jobs (SKIP LOCKED,
 * expiry of dead workers' jobs in its maintenance); our WorkerLoop runs them, so handlers, errors, concurrency,
 * leases and stop() behave exactly as in the embedded adapter. Where pg-boss has no matching notion we add a few
 * statements on its job table (pinned to pg-boss 10.x; see docs/decisions/0100-job-queue.md):
 *   - lease: expire_in is the lease, renewed by moving started_on forward; started_on is also the fencing token;
 *   - singleton key "while queued or active": an advisory lock on the key + a check, in the enqueue transaction;
 *   - terminal errors: retry_limit lowered to the attempts made before pg-boss's fail();
 *   - retry backoff in milliseconds: start_after set in the same transaction as the fail().
 */
import { randomUUID } from "node:crypto";
import PgBoss from "pg-boss";
import pg from "pg";
import { errorFields, moduleLogger } from "../observability/logger.server";
import { createTickClaimer, ensureSchedule, RECURRING_SINGLETON_KEY } from "./schedule.server";
import { rawSql, sql, sqlRunner, type PgLike, type PrismaLike } from "./sql.server";
import {
  checkJob,
  DEFAULT_RETRY_BACKOFF_MS,
  retryLimitOf,
  type EnqueueOptions,
  type JobData,
  type JobHandler,
  type JobQueue,
  type JobTransaction,
  type JsonValue,
  type RecurringOptions,
  type StopOptions,
  type WorkOptions,
} from "./types";
import { WorkerLoop, type ClaimedJob, type JobStore } from "./worker-loop";

export type PgBossQueueConfig = {
  databaseUrl: string;
  /** pg-boss's schema (default "pgboss"). */
  schema?: string;
  pollMs?: number;
  leaseMs?: number;
  /** How often pg-boss's maintenance expires dead workers' jobs (default 30 s; one instance does it at a time). */
  maintenanceIntervalSeconds?: number;
  now?: () => number;
  onError?: (error: unknown) => void;
};

type Executor = (text: string, values: unknown[]) => Promise<{ rows: unknown[]; rowCount: number }>;
type StoredData = { shop: string; payload: JsonValue; backoffMs: number };
type FetchedJob = PgBoss.JobWithMetadata<StoredData>;

function executorOf(target: JobTransaction | pg.PoolClient): Executor {
  const prisma = target as PrismaLike & { $queryRawUnsafe?: (text: string, ...values: unknown[]) => Promise<unknown[]> };
  if (typeof prisma.$queryRawUnsafe === "function") {
    const run = prisma.$queryRawUnsafe.bind(prisma);
    return async (text, values) => {
      const rows = await run(text, ...values);
      return { rows, rowCount: rows.length };
    };
  }
  const client = target as PgLike;
  return async (text, values) => {
    const result = await client.query(text, values);
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  };
}

export function createPgBossQueue(config: PgBossQueueConfig): JobQueue {
  const schema = config.schema ?? "pgboss";
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`pg-boss schema "${schema}" must be a plain identifier`);
  const now = config.now ?? Date.now;
  const leaseMs = config.leaseMs ?? 60_000;
  const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 4 });
  const db = sqlRunner(pool, "postgresql");
  const onError = config.onError ?? ((error: unknown) => moduleLogger("jobs").error(errorFields(error), "pg-boss queue error"));
  pool.on("error", onError); // an idle connection dropped by the server must not crash the process
  const boss = new PgBoss({
    connectionString: config.databaseUrl,
    schema,
    max: 4,
    schedule: false,
    supervise: true,
    maintenanceIntervalSeconds: config.maintenanceIntervalSeconds ?? 30,
  });
  boss.on("error", onError);
  const recurring = new Map<string, RecurringOptions>();
  const claimTick = createTickClaimer(db);
  const queues = new Set<string>();
  const tokens = new Map<string, string>(); // job id -> started_on of our claim (the fencing token)
  let bossStarted: Promise<unknown> | undefined;
  let stopped = false;

  const ready = () => (bossStarted ??= boss.start());

  async function ensureQueue(name: string): Promise<void> {
    if (queues.has(name)) return;
    await ready();
    if (!(await boss.getQueue(name))) {
      try {
        await boss.createQueue(name, { name, policy: "standard" });
      } catch (error) {
        if (!(await boss.getQueue(name))) throw error; // another instance created it meanwhile: fine
      }
    }
    queues.add(name);
  }

  async function inTransaction<T>(work: (run: Executor) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const result = await work(executorOf(client));
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async function enqueueWith(run: Executor, name: string, data: StoredData, options: EnqueueOptions, retryLimit: number) {
    const key = options.singletonKey;
    if (key !== undefined) {
      await run(`SELECT pg_advisory_xact_lock(hashtext($1))::text AS locked`, [`etiquette-job:${name}:${key}`]);
      const existing = await run(
        `SELECT 1 AS found FROM ${schema}.job WHERE name = $1 AND singleton_key = $2 AND state < 'completed' LIMIT 1`,
        [name, key],
      );
      if (existing.rows.length > 0) return null;
    }
    return boss.send(name, data, {
      // seconds from the database's now(): no clock skew between the instances and the database
      ...(options.delayMs ? { startAfter: options.delayMs / 1000 } : {}),
      singletonKey: key,
      retryLimit,
      retryDelay: 0,
      retryBackoff: false,
      expireInSeconds: Math.max(1, Math.ceil(leaseMs / 1000)),
      db: { executeSql: run },
    });
  }

  async function enqueue<P extends JsonValue>(name: string, data: JobData<P>, options: EnqueueOptions = {}) {
    const { shop, payload } = checkJob(name, data);
    const retryLimit = retryLimitOf(name, options);
    await ensureQueue(name);
    const stored: StoredData = { shop, payload, backoffMs: options.retryBackoffMs ?? DEFAULT_RETRY_BACKOFF_MS };
    const id = options.tx
      ? await enqueueWith(executorOf(options.tx), name, stored, options, retryLimit)
      : await inTransaction((run) => enqueueWith(run, name, stored, options, retryLimit));
    if (id && !options.tx && !options.delayMs) loop.wake(name); // a delayed job: the poll after its delay
    return id ?? null;
  }

  /**
   * Many jobs in three statements whatever their number: the advisory locks of every key (in key order, so two
   * batches never wait on each other in a cycle), the keys already queued or active, then one insert of the rest.
   */
  async function enqueueManyWith(run: Executor, name: string, jobs: readonly { stored: StoredData; singletonKey?: string }[], options: EnqueueOptions, retryLimit: number) {
    const keys = [...new Set(jobs.flatMap((job) => (job.singletonKey === undefined ? [] : [job.singletonKey])))].sort();
    const taken = new Set<string>();
    if (keys.length > 0) {
      await run(`SELECT count(pg_advisory_xact_lock(hashtext(lock_key)))::text AS locked FROM (SELECT unnest($1::text[]) AS lock_key ORDER BY 1) AS lock_keys`, [
        keys.map((key) => `etiquette-job:${name}:${key}`),
      ]);
      const existing = await run(`SELECT singleton_key AS key FROM ${schema}.job WHERE name = $1 AND singleton_key = ANY($2::text[]) AND state < 'completed'`, [name, keys]);
      for (const row of existing.rows as { key: string }[]) taken.add(row.key);
    }
    const ids: (string | null)[] = [];
    const inserts: PgBoss.JobInsert<StoredData>[] = [];
    for (const job of jobs) {
      if (job.singletonKey !== undefined && taken.has(job.singletonKey)) {
        ids.push(null);
        continue;
      }
      if (job.singletonKey !== undefined) taken.add(job.singletonKey);
      const id = randomUUID();
      ids.push(id);
      inserts.push({
        id,
        name,
        data: job.stored,
        singletonKey: job.singletonKey,
        retryLimit,
        retryDelay: 0,
        retryBackoff: false,
        expireInSeconds: Math.max(1, Math.ceil(leaseMs / 1000)),
        // seconds from the database's now(), as send's startAfter
        ...(options.delayMs ? { startAfter: `${options.delayMs / 1000} seconds` } : {}),
      });
    }
    if (inserts.length > 0) await boss.insert(inserts, { db: { executeSql: run } });
    return ids;
  }

  async function enqueueMany<P extends JsonValue>(name: string, jobs: readonly { data: JobData<P>; singletonKey?: string }[], options: Omit<EnqueueOptions, "singletonKey"> = {}) {
    const retryLimit = retryLimitOf(name, options);
    const stored = jobs.map((job) => {
      const { shop, payload } = checkJob(name, job.data);
      return { stored: { shop, payload, backoffMs: options.retryBackoffMs ?? DEFAULT_RETRY_BACKOFF_MS }, singletonKey: job.singletonKey };
    });
    if (stored.length === 0) return [];
    await ensureQueue(name);
    const ids = options.tx
      ? await enqueueManyWith(executorOf(options.tx), name, stored, options, retryLimit)
      : await inTransaction((run) => enqueueManyWith(run, name, stored, options, retryLimit));
    if (!options.tx && !options.delayMs && ids.some((id) => id !== null)) loop.wake(name);
    return ids;
  }

  /** Runs `change` only while the job is still ours (active, same started_on); false when it is not. */
  async function fenced(run: Executor, job: ClaimedJob, set: string, extra: unknown[] = []): Promise<boolean> {
    const token = tokens.get(job.id) ?? job.token;
    const result = await run(
      `UPDATE ${schema}.job SET ${set} WHERE name = $1 AND id = $2 AND state = 'active' AND started_on = $3::timestamptz RETURNING started_on::text AS token`,
      [job.name, job.id, token, ...extra],
    );
    const row = result.rows[0] as { token: string } | undefined;
    if (row) tokens.set(job.id, row.token);
    return row !== undefined;
  }

  const store: JobStore = {
    async claim(name, limit) {
      await ensureQueue(name);
      const fetched = ((await boss.fetch<StoredData>(name, { batchSize: limit, includeMetadata: true })) ?? []) as FetchedJob[];
      if (fetched.length === 0) return [];
      // pg-boss returns started_on as a Date (millisecond precision): read the exact stored value for fencing.
      const exact = await db.query<{ id: string; token: string }>(
        sql`SELECT id::text AS id, started_on::text AS token FROM ${rawSql(schema)}.job WHERE id = ANY(${fetched.map((job) => job.id)}::uuid[])`,
      );
      const tokenOf = new Map(exact.map((row) => [row.id, row.token]));
      return fetched.map((job): ClaimedJob => {
        const token = tokenOf.get(job.id) ?? "";
        tokens.set(job.id, token);
        return {
          id: job.id,
          name,
          shop: job.data.shop,
          payload: job.data.payload,
          attempt: job.retryCount + 1,
          maxAttempts: job.retryLimit + 1,
          backoffMs: job.data.backoffMs,
          token,
        };
      });
    },
    async renew(job) {
      return fenced(executorOf(pool as unknown as PgLike), job, "started_on = now()");
    },
    async settle(job, outcome) {
      try {
        if (outcome.kind === "completed") {
          await fenced(executorOf(pool as unknown as PgLike), job, "state = 'completed', completed_on = now()");
          return;
        }
        await inTransaction(async (run) => {
          const ours =
            outcome.kind === "failed"
              ? await fenced(run, job, "retry_limit = retry_count")
              : await fenced(run, job, "retry_delay = 0");
          if (!ours) return;
          await boss.fail(job.name, job.id, { error: outcome.error }, { db: { executeSql: run } });
          if (outcome.kind === "retry") {
            await run(`UPDATE ${schema}.job SET start_after = now() + $3 * interval '1 millisecond' WHERE name = $1 AND id = $2 AND state = 'retry'`, [
              job.name,
              job.id,
              outcome.delayMs,
            ]);
          }
        });
      } finally {
        tokens.delete(job.id);
      }
    },
    async tick() {
      for (const [name, options] of recurring) {
        if (await claimTick(name, now(), options.everyMs)) {
          await enqueue(name, { shop: options.shop ?? "*", payload: options.payload ?? null }, { singletonKey: RECURRING_SINGLETON_KEY, retryLimit: 0 });
        }
      }
    },
  };

  const loop = new WorkerLoop(store, { pollMs: config.pollMs ?? 500, leaseMs, onError });

  return {
    kind: "pg-boss",
    enqueue,
    enqueueMany,
    async work<P extends JsonValue>(name: string, handler: JobHandler<P>, options: WorkOptions = {}) {
      await ensureQueue(name);
      loop.register(name, handler as JobHandler, options.concurrency ?? 1);
    },
    async recurring(name: string, options: RecurringOptions) {
      if (!Number.isInteger(options.everyMs) || options.everyMs < 1) throw new Error(`Recurring "${name}": everyMs must be >= 1`);
      await ensureQueue(name);
      await ensureSchedule(db, name, options.everyMs, now());
      recurring.set(name, options);
    },
    async livePayloads(name: string, shop: string) {
      await ensureQueue(name);
      // created, retry and active sort before completed in pg-boss's state enum.
      const rows = await db.query<{ payload: JsonValue }>(
        sql`SELECT data->'payload' AS payload FROM ${rawSql(schema)}.job WHERE name = ${name} AND data->>'shop' = ${shop} AND state < 'completed'`,
      );
      return rows.map((row) => row.payload);
    },
    async forgetShop(shop: string) {
      // pg-boss keeps finished jobs in its archive: both hold the shop in the job's data.
      const jobs = await db.execute(sql`DELETE FROM ${rawSql(schema)}.job WHERE data->>'shop' = ${shop}`);
      const archived = await db.execute(sql`DELETE FROM ${rawSql(schema)}.archive WHERE data->>'shop' = ${shop}`);
      return jobs + archived;
    },
    async start() {
      await ready();
      loop.start();
    },
    async stop(options: StopOptions = {}) {
      if (stopped) return;
      stopped = true;
      await loop.stop(options.graceMs ?? 10_000);
      if (bossStarted) await boss.stop({ graceful: false, wait: true, close: true });
      await pool.end();
    },
  };
}
