import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestDatabase } from "../../test/helpers/test-db";
import { createEmbeddedQueue } from "./embedded-queue.server";
import { createJobQueue } from "./index.server";
import { defineJob, enqueueJob, registerJobs } from "./registry";
import type { JobQueue } from "./types";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("job registry", () => {
  let db: ReturnType<typeof createTestDatabase>;
  let queue: JobQueue;
  beforeEach(() => {
    db = createTestDatabase();
    queue = createEmbeddedQueue({ db: db.prisma, dialect: "sqlite", pollMs: 20, leaseMs: 2000 });
  });
  afterEach(async () => {
    await queue.stop({ graceMs: 0 });
    await db.close();
  });

  const seen: string[] = [];
  const labelOne = defineJob({
    name: "label-one",
    payload: z.object({ orderId: z.string().startsWith("gid://shopify/Order/") }),
    retryLimit: 4,
    async handle(job) {
      seen.push(job.payload.orderId);
    },
  });

  it("runs a defined job with its parsed payload", async () => {
    await registerJobs(queue, [labelOne]);
    await queue.start();
    await enqueueJob(queue, labelOne, { shop: "a", payload: { orderId: "gid://shopify/Order/7" } });
    for (let i = 0; i < 500 && !seen.includes("gid://shopify/Order/7"); i++) await sleep(10);
    expect(seen).toContain("gid://shopify/Order/7");
    const job = await db.prisma.job.findFirstOrThrow({ where: { name: "label-one" } });
    expect(job.maxAttempts).toBe(5); // the definition's retry limit
  });

  it("fails a job whose payload does not match its schema without running it or retrying", async () => {
    await registerJobs(queue, [labelOne]);
    await queue.start();
    const before = seen.length;
    const id = await queue.enqueue("label-one", { shop: "a", payload: { orderId: 42 } });
    let job = await db.prisma.job.findUniqueOrThrow({ where: { id: id! } });
    for (let i = 0; i < 500 && job.state !== "failed"; i++) {
      await sleep(10);
      job = await db.prisma.job.findUniqueOrThrow({ where: { id: id! } });
    }
    expect(job).toMatchObject({ state: "failed", attempts: 1 });
    expect(job.lastError).toMatch(/does not match its schema/);
    expect(seen.length).toBe(before);
  });

  it("refuses two definitions with one name", async () => {
    await expect(registerJobs(queue, [labelOne, { ...labelOne }])).rejects.toThrow(/label-one/);
  });
});

describe("createJobQueue", () => {
  it("picks the adapter from DATABASE_URL alone", async () => {
    const db = createTestDatabase();
    const embedded = createJobQueue({ databaseUrl: db.url, prisma: db.prisma });
    const boss = createJobQueue({ databaseUrl: "postgresql://postgres@127.0.0.1:5432/unused", prisma: db.prisma });
    expect([embedded.kind, boss.kind]).toEqual(["embedded", "pg-boss"]);
    await embedded.stop({ graceMs: 0 });
    await boss.stop({ graceMs: 0 });
    await db.close();
  });
});
