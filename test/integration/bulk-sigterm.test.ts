/**
 * SIGTERM mid-job (issue 18): a real worker process is stopped the way the app stops (app/jobs/boot.server.ts's
 * shutdownJobsAndDatabase, fixture bulk-worker-sigterm.ts) while items run. It exits 0, the purchases that were in
 * flight record their outcome before it does (no item RUNNING, no attempt PENDING, no queue job active), and the
 * next start finishes the job with no order bought twice (counted by the label sandbox) and no order lost.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { fulfilTestLabelsOn } from "../helpers/dev-store";
import { DEMO_SHOP, DEMO_TOKEN, startTestEmulator, type TestEmulator } from "../../emulators/shopify-admin/test-helpers";
import { DEMO_ACCOUNT, startLabelSandbox, type LabelSandbox } from "../../emulators/label-sandbox/server";
import { createBulkJob, getBulkJob } from "../../app/bulk/bulk-jobs.server";
import { DEMO_SHIPPING_SETTINGS } from "../../app/demo/seed-demo-shop.server";
import { createPrismaClient } from "../../app/db.server";
import { createEmbeddedQueue } from "../../app/jobs/embedded-queue.server";
import { createLabelServiceClient } from "../../app/label-service";
import { runDueReconciliations } from "../../app/labels/reconcile.server";
import { DEFAULT_RECONCILE_TIMINGS } from "../../app/config.server";
import { saveShippingSettings } from "../../app/settings/shipping-settings.server";
import { withShopifyBudget } from "../../app/shopify/admin-client";
import { appTestEnv } from "../helpers/app-env";
import { createTestDatabaseUrl } from "../helpers/test-db";
import { realAdminFor } from "../helpers/real-admin";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const ORDERS = [2, 3, 4, 6, 8, 9, 12, 14].map((n) => `gid://shopify/Order/71000010${String(n).padStart(2, "0")}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const database = createTestDatabaseUrl();
const db = createPrismaClient(database.url);
let emulator: TestEmulator;
let sandbox: LabelSandbox;
const children: ChildProcess[] = [];

beforeAll(async () => {
  [emulator, sandbox] = await Promise.all([startTestEmulator(), startLabelSandbox({ port: 0 })]);
  await saveShippingSettings(db, DEMO_SHOP, DEMO_SHIPPING_SETTINGS);
  // The Shopify step is under test: test labels reach the (development) store (decision 0170).
  await fulfilTestLabelsOn(db, DEMO_SHOP);
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await Promise.all([emulator.emulator.close(), sandbox.close()]);
  await db.$disconnect();
  database.cleanup();
});

interface Worker {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function startWorker(): Promise<Worker> {
  // Node itself with tsx as a loader, not the tsx CLI: the signal reaches the process that handles it (the CLI is a
  // parent that relays signals, and a SIGKILL to it would leave its child running).
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "test/integration/fixtures/bulk-worker-sigterm.ts")], {
    cwd: root,
    env: { ...process.env, ...appTestEnv(database.url), EMULATOR_URL: emulator.emulator.url, SANDBOX_URL: sandbox.url, LEASE_MS: "1500" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  for (let i = 0; i < 600 && !output.includes("worker ready"); i++) await sleep(100);
  if (!output.includes("worker ready")) throw new Error(`worker did not start: ${output}`);
  return { child, output: () => output, exited };
}

/** Sends SIGTERM and waits for the exit, at most 30 s (the grace is 25 s). */
async function terminate(worker: Worker): Promise<{ code: number | null; signal: NodeJS.Signals | null } | "still running"> {
  worker.child.kill("SIGTERM");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outcome = await Promise.race([worker.exited, new Promise<"still running">((resolve) => (timer = setTimeout(() => resolve("still running"), 30_000)))]);
  clearTimeout(timer);
  return outcome;
}

