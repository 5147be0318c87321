/**
 * SIGKILL mid-job: a real worker process is killed while items run, another one is started on the same database,
 * and the job finishes with no order bought twice (counted by the label sandbox) and no order lost. A purchase that
 * was in flight at the kill is settled by the reconciler (run here with short timings), as it is in the app.
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
  for (const child of children) child.kill("SIGKILL");
  await Promise.all([emulator.emulator.close(), sandbox.close()]);
  await db.$disconnect();
  database.cleanup();
});

async function startWorker(): Promise<ChildProcess> {
  // Node itself with tsx as a loader, not the tsx CLI: the signal reaches the process that handles it (the CLI is a
  // parent that relays signals, and a SIGKILL to it would leave its child running).
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "test/integration/fixtures/bulk-worker-process.ts")], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: database.url, EMULATOR_URL: emulator.emulator.url, SANDBOX_URL: sandbox.url, LEASE_MS: "1500" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  for (let i = 0; i < 600 && !output.includes("worker ready"); i++) await sleep(100);
  if (!output.includes("worker ready")) throw new Error(`worker did not start: ${output}`);
  return child;
}

it("a worker killed with SIGKILL mid-job: another finishes the job, nothing bought twice, no order lost", async () => {
  await fetch(`${sandbox.url}/__admin/faults`, { method: "POST", body: JSON.stringify({ latency: { probability: 1, minMs: 400, maxMs: 400 } }) });
  const admin = withShopifyBudget(await realAdminFor(emulator.emulator.url, db, DEMO_SHOP, DEMO_TOKEN), { shop: DEMO_SHOP, maxWaitMs: 30_000 });
  const service = createLabelServiceClient({ shop: DEMO_SHOP, environment: "staging", account: { baseUrl: sandbox.url, ...DEMO_ACCOUNT } });
  const context = { shop: DEMO_SHOP, db, admin, environment: "staging" as const, settings: DEMO_SHIPPING_SETTINGS, service: async () => service };
  const first = await startWorker();
  // Enqueue only (this queue is never started): the workers run the items.
  const enqueuer = createEmbeddedQueue({ db, dialect: "sqlite" });
  const created = await createBulkJob(context, { orderIds: ORDERS, staffUserId: null, queue: enqueuer });
  for (let i = 0; i < 600; i++) {
    const job = (await getBulkJob(db, DEMO_SHOP, created.id))!;
    if (job.counts.labelled >= 1 && job.items.some((item) => item.status === "RUNNING")) break;
    await sleep(25);
  }
  first.kill("SIGKILL");
  await new Promise((resolve) => first.once("exit", resolve));
  await startWorker();

  let job = (await getBulkJob(db, DEMO_SHOP, created.id))!;
  for (let i = 0; i < 1200 && (job.status === "RUNNING" || job.counts.remaining > 0); i++) {
    await sleep(50);
    job = (await getBulkJob(db, DEMO_SHOP, created.id))!;
  }
  expect(job.status).toBe("COMPLETED");
  // A purchase in flight at the kill is the reconciler's: one pass with short timings settles it.
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
  const bought = (await (await fetch(`${sandbox.url}/__admin/labels`)).json()) as { count: number; countByReference: Record<string, number> };
  expect(Math.max(...Object.values(bought.countByReference))).toBe(1);
  expect(job.counts.labelled + job.counts.pending).toBe(ORDERS.length);
  expect(bought.count).toBe(await db.label.count());
  expect(job.counts.labelled).toBe(await db.label.count());
  expect(new Set((await db.label.findMany()).map((label) => label.orderId)).size).toBe(await db.label.count());
}, 180_000);
