/**
 * On a PostgreSQL deployment the app's Prisma client is generated for PostgreSQL, and a caller's interactive
 * transaction is the `tx` of enqueue. The test checkout's client is SQLite, so this test generates a PostgreSQL
 * client (createPostgresPrismaClient) and uses it with both adapters.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresPrismaClient, createPostgresTestDatabase } from "../../test/helpers/test-postgres";
import { createEmbeddedQueue } from "./embedded-queue.server";
import { createPgBossQueue } from "./pgboss-queue.server";
import type { JobQueue, JobTransaction } from "./types";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type TxClient = { $transaction<T>(work: (tx: JobTransaction) => Promise<T>): Promise<T>; $disconnect(): Promise<void> };

describe("enqueue inside a Prisma transaction on PostgreSQL", () => {
  let database: { url: string; drop: () => Promise<void> };
  let client: Awaited<ReturnType<typeof createPostgresPrismaClient<TxClient>>>;
  let prisma: TxClient;

  beforeAll(async () => {
    database = await createPostgresTestDatabase();
    client = await createPostgresPrismaClient<TxClient>(database.url);
    prisma = client.prisma;
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await database?.drop();
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