it("a worker stopped with SIGTERM mid-job records its in-flight purchases and exits 0; the next start finishes the job, nothing bought twice", async () => {
  await fetch(`${sandbox.url}/__admin/faults`, { method: "POST", body: JSON.stringify({ latency: { probability: 1, minMs: 400, maxMs: 400 } }) });
  const admin = withShopifyBudget(await realAdminFor(emulator.emulator.url, db, DEMO_SHOP, DEMO_TOKEN), { shop: DEMO_SHOP, maxWaitMs: 30_000 });
  const service = createLabelServiceClient({ shop: DEMO_SHOP, environment: "staging", account: { baseUrl: sandbox.url, ...DEMO_ACCOUNT } });
  const context = { shop: DEMO_SHOP, db, admin, environment: "staging" as const, settings: DEMO_SHIPPING_SETTINGS, service: async () => service };
  const first = await startWorker();
  // Enqueue only (this queue is never started): the workers run the items.
  const enqueuer = createEmbeddedQueue({ db, dialect: "sqlite" });
  const created = await createBulkJob(context, { orderIds: ORDERS, staffUserId: null, queue: enqueuer });
  let runningAtSignal: string[] = [];
  for (let i = 0; i < 600; i++) {
    const job = (await getBulkJob(db, DEMO_SHOP, created.id))!;
    runningAtSignal = job.items.filter((item) => item.status === "RUNNING").map((item) => item.orderId);
    if (job.counts.labelled >= 1 && runningAtSignal.length > 0) break;
    await sleep(25);
  }
  expect(runningAtSignal.length, "an item was running when the signal was sent").toBeGreaterThan(0);

  const outcome = await terminate(first);
  expect(outcome, first.output()).toEqual({ code: 0, signal: null });
  expect(first.output()).toContain("worker stopped");

  // The stop let the in-flight purchases record their outcome: nothing is left running or undecided.
  const items = await db.bulkJobItem.findMany({ where: { jobId: created.id } });
  expect(items.filter((item) => item.status === "RUNNING")).toEqual([]);
  for (const orderId of runningAtSignal) expect(items.find((item) => item.orderId === orderId)?.status).not.toBe("QUEUED");
  expect(await db.purchaseAttempt.count({ where: { status: "PENDING" } })).toBe(0);
  expect(await db.job.count({ where: { state: "active" } })).toBe(0);
  // Not finished: the next start has work to do.
  expect(items.filter((item) => item.status === "QUEUED").length).toBeGreaterThan(0);

  const second = await startWorker();
  let job = (await getBulkJob(db, DEMO_SHOP, created.id))!;
  for (let i = 0; i < 1200 && (job.status === "RUNNING" || job.counts.remaining > 0); i++) {
    await sleep(50);
    job = (await getBulkJob(db, DEMO_SHOP, created.id))!;
  }
  expect(job.status).toBe("COMPLETED");
  // Should a purchase have been left undecided, it is the reconciler's: one pass with short timings settles it.
  if (job.counts.pending > 0) {
    await sleep(600);
    await runDueReconciliations({
      db,
      serviceFor: async () => service,
      adminFor: async () => admin,
      notifyCustomerFor: async () => true,
      timings: { ...DEFAULT_RECONCILE_TIMINGS, staleAfterMs: 500, lateChargeWindowMs: 0, backoffMs: [0, 0, 0] },
    });
    job = (await getBulkJob(db, DEMO_SHOP, created.id))!;
  }
  expect(await terminate(second), second.output()).toEqual({ code: 0, signal: null });

  const bought = (await (await fetch(`${sandbox.url}/__admin/labels`)).json()) as {
    count: number;
    labels: { custom_reference: string }[];
    countByReference: Record<string, number>;
  };
  // One label per reference and per order at the service, and every order labelled once here.
  expect(Math.max(...Object.values(bought.countByReference))).toBe(1);
  const attempts = await db.purchaseAttempt.findMany({ select: { customReference: true, orderId: true } });
  const orderOf = new Map(attempts.map((attempt) => [attempt.customReference, attempt.orderId]));
  const soldOrders = bought.labels.map((label) => orderOf.get(label.custom_reference));
  expect(soldOrders.every((orderId) => orderId !== undefined)).toBe(true);
  expect(new Set(soldOrders).size).toBe(soldOrders.length);
  expect(job.counts.labelled + job.counts.pending).toBe(ORDERS.length);
  expect(bought.count).toBe(await db.label.count());
  expect(job.counts.labelled).toBe(await db.label.count());
  expect(new Set((await db.label.findMany()).map((label) => label.orderId)).size).toBe(await db.label.count());
  expect(await db.bulkJobItem.count({ where: { jobId: created.id, status: { in: ["RUNNING", "QUEUED"] } } })).toBe(0);
}, 180_000);
