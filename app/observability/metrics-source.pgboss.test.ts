/**
 * /metrics on PostgreSQL: the queue's depth, running jobs and oldest wait are read from pg-boss's own job table.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createPostgresTestDatabase } from "../../test/helpers/test-postgres";
import pg from "pg";
import type { PrismaClient } from "../generated/prisma/client";
import { createPgBossQueue } from "../jobs/pgboss-queue.server";
import type { JobQueue } from "../jobs/types";
import { databaseMetricsSource } from "./metrics-source.server";
import { metricsResponse } from "./endpoints.server";
import { createMetrics } from "./metrics.server";

let database: { url: string; drop: () => Promise<void> };
let queue: JobQueue;
let pool: pg.Pool;
/** Prisma's raw-query call over a plain pg pool: the metrics read only raw SQL (Prisma.Sql renders $1 placeholders). */
let prisma: Pick<PrismaClient, "purchaseAttempt" | "$queryRaw">;
let release: () => void = () => undefined;

beforeAll(async () => {
  database = await createPostgresTestDatabase();
  pool = new pg.Pool({ connectionString: database.url, max: 2 });
  pool.on("error", () => undefined);
  const queryRaw = async (query: { text: string; values: unknown[] }) =>
    (await pool.query(query.text, query.values)).rows;
  prisma = { $queryRaw: queryRaw, purchaseAttempt: { groupBy: async () => [] } } as unknown as Pick<
    PrismaClient,
    "purchaseAttempt" | "$queryRaw"
  >;
});
afterAll(async () => {
  release();
  await queue?.stop({ graceMs: 0 });
  await pool?.end();
  await database?.drop();
});

it("counts pg-boss's queued and active jobs and the oldest queued one's age", async () => {
  const before = await databaseMetricsSource(prisma, database.url).jobs();
  expect(before).toBeUndefined(); // pg-boss has not created its tables yet
  queue = createPgBossQueue({
    databaseUrl: database.url,
    pollMs: 20,
    leaseMs: 5000,
    maintenanceIntervalSeconds: 60,
    onError: () => undefined,
  });
  const held = new Promise<void>((resolve) => (release = resolve));
  let started = 0;
  await queue.work(
    "metrics-probe",
    async () => {
      started += 1;
      await held;
    },
    { concurrency: 1 },
  );
  await queue.start();
  for (let index = 0; index < 3; index += 1)
    await queue.enqueue("metrics-probe", { shop: "s.myshopify.com", payload: { index } });
  for (let wait = 0; wait < 200 && started === 0; wait += 1) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(started).toBe(1);

  const metrics = createMetrics({ now: () => Date.now() + 60_000 });
  metrics.setSource(databaseMetricsSource(prisma, database.url));
  const answer = await metricsResponse(
    new Request("https://app.test/metrics", { headers: { authorization: "Bearer t" } }),
    "t",
    () => metrics.registry,
  );
  const text = await answer.text();
  expect(text).toContain('etiquette_jobs{state="queued"} 2');
  expect(text).toContain('etiquette_jobs{state="active"} 1');
  const age = Number(/etiquette_oldest_queued_job_age_seconds ([0-9.]+)/.exec(text)?.[1]);
  expect(age).toBeGreaterThanOrEqual(59);
  expect(age).toBeLessThan(120);
}, 60_000);
