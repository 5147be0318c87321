/**
 * CPU per Prisma query on SQLite, @libsql/client's own client against the app's statement-caching one (decision 0194).
 * `npx tsx scripts/bench-statements.ts` (STATEMENTS_BENCH_CYCLES, default 400). Each side gets its own migrated file
 * in WAL mode and the same work, a bulk item's kind of queries: the job claimed, read and settled, a label row
 * written, and an interactive transaction. The two sides run alternately, twice each, so a busy machine weighs on both.
 * Printed: CPU (user + system) per query and native prepares per query, per round.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient } from "@libsql/client";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import Database from "libsql";
import { createDriverAdapter, SQLITE_BUSY_TIMEOUT_MS } from "../app/db-adapters";
import { PrismaClient } from "../app/generated/prisma/client";
import { migrateSqliteFile } from "../test/helpers/test-db";

/** The adapter as it was before decision 0194: the library's client, same busy timeout and WAL. */
class LibraryClientFactory extends PrismaLibSQL {
  override createClient(config: Parameters<PrismaLibSQL["createClient"]>[0]): ReturnType<PrismaLibSQL["createClient"]> {
    return createClient({ url: config.url, timeout: SQLITE_BUSY_TIMEOUT_MS }) as unknown as ReturnType<PrismaLibSQL["createClient"]>;
  }
}

let prepares = 0;
const prepare = Database.prototype.prepare;
Database.prototype.prepare = function countedPrepare(this: InstanceType<typeof Database>, sql: string) {
  prepares += 1;
  return prepare.call(this, sql);
} as typeof prepare;

const QUERIES_PER_CYCLE = 7;

async function cycle(prisma: PrismaClient, i: number): Promise<void> {
  const id = `job-${i}`;
  const now = BigInt(Date.now());
  await prisma.job.create({ data: { id, name: "label", shop: "s.myshopify.com", payload: "{}", state: "queued", runAfterMs: now, maxAttempts: 3, backoffMs: 1000, createdAtMs: now } });
  await prisma.job.updateMany({ where: { id, state: "queued" }, data: { state: "active", claimToken: "t", leaseUntilMs: now + 60_000n } });
  await prisma.job.findUnique({ where: { id } });
  // An interactive transaction: BEGIN, two statements, COMMIT.
  await prisma.$transaction(async (tx) => {
    await tx.job.findUnique({ where: { id }, select: { attempts: true } });
    await tx.job.update({ where: { id }, data: { attempts: { increment: 1 } } });
  });
  await prisma.job.update({ where: { id }, data: { state: "completed", finishedAtMs: now, activeKey: null } });
}

async function round(name: string, makeAdapter: (url: string) => PrismaLibSQL | ReturnType<typeof createDriverAdapter>, cycles: number) {
  const dir = mkdtempSync(path.join(tmpdir(), "etiquette-stmt-bench-"));
  try {
    const file = path.join(dir, "bench.sqlite");
    migrateSqliteFile(file);
    const url = `file:${file}`;
    const prisma = new PrismaClient({ adapter: makeAdapter(url) });
    await prisma.$executeRawUnsafe("PRAGMA journal_mode = WAL");
    for (let i = 0; i < 20; i++) await cycle(prisma, -1 - i); // warm-up: the engine's own first-call work
    const preparesBefore = prepares;
    const cpu = process.cpuUsage();
    for (let i = 0; i < cycles; i++) await cycle(prisma, i);
    const used = process.cpuUsage(cpu);
    const queries = cycles * QUERIES_PER_CYCLE;
    await prisma.$disconnect();
    const perQueryUs = (used.user + used.system) / queries;
    console.log(`${name.padEnd(24)} ${perQueryUs.toFixed(0).padStart(5)} µs CPU per query, ${((prepares - preparesBefore) / queries).toFixed(3)} prepares per query (${queries} queries)`);
    return perQueryUs;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const cycles = Number(process.env.STATEMENTS_BENCH_CYCLES ?? 400);
const library = (url: string) => new LibraryClientFactory({ url });
const results: Record<string, number[]> = { library: [], caching: [] };
for (let r = 0; r < 2; r++) {
  results.library!.push(await round("library client", library, cycles));
  results.caching!.push(await round("statement-caching client", createDriverAdapter, cycles));
}
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
console.log(`caching / library CPU per query: ${(mean(results.caching!) / mean(results.library!)).toFixed(2)}`);
