/**
 * Embedded job queue throughput on SQLite: N no-op jobs, one or two queue instances (two database clients on one
 * file, as two processes would). Prints wall time and jobs per second; `--wal` switches the file to WAL first.
 *   npx tsx scripts/jobs-throughput.ts [--jobs 500] [--wal]
 */
import Database from "better-sqlite3";
import { createPrismaClient } from "../app/db.server";
import { createEmbeddedQueue } from "../app/jobs/embedded-queue.server";
import { createTestDatabaseUrl } from "../test/helpers/test-db";

const jobs = Number(process.argv[process.argv.indexOf("--jobs") + 1]) || 500;
const wal = process.argv.includes("--wal");

async function run(instances: number): Promise<void> {
  const { url, cleanup } = createTestDatabaseUrl();
  if (wal) new Database(url.replace(/^file:/, "")).pragma("journal_mode = WAL");
  const clients = Array.from({ length: instances }, () => createPrismaClient(url));
  const queues = clients.map((db) => createEmbeddedQueue({ db, dialect: "sqlite", pollMs: 50 }));
  let done = 0;
  for (const queue of queues) await queue.work("noop", async () => void (done += 1), { concurrency: 8 });
  const [first] = queues;
  for (let i = 0; i < jobs; i++) await first!.enqueue("noop", { shop: "bench", payload: i });
  const started = performance.now();
  await Promise.all(queues.map((queue) => queue.start()));
  while (done < jobs) await new Promise((resolve) => setTimeout(resolve, 5));
  const ms = performance.now() - started;
  console.log(`${instances} instance(s)${wal ? " WAL" : ""}: ${jobs} jobs in ${ms.toFixed(0)} ms = ${((jobs / ms) * 1000).toFixed(0)} jobs/s`);
  for (const queue of queues) await queue.stop({ graceMs: 1000 });
  for (const client of clients) await client.$disconnect();
  cleanup();
}

await run(1);
await run(2);
