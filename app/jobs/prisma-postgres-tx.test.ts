/**
 * On a PostgreSQL deployment the app's Prisma client is generated for PostgreSQL, and a caller's interactive
 * transaction is the `tx` of enqueue. The test checkout's client is SQLite, so this test generates a PostgreSQL
 * client into a scratch folder of the checkout (.tmp/, ignored by git) and uses it with both adapters.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { createPostgresTestDatabase } from "../../test/helpers/test-postgres";
import { createEmbeddedQueue } from "./embedded-queue.server";
import { createPgBossQueue } from "./pgboss-queue.server";
import type { JobQueue, JobTransaction } from "./types";

const root = fileURLToPath(new URL("../..", import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type TxClient = { $transaction<T>(work: (tx: JobTransaction) => Promise<T>): Promise<T>; $disconnect(): Promise<void> };

describe("enqueue inside a Prisma transaction on PostgreSQL", () => {
  let scratch: string;
  let database: { url: string; drop: () => Promise<void> };
  let prisma: TxClient;
  let pool: pg.Pool;

  beforeAll(async () => {
    mkdirSync(path.join(root, ".tmp"), { recursive: true });
    scratch = mkdtempSync(path.join(root, ".tmp", "pg-client-"));
    const schema = readFileSync(path.join(root, "prisma/postgresql/schema.prisma"), "utf8").replace(
      'output       = "../../app/generated/prisma"',
      'output       = "./client"',
    );
    writeFileSync(path.join(scratch, "schema.prisma"), schema);
    execFileSync(path.join(root, "node_modules/.bin/prisma"), ["generate", "--schema", path.join(scratch, "schema.prisma")], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/test" },
      stdio: "ignore",
    });
    database = await createPostgresTestDatabase();
    const generated = (await import(/* @vite-ignore */ path.join(scratch, "client/client.ts"))) as {
      PrismaClient: new (options: { adapter: unknown }) => TxClient;
    };
    pool = new pg.Pool({ connectionString: database.url, max: 4 });
    pool.on("error", () => undefined);
    prisma = new generated.PrismaClient({ adapter: new PrismaPg(pool) });
  }, 120_000);

  afterAll(async () => {
    await prisma?.$disconnect();
    await pool?.end();
    await database?.drop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  async function check(queue: JobQueue) {
    const seen: unknown[] = [];
    await queue.work("tx-job", async (job) => void seen.push(job.payload));
    await queue.start();
    await expect(
      prisma.$transaction(async (tx) => {
        await queue.enqueue("tx-job", { shop: "a", payload: "rolled back" }, { tx });
        throw new Error("the order rows failed to save");
      }),
    ).rejects.toThrow(/failed to save/);
    const ids = await prisma.$transaction(async (tx) => [
      await queue.enqueue("tx-job", { shop: "a", payload: "committed" }, { tx, singletonKey: "k" }),
      await queue.enqueue("tx-job", { shop: "a", payload: "duplicate" }, { tx, singletonKey: "k" }),
    ]);
    expect(ids).toEqual([expect.any(String), null]);
    for (let i = 0; i < 300 && seen.length === 0; i++) await sleep(10);
    await sleep(300);
    await queue.stop({ graceMs: 1000 });
    expect(seen).toEqual(["committed"]);
  }

  it("pg-boss: the job commits or rolls back with the transaction", async () => {
    await check(createPgBossQueue({ databaseUrl: database.url, pollMs: 20, onError: () => undefined }));
  });

  it("embedded: the job commits or rolls back with the transaction", async () => {
    await check(createEmbeddedQueue({ db: prisma as never, dialect: "postgresql", pollMs: 20 }));
  });
});
