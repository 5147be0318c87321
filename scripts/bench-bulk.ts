/**
 * The bulk section of `npm run bench` (BENCH_ONLY=bulk runs it alone): one job of BENCH_BULK_N (default 500) ready
 * orders, created through createBulkJob (preflight included) and run by the embedded queue's item handler with the
 * app's real clients, against the label sandbox with a realistic latency and the Shopify emulator's cost throttle
 * (both in child processes, so this process's CPU time is the app's alone).
 *
 * Printed: wall time; the physical bound max(N·L/C, N·c/restore) with L the sandbox's mean configured latency, C the
 * label-service concurrency and c the Shopify points spent per label; their ratio (target ≤ 1.15); points requested
 * and spent per label (target ≤ 45 spent); the app's CPU time as a share of wall time (target < 2 %); peak RSS.
 * Settings: BENCH_BULK_N, BENCH_BULK_PLAN (standard | advanced | plus), BENCH_BULK_LATENCY_MS ("300-800"),
 * LABEL_SERVICE_MAX_CONCURRENCY (default 4).
 */
import "@shopify/shopify-app-remix/adapters/node";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createBulkJob, getBulkJob } from "../app/bulk/bulk-jobs.server";
import { DEMO_SHIPPING_SETTINGS } from "../app/demo/seed-demo-shop.server";
import { createPrismaClient } from "../app/db.server";
import { createEmbeddedQueue } from "../app/jobs/embedded-queue.server";
import { bulkLabelItemJob } from "../app/jobs/handlers/bulk-label-item.job";
import { registerJobs } from "../app/jobs/registry";
import { createSemaphore } from "../app/jobs/semaphore.server";
import { createLabelServiceClient } from "../app/label-service";
import type { LabelContext } from "../app/labels/label-order.server";
import { saveShippingSettings } from "../app/settings/shipping-settings.server";
import { withShopifyBudget } from "../app/shopify/admin-client";
import { InProcessShopifyBudget } from "../app/shopify/budget";
import { DEMO_ACCOUNT } from "../emulators/label-sandbox/server";
import { DEFAULT_SEED_FILE } from "../emulators/shopify-admin/server";
import { DEMO_SHOP, DEMO_TOKEN } from "../emulators/shopify-admin/test-helpers";
import { costRecorder, type OperationPoints } from "../test/helpers/cost-recorder";
import { realAdminFor } from "../test/helpers/real-admin";
import { migrateSqliteFile } from "../test/helpers/test-db";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PLAN_RESTORE: Record<string, { size: number; restore: number }> = {
  standard: { size: 2000, restore: 100 },
  advanced: { size: 4000, restore: 200 },
  plus: { size: 20000, restore: 1000 },
};

/** Seed orders that the demo settings label without a problem (checked by the bulk preflight); cloned to N. */
const READY_NUMBERS = [1002, 1003, 1004, 1006, 1008, 1009, 1012, 1014, 1017, 1019, 1020, 1021, 1022, 1023, 1026, 1031, 1032, 1033, 1034, 1035, 1038, 1039, 1040, 1041, 1042, 1043, 1044, 1050, 1051, 1052, 1053, 1054, 1055, 1056, 1059, 1060, 1061, 1062, 1063, 1064];

type SeedOrder = { id: number; number: number; customer?: { id: number }; lineItems: { id: number }[] } & Record<string, unknown>;

