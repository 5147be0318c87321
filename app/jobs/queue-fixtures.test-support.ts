/**
 * Test support: the adapters under the shared contract (queue.contract.test.ts), each on its own fresh database.
 * Every queue made here uses fast polling and short leases so the suite runs in seconds.
 */
import pg from "pg";
import { createPrismaClient } from "../db.server";
import { createTestDatabaseUrl } from "../../test/helpers/test-db";
import { createPostgresTestDatabase } from "../../test/helpers/test-postgres";
import { createEmbeddedQueue } from "./embedded-queue.server";
import { createPgBossQueue } from "./pgboss-queue.server";
import type { JobQueue, JobTransaction } from "./types";

export type QueueOptions = { leaseMs?: number; now?: () => number };

export type AdapterFixture = {
  /** A new queue instance: as if another app process, with its own database connection. */
  makeQueue(options?: QueueOptions): Promise<JobQueue>;
  /** Runs `work` in a transaction of the app's database; rolls back when it throws. */
  inTransaction(work: (tx: JobTransaction) => Promise<void>): Promise<void>;
  close(): Promise<void>;
};

type Closer = () => Promise<void>;

export async function withPgTransaction(pool: pg.Pool, work: (tx: JobTransaction) => Promise<void>): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await work(client as unknown as JobTransaction);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  } finally {
    client.release();
  }
}

async function sqliteFixture(): Promise<AdapterFixture> {
  const { url, cleanup } = createTestDatabaseUrl();
  const closers: Closer[] = [];
  const main = createPrismaClient(url);
  return {
    async makeQueue(options = {}) {
      const prisma = createPrismaClient(url);
      const queue = createEmbeddedQueue({ db: prisma, dialect: "sqlite", pollMs: 20, leaseMs: options.leaseMs ?? 2000, now: options.now });
      closers.push(async () => {
        await queue.stop({ graceMs: 0 });
        await prisma.$disconnect();
      });
      return queue;
    },
    async inTransaction(work) {
      await main.$transaction(async (tx) => work(tx));
    },
    async close() {
      for (const close of closers) await close();
      await main.$disconnect();
      cleanup();
    },
  };
}

async function postgresEmbeddedFixture(): Promise<AdapterFixture> {
  const { url, drop } = await createPostgresTestDatabase();
  const closers: Closer[] = [];
  const main = new pg.Pool({ connectionString: url, max: 2 });
  main.on("error", () => undefined);
  return {
    async makeQueue(options = {}) {
      const pool = new pg.Pool({ connectionString: url, max: 4 });
      pool.on("error", () => undefined); // connections cut by DROP DATABASE at the end
      const queue = createEmbeddedQueue({ db: pool, dialect: "postgresql", pollMs: 20, leaseMs: options.leaseMs ?? 2000, now: options.now });
      closers.push(async () => {
        await queue.stop({ graceMs: 0 });
        await pool.end();
      });
      return queue;
    },
    inTransaction: (work) => withPgTransaction(main, work),
    async close() {
      for (const close of closers) await close();
      await main.end();
      await drop();
    },
  };
}

async function pgBossFixture(): Promise<AdapterFixture> {
  const { url, drop } = await createPostgresTestDatabase();
  const queues: JobQueue[] = [];
  const main = new pg.Pool({ connectionString: url, max: 2 });
  main.on("error", () => undefined);
  return {
    async makeQueue(options = {}) {
      const queue = createPgBossQueue({
        databaseUrl: url,
        pollMs: 20,
        leaseMs: options.leaseMs ?? 2000,
        maintenanceIntervalSeconds: 1,
        now: options.now,
        onError: () => undefined,
      });
      queues.push(queue);
      return queue;
    },
    inTransaction: (work) => withPgTransaction(main, work),
    async close() {
      for (const queue of queues) await queue.stop({ graceMs: 0 });
      await main.end();
      await drop();
    },
  };
}

export const ADAPTERS: { label: string; setup: () => Promise<AdapterFixture> }[] = [
  { label: "embedded on SQLite", setup: sqliteFixture },
  { label: "embedded on PostgreSQL", setup: postgresEmbeddedFixture },
  { label: "pg-boss", setup: pgBossFixture },
];
