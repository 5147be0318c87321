/**
 * The app's side of the bulk bench, as one app process wires it in production: the database's Shopify budget
 * (decision 0180), the database semaphore for the label service, the queue chosen by the database URL with its
 * default polling, every job handler and the recurring passes (startJobQueue, as at boot). Used in-process (SQLite)
 * and by each worker process (PostgreSQL, scripts/bench-bulk-worker.ts).
 */
import "@shopify/shopify-app-remix/adapters/node";
import { monitorEventLoopDelay, performance, type IntervalHistogram } from "node:perf_hooks";
import { createBulkJob, getBulkJob } from "../../app/bulk/bulk-jobs.server";
import { anyItemLeft } from "../../app/bulk/item-rows.server";
import { preflightBulkJob } from "../../app/bulk/preflight.server";
import { DEMO_SHIPPING_SETTINGS } from "../../app/demo/seed-demo-shop.server";
import { saveShippingSettings } from "../../app/settings/shipping-settings.server";
import { createPrismaClient } from "../../app/db.server";
import { statements } from "../../app/db-direct.server";
import { databaseKind } from "../../app/db-url";
import type { PrismaClient } from "../../app/generated/prisma/client";
import { reconcileTimings } from "../../app/config.server";
import { createJobQueue } from "../../app/jobs/index.server";
import { startJobQueue } from "../../app/jobs/start.server";
import { createSemaphore } from "../../app/jobs/semaphore.server";
import type { JobQueue } from "../../app/jobs/types";
import { createLabelServiceClient } from "../../app/label-service";
import type { LabelContext } from "../../app/labels/label-order.server";
import { withShopifyBudget } from "../../app/shopify/admin-client";
import { createDatabaseShopifyBudget } from "../../app/shopify/budget-store.server";
import type { SqlTarget } from "../../app/jobs/sql.server";
import { DEMO_ACCOUNT } from "../../emulators/label-sandbox/server";
import { DEMO_SHOP, DEMO_TOKEN } from "../../emulators/shopify-admin/test-helpers";
import { realAdminFor } from "../../test/helpers/real-admin";
import { otherThreadsMsSince, threadCpu } from "./threads";

/** SQL statements the Shopify budget ran in this process (its database client wrapped, decision 0193). */
export const budgetStatements = { count: 0 };

/**
 * The same client, counting every raw statement run through it (the budget uses only raw statements). The wrapper is
 * not the client itself, so it hands each statement to `statements(db)`: straight to the driver adapter, as the app's
 * budget runs them (decision 0202), not through the client's own raw methods.
 */
function countingTarget(db: PrismaClient): SqlTarget {
  const direct = statements(db);
  return {
    $queryRaw: ((query: Parameters<PrismaClient["$queryRaw"]>[0]) => {
      budgetStatements.count += 1;
      return direct.$queryRaw(query);
    }) as PrismaClient["$queryRaw"],
    $executeRaw: ((query: Parameters<PrismaClient["$executeRaw"]>[0]) => {
      budgetStatements.count += 1;
      return direct.$executeRaw(query);
    }) as PrismaClient["$executeRaw"],
  };
}

export type BenchAppConfig = { databaseUrl: string; emulatorUrl: string; sandboxUrl: string; concurrency: number };

export type BenchApp = {
  db: PrismaClient;
  queue: JobQueue;
  context(environment: LabelContext["environment"], settings: LabelContext["settings"]): LabelContext;
  close(): Promise<void>;
};