function benchSeed(n: number, file: string): string[] {
  const seed = JSON.parse(readFileSync(DEFAULT_SEED_FILE, "utf8")) as { shops: { orders: SeedOrder[] }[] };
  const shop = seed.shops[0]!;
  const ready = shop.orders.filter((order) => READY_NUMBERS.includes(order.number));
  const orders: SeedOrder[] = [];
  for (let i = 0; i < n; i++) {
    const base = ready[i % ready.length]!;
    // New ids for the order, its customer and its lines (fulfillments name their lines by id).
    const lineIds = new Map(base.lineItems.map((line, j) => [line.id, 13300000000 + i * 20 + j]));
    const text = JSON.stringify(base).replace(/"lineItemId":\s*([0-9]+)/g, (whole, old: string) => `"lineItemId":${lineIds.get(Number(old)) ?? old}`);
    const clone = JSON.parse(text) as SeedOrder;
    orders.push({
      ...clone,
      id: 7300000000 + i,
      number: 30000 + i,
      customer: clone.customer ? { ...clone.customer, id: 8300000000 + i } : clone.customer,
      lineItems: clone.lineItems.map((line) => ({ ...line, id: lineIds.get(line.id)! })),
    });
  }
  shop.orders = orders;
  seed.shops = [shop];
  writeFileSync(file, JSON.stringify(seed));
  return orders.map((order) => `gid://shopify/Order/${order.id}`);
}

