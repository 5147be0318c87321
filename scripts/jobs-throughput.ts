/**
 * Job queue throughput: N no-op jobs, one or two queue instances (two database connections, as two processes
 * would). Prints wall time and jobs per second.
 *   npx tsx scripts/jobs-throughput.ts [--jobs 500] [--wal]   embedded adapter on SQLite (--wal: WAL journal first)
 *   npx tsx scripts/jobs-throughput.ts --postgres [--jobs 500] pg-boss on a scratch PostgreSQL database
 */
import Database from "libsql";
import { createPrismaClient } from "../app/db.server";
import { createEmbeddedQueue } from "../app/jobs/embedded-queue.server";
import { createPgBossQueue } from "../app/jobs/pgboss-queue.server";
import type { JobQueue } from "../app/jobs/types";
import { createTestDatabaseUrl } from "../test/helpers/test-db";
import { createPostgresTestDatabase } from "../test/helpers/test-postgres";

const jobs = Number(process.argv[process.argv.indexOf("--jobs") + 1]) || 500;
const wal = process.argv.includes("--wal");
const postgres = process.argv.includes("--postgres");

async function measure(label: string, queues: JobQueue[]): Promise<void> {
  let done = 0;
  for (const queue of queues) await queue.work("noop", async () => void (done += 1), { concurrency: 8 });
  const [first] = queues;
  for (let i = 0; i < jobs; i++) await first!.enqueue("noop", { shop: "bench", payload: i });
  const started = performance.now();
  await Promise.all(queues.map((queue) => queue.start()));
  while (done < jobs) await new Promise((resolve) => setTimeout(resolve, 5));
  const ms = performance.now() - started;
  console.log(`${label}, ${queues.length} instance(s): ${jobs} jobs in ${ms.toFixed(0)} ms = ${((jobs / ms) * 1000).toFixed(0)} jobs/s`);
  for (const queue of queues) await queue.stop({ graceMs: 1000 });
}

async function sqlite(instances: number): Promise<void> {
  const { url, cleanup } = createTestDatabaseUrl();
  if (wal) new Database(url.replace(/^file:/, "")).pragma("journal_mode = WAL");
  const clients = Array.from({ length: instances }, () => createPrismaClient(url));
  await measure(`embedded SQLite${wal ? " WAL" : ""}`, clients.map((db) => createEmbeddedQueue({ db, dialect: "sqlite", pollMs: 50 })));
  for (const client of clients) await client.$disconnect();
  cleanup();
}

async function pgBoss(instances: number): Promise<void> {
  const { url, drop } = await createPostgresTestDatabase();
  await measure("pg-boss", Array.from({ length: instances }, () => createPgBossQueue({ databaseUrl: url, pollMs: 50 })));
  await drop();
}

for (const instances of [1, 2]) await (postgres ? pgBoss(instances) : sqlite(instances));