/** The app's clients for the demo shop. `work`: this process runs bulk items (else it only enqueues them). */
export async function benchApp(config: BenchAppConfig, options: { work: boolean }): Promise<BenchApp> {
  const dialect = databaseKind(config.databaseUrl);
  const db = createPrismaClient(config.databaseUrl);
  const admin = withShopifyBudget(await realAdminFor(config.emulatorUrl, db, DEMO_SHOP, DEMO_TOKEN), {
    shop: DEMO_SHOP,
    maxWaitMs: 120_000,
    budget: createDatabaseShopifyBudget({ db: countingTarget(db), dialect }),
  });
  const service = createLabelServiceClient({
    shop: DEMO_SHOP,
    environment: "staging",
    account: { baseUrl: config.sandboxUrl, ...DEMO_ACCOUNT },
    options: { generateTimeoutMs: 30_000, defaultTimeoutMs: 30_000, maxConcurrency: config.concurrency },
  });
  const context = (environment: LabelContext["environment"], settings: LabelContext["settings"]): LabelContext => ({
    shop: DEMO_SHOP,
    db,
    admin,
    environment,
    settings,
    service: async () => service,
  });
  const onError = (error: unknown) => console.error(error);
  // A working process starts its queue as the app's boot does (app/jobs/boot.server.ts): every job registered and the
  // recurring passes (reconciler, pending items, sweeper, retention) scheduled, so their polling is counted too.
  const queue = options.work
    ? await startJobQueue({
        databaseUrl: config.databaseUrl,
        prisma: db,
        reconcileIntervalMs: reconcileTimings().intervalMs,
        reconciler: { db, serviceFor: async () => service, adminFor: async () => admin, notifyCustomerFor: async () => DEMO_SHIPPING_SETTINGS.notifyCustomer },
        bulk: {
          db,
          semaphore: createSemaphore({ db, dialect }),
          maxConcurrency: config.concurrency,
          contextFor: async (_shop, frozen) => context(frozen.environment, frozen.settings),
        },
        onError,
      })
    : createJobQueue({ databaseUrl: config.databaseUrl, prisma: db, onError });
  if (!options.work) await queue.start();
  return {
    db,
    queue,
    context,
    async close() {
      await queue.stop({ graceMs: 1000 });
      await db.$disconnect();
    },
  };
}

/** The stall histograms' tick (libuv timer period), in every app process of the bench. */
export const STALL_TICK_MS = 10;

/** What one job run measured in the process that created it (plus the workers' own figures, added by the caller). */
export type JobFigures = {
  /** The free check the merchant waits for before Start (the preflight page), which reads every order. */
  preflightMs: number;
  /** Start pressed → the job created (its items and queue jobs written; the preflight's read reused). */
  creationMs: number;
  /** Start pressed → no item queued or running. */
  wallMs: number;
  userMs: number;
  systemMs: number;
  /** Of that CPU from Start, the threads other than the main one (scripts/bench-bulk/threads.ts); null off Linux. */
  otherThreadsMs: number | null;
  /** Of which the preflight's (this process). */
  preflightCpuMs: number;
  peakRss: number;
  /** The event loop's delay during the run (the job's items), 99th percentile, as the histogram reads it (a 10 ms tick included). */
  loopDelayP99Ms: number;
  /** The longest gap between two ticks of the stall histograms, as they read it (a 10 ms tick included). */
  loopDelayMaxMs: number;
  /** The longest event-loop stall in each step: the preflight, the job's creation, its run. */
  loopDelayMaxByStepMs: { preflight: number; creation: number; run: number };
  /** How long stall histograms ran in this process (the workers' are added by the caller). */
  monitoredMs: number;
  counts: Record<string, number>;
  /** Statements of the Shopify budget in this process (the job's creator; the workers' are added by the caller). */
  budgetStatements: number;
  notLabelled: [string, number][];
};

/**
 * The merchant's steps: the preflight (the page that checks every order, nothing bought), then Start, which creates
 * the job from the preflight's read; then waits until no item is queued or running. CPU time counts both steps.
 */