async function startChild(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(path.join(root, "node_modules/.bin/tsx"), [path.join(root, script)], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start: ${output}`)), 60_000);
    const scan = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:[0-9]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on("data", scan);
    child.stderr!.on("data", scan);
    child.once("exit", (code) => reject(new Error(`${script} exited (${code}): ${output}`)));
  });
  return { child, url };
}

export async function benchBulk(): Promise<void> {
  const n = Number(process.env.BENCH_BULK_N ?? 500);
  const plan = process.env.BENCH_BULK_PLAN ?? "standard";
  const [minMs, maxMs] = (process.env.BENCH_BULK_LATENCY_MS ?? "300-800").split("-").map(Number) as [number, number];
  const concurrency = Number(process.env.LABEL_SERVICE_MAX_CONCURRENCY ?? 4);
  const bucket = PLAN_RESTORE[plan];
  if (!bucket) throw new Error(`BENCH_BULK_PLAN must be one of ${Object.keys(PLAN_RESTORE).join(", ")}`);
  const dir = mkdtempSync(path.join(tmpdir(), "etiquette-bench-bulk-"));
  const children: ChildProcess[] = [];
  try {
    const orderIds = benchSeed(n, path.join(dir, "seed.json"));
    const [emulator, sandbox] = await Promise.all([
      startChild("emulators/shopify-admin/cli.ts", { SHOPIFY_EMULATOR_PORT: "0", SHOPIFY_EMULATOR_SEED: path.join(dir, "seed.json"), SHOPIFY_EMULATOR_PLAN: plan }),
      startChild("emulators/label-sandbox/cli.ts", { LABEL_SANDBOX_PORT: "0", LABEL_SANDBOX_FAULTS: JSON.stringify({ latency: { probability: 1, minMs, maxMs } }) }),
    ]);
    children.push(emulator.child, sandbox.child);

    const file = path.join(dir, "app.sqlite");
    migrateSqliteFile(file);
    const db = createPrismaClient(`file:${file}`);
    await saveShippingSettings(db, DEMO_SHOP, DEMO_SHIPPING_SETTINGS);
    // Every label is pushed to Shopify as a production one would be (the demo shop is a development store that allows
    // test labels in Shopify, decision 0170): the points counted include the fulfillment and the order summary.
    await db.shopSettings.update({ where: { shop: DEMO_SHOP }, data: { fulfilTestLabels: true } });
    const tally = new Map<string, OperationPoints>();
    const admin = withShopifyBudget(costRecorder(await realAdminFor(emulator.url, db, DEMO_SHOP, DEMO_TOKEN), tally), {
      shop: DEMO_SHOP,
      maxWaitMs: 120_000,
      budget: new InProcessShopifyBudget(),
    });
    const service = createLabelServiceClient({
      shop: DEMO_SHOP,
      environment: "staging",
      account: { baseUrl: sandbox.url, ...DEMO_ACCOUNT },
      options: { generateTimeoutMs: 30_000, defaultTimeoutMs: 30_000, maxConcurrency: concurrency },
    });
    const context = (environment: LabelContext["environment"], settings: LabelContext["settings"]): LabelContext => ({
      shop: DEMO_SHOP,
      db,
      admin,
      environment,
      settings,
      service: async () => service,
    });
    const queue = createEmbeddedQueue({ db, dialect: "sqlite", pollMs: 50, onError: (error) => console.error(error) });
    await registerJobs(queue, [
      bulkLabelItemJob({ db, semaphore: createSemaphore({ db, dialect: "sqlite" }), maxConcurrency: concurrency, contextFor: async (_shop, frozen) => context(frozen.environment, frozen.settings) }),
    ]);
    await queue.start();

    let peakRss = process.memoryUsage().rss;
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    const created = await createBulkJob(context("staging", DEMO_SHIPPING_SETTINGS), { orderIds, staffUserId: null, queue });
    const preflightMs = performance.now() - start;
    let job = created.job;
    while (job.status === "RUNNING" || job.counts.remaining > 0) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      job = (await getBulkJob(db, DEMO_SHOP, created.id))!;
    }
    const wallMs = performance.now() - start;
    const reasons = new Map<string, number>();
    for (const item of job.items) {
      if (item.status === "LABELLED") continue;
      const key = `${item.status} ${item.reason?.code ?? "-"}`;
      reasons.set(key, (reasons.get(key) ?? 0) + 1);
    }
    const cpu = process.cpuUsage(cpuStart);
    await queue.stop({ graceMs: 1000 });
    await db.$disconnect();

    const labelled = Math.max(1, job.counts.labelled);
    let requested = 0;
    let spent = 0;
    let throttled = 0;
    for (const points of tally.values()) {
      requested += points.requested;
      spent += points.actual;
      throttled += points.throttled;
    }
    const latencyS = (minMs + maxMs) / 2 / 1000;
    const serviceBound = (n * latencyS) / concurrency;
    const perLabel = spent / labelled;
    const shopifyBound = (n * perLabel) / bucket.restore;
    const bound = Math.max(serviceBound, shopifyBound);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    console.log(`\nBulk job: ${n} orders, ${plan} plan (${bucket.size} points, ${bucket.restore}/s), label latency ${minMs}-${maxMs} ms, concurrency ${concurrency}, embedded queue on SQLite`);
    console.log(`  counts: ${JSON.stringify(job.counts)}; preflight and creation ${(preflightMs / 1000).toFixed(1)} s`);
    if (reasons.size > 0) console.log(`  not labelled: ${[...reasons].map(([key, count]) => `${count} ${key}`).join(", ")}`);
    console.log(`  wall ${(wallMs / 1000).toFixed(1)} s; bound max(N·L/C = ${serviceBound.toFixed(1)} s, N·c/restore = ${shopifyBound.toFixed(1)} s) = ${bound.toFixed(1)} s; ratio ${(wallMs / 1000 / bound).toFixed(2)} (target ≤ 1.15)`);
    console.log(`  Shopify points per label: requested ${(requested / labelled).toFixed(0)}, spent ${perLabel.toFixed(1)} (target ≤ 45); THROTTLED answers ${throttled}`);
    console.log("  operation                            calls/label   requested/call   spent/call");
    for (const [name, points] of [...tally].sort(([a], [b]) => a.localeCompare(b))) {
      console.log(`  ${name.padEnd(36)} ${(points.calls / labelled).toFixed(2).padStart(11)} ${(points.requested / points.calls).toFixed(1).padStart(16)} ${(points.actual / points.calls).toFixed(1).padStart(12)}`);
    }
    console.log(`  app CPU ${(cpuMs / 1000).toFixed(1)} s = ${((cpuMs / wallMs) * 100).toFixed(2)} % of wall (target < 2 %); peak RSS ${(peakRss / 1024 / 1024).toFixed(0)} MB`);
  } finally {
    for (const child of children) child.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  }
}