export async function runBulkJob(app: BenchApp, orderIds: string[]): Promise<JobFigures> {
  await saveShippingSettings(app.db, DEMO_SHOP, DEMO_SHIPPING_SETTINGS);
  // Every label is pushed to Shopify as a production one would be (the demo shop is a development store that allows
  // test labels in Shopify, decision 0170): the points counted include the fulfillment and the order summary.
  await app.db.shopSettings.update({ where: { shop: DEMO_SHOP }, data: { fulfilTestLabels: true } });
  // Each step's stalls in a histogram of its own (libuv's timer, every 10 ms), one enabled at a time. No timer of the
  // bench's in JavaScript: a 10 ms JS interval costs this machine about 16 ms of CPU per second, counted as the app's;
  // the histogram's native timer about 7 (measured idle, docs/decisions/0210).
  const histogram = () => monitorEventLoopDelay({ resolution: STALL_TICK_MS });
  const delays = { preflight: histogram(), creation: histogram(), run: histogram() };
  let step: keyof typeof delays = "preflight";
  // A histogram's first tick after enable() only sets its start, and a stall is recorded at the tick after it. So
  // each step's histogram is enabled a tick and a bit before the step (the loop idle meanwhile), and the previous
  // one disabled only then: a stall at a step's end and one at the next step's start are both recorded. The idle
  // ticks are outside the preflight's and the creation's timings; the run's wall is read by its 250 ms poll anyway.
  const primed = () => new Promise((resolve) => setTimeout(resolve, STALL_TICK_MS + 2));
  const monitorStart = performance.now();
  delays[step].enable();
  await primed();
  const enter = async (next: keyof typeof delays) => {
    delays[next].enable();
    await primed();
    delays[step].disable();
    step = next;
  };
  /** A step's longest stall: its histogram's longest gap between ticks, less the tick's own 10 ms. */
  const longest = (delay: IntervalHistogram) => Math.max(0, delay.max / 1e6 - STALL_TICK_MS);
  let peakRss = process.memoryUsage.rss();
  const cpuStart = process.cpuUsage();
  const statementsStart = budgetStatements.count;
  const context = app.context("staging", DEMO_SHIPPING_SETTINGS);
  const checkStart = performance.now();
  const preflight = await preflightBulkJob(context, orderIds);
  if (preflight.unknown.length > 0) throw new Error(`the preflight does not know ${preflight.unknown.length} orders`);
  const preflightMs = performance.now() - checkStart;
  const preflightCpu = process.cpuUsage(cpuStart);
  await enter("creation");
  const threadsAtStart = threadCpu();
  const start = performance.now();
  const created = await createBulkJob(context, { orderIds, staffUserId: null, queue: app.queue });
  const creationMs = performance.now() - start;
  await enter("run");
  // One cheap look every 250 ms (whether any item is still to run, the statement each finished item runs), not the
  // whole job: this process's CPU is counted as the app's. A COUNT of what remains read the job's whole index range
  // each time (about 160 µs, 0.1 ms per label). process.memoryUsage.rss() reads the RSS alone (memoryUsage() also
  // walks V8's heaps).
  for (;;) {
    const left = await anyItemLeft(app.db, created.id);
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    if (!left) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const wallMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  const otherThreadsMs = otherThreadsMsSince(threadsAtStart);
  delays[step].disable();
  const monitoredMs = performance.now() - monitorStart;
  const job = (await getBulkJob(app.db, DEMO_SHOP, created.id))!;
  const notLabelled = new Map<string, number>();
  for (const item of job.items) {
    if (item.status === "LABELLED") continue;
    const key = `${item.status} ${item.reason?.code ?? "-"}`;
    notLabelled.set(key, (notLabelled.get(key) ?? 0) + 1);
  }
  return {
    preflightMs,
    creationMs,
    wallMs,
    userMs: cpu.user / 1000,
    systemMs: cpu.system / 1000,
    otherThreadsMs,
    preflightCpuMs: (preflightCpu.user + preflightCpu.system) / 1000,
    peakRss,
    loopDelayP99Ms: delays.run.percentile(99) / 1e6,
    loopDelayMaxMs: Math.max(...Object.values(delays).map((delay) => delay.max / 1e6)),
    loopDelayMaxByStepMs: { preflight: longest(delays.preflight), creation: longest(delays.creation), run: longest(delays.run) },
    monitoredMs,
    counts: { ...job.counts },
    budgetStatements: budgetStatements.count - statementsStart,
    notLabelled: [...notLabelled],
  };
}
