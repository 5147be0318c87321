/**
 * Shopify points a bulk job spends per labelled order (issue 19: at most 45), counted from the emulator's
 * `extensions.cost` over every Admin call the job makes (its preflight's bulk read included), not estimated: the app's
 * real Admin client against the Shopify emulator on the Standard plan, the real label-service client against the
 * sandbox, the embedded queue on SQLite. Every labelled order is also checked in the emulator: one fulfillment, one
 * notice, the `$app` summary written.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createBulkJob, getBulkJob, retryFailedItems } from "../../app/bulk/bulk-jobs.server";
import { preflightBulkJob } from "../../app/bulk/preflight.server";
import { ORDER_DRAFT_FRESH_MS } from "../../app/bulk/order-draft.server";
import type { BulkRunDeps } from "../../app/bulk/run-item.server";
import type { BulkJobView } from "../../app/bulk/types";
import { createPrismaClient } from "../../app/db.server";
import { DEMO_SHIPPING_SETTINGS } from "../../app/demo/seed-demo-shop.server";
import type { PrismaClient } from "../../app/generated/prisma/client";
import { createEmbeddedQueue } from "../../app/jobs/embedded-queue.server";
import { bulkLabelItemJob } from "../../app/jobs/handlers/bulk-label-item.job";
import { registerJobs } from "../../app/jobs/registry";
import { createSemaphore } from "../../app/jobs/semaphore.server";
import type { JobQueue } from "../../app/jobs/types";
import { createLabelServiceClient } from "../../app/label-service";
import type { LabelContext } from "../../app/labels/label-order.server";
import { saveShippingSettings } from "../../app/settings/shipping-settings.server";
import { withShopifyBudget } from "../../app/shopify/admin-client";
import { InProcessShopifyBudget } from "../../app/shopify/budget";
import { DEMO_ACCOUNT, startLabelSandbox, type LabelSandbox } from "../../emulators/label-sandbox/server";
import { DEMO_SHOP, DEMO_TOKEN, startTestEmulator, type TestEmulator } from "../../emulators/shopify-admin/test-helpers";
import { costRecorder, type OperationPoints } from "../helpers/cost-recorder";
import { fulfilTestLabelsOn } from "../helpers/dev-store";
import { realAdminFor } from "../helpers/real-admin";
import { createTestDatabaseUrl } from "../helpers/test-db";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let emulator: TestEmulator;
let sandbox: LabelSandbox;
let db: PrismaClient;
let cleanup: () => void;
let tally: Map<string, OperationPoints>;
let admin: LabelContext["admin"];
let queue: JobQueue | undefined;
/** The items' clock (an item's stored order is used only while fresh). */
let clockOffsetMs = 0;

beforeAll(async () => {
  [emulator, sandbox] = await Promise.all([startTestEmulator({ plan: "standard" }), startLabelSandbox({ port: 0 })]);
  const database = createTestDatabaseUrl();
  cleanup = database.cleanup;
  db = createPrismaClient(database.url);
  await saveShippingSettings(db, DEMO_SHOP, DEMO_SHIPPING_SETTINGS);
  // Every label goes to Shopify, as a production one would (the demo shop is a development store, decision 0170).
  await fulfilTestLabelsOn(db, DEMO_SHOP);
  const real = await realAdminFor(emulator.emulator.url, db, DEMO_SHOP, DEMO_TOKEN);
  admin = withShopifyBudget(costRecorder(real, (tally = new Map())), { shop: DEMO_SHOP, maxWaitMs: 120_000, budget: new InProcessShopifyBudget() });
}, 120_000);
afterAll(async () => {
  await queue?.stop({ graceMs: 0 });
  await Promise.all([emulator?.emulator.close(), sandbox?.close()]);
  await db?.$disconnect();
  cleanup?.();
});
beforeEach(async () => {
  await queue?.stop({ graceMs: 0 });
  await fetch(`${sandbox.url}/__admin/reset`, { method: "POST" });
  await emulator.inspect("/__admin/reset", "POST");
  for (const table of [db.bulkJobItem, db.bulkJob, db.purchaseAttempt, db.label, db.semaphoreSlot, db.preflightRead] as { deleteMany(): Promise<unknown> }[]) await table.deleteMany();
  tally.clear();
  clockOffsetMs = 0;
  const client = createLabelServiceClient({ shop: DEMO_SHOP, environment: "staging", account: { baseUrl: sandbox.url, ...DEMO_ACCOUNT }, options: { generateTimeoutMs: 10_000, defaultTimeoutMs: 10_000 } });
  const deps: BulkRunDeps = {
    db,
    semaphore: createSemaphore({ db, dialect: "sqlite" }),
    maxConcurrency: 4,
    refusalDelayMs: () => 50,
    now: () => new Date(Date.now() + clockOffsetMs),
    contextFor: async (shop, frozen) => ({ shop, db: frozen.database, admin, environment: frozen.environment, settings: frozen.settings, service: async () => client }),
  };
  queue = createEmbeddedQueue({ db, dialect: "sqlite", pollMs: 20, onError: () => undefined });
  await registerJobs(queue, [bulkLabelItemJob(deps, { concurrency: 8 })]);
  await queue.start();
});

function context(): LabelContext {
  const client = createLabelServiceClient({ shop: DEMO_SHOP, environment: "staging", account: { baseUrl: sandbox.url, ...DEMO_ACCOUNT } });
  return { shop: DEMO_SHOP, db, admin, environment: "staging", settings: DEMO_SHIPPING_SETTINGS, service: async () => client };
}

async function demoOrderIds(): Promise<string[]> {
  const data = await emulator.gql("{ orders(first: 100) { nodes { id } } }");
  return (data.orders.nodes as { id: string }[]).map((order) => order.id);
}

/** The job finished, and every order summary written (the last item writes the last batch after the job completed). */
async function finished(id: string, timeoutMs = 180_000): Promise<BulkJobView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await getBulkJob(db, DEMO_SHOP, id))!;
    const due = await db.label.count({ where: { fulfillmentStatus: "CREATED", metafieldWritten: false } });
    if (job.status !== "RUNNING" && job.counts.remaining === 0 && job.counts.pending === 0 && due === 0) return job;
    if (Date.now() > deadline) throw new Error(`job ${id} did not finish: ${JSON.stringify(job.counts)}, ${due} summaries due`);
    await sleep(100);
  }
}

const calls = (name: string) => tally.get(name)?.calls ?? 0;
function spent(): { requested: number; actual: number; throttled: number } {
  let requested = 0;
  let actual = 0;
  let throttled = 0;
  for (const points of tally.values()) {
    requested += points.requested;
    actual += points.actual;
    throttled += points.throttled;
  }
  return { requested, actual, throttled };
}

describe("a bulk job's Shopify points", () => {
  it("over the demo's orders: at most 45 points spent per labelled order, each order read once, each labelled order fulfilled once with its summary", async () => {
    const ids = await demoOrderIds();
    expect(ids).toHaveLength(64);
    const created = await createBulkJob(context(), { orderIds: ids, staffUserId: null, queue });
    const job = await finished(created.id);
    const labelled = job.items.filter((item) => item.status === "LABELLED");
    expect(labelled.length).toBeGreaterThanOrEqual(30);
    expect(job.counts.remaining + job.counts.pending + job.counts.refused).toBe(0);

    const { requested, actual } = spent();
    const perLabel = actual / labelled.length;
    console.info(`bulk job over the ${ids.length} demo orders: ${labelled.length} labelled; Shopify points per label requested ${(requested / labelled.length).toFixed(1)}, spent ${perLabel.toFixed(1)}; ${JSON.stringify(Object.fromEntries(tally))}`);
    expect(perLabel).toBeLessThanOrEqual(45);
    // No call asks for more than 1.5x what it spends (Shopify reserves the requested cost before running it).
    for (const [name, points] of tally) expect(points.requested, `${name}: requested ${points.requested}, spent ${points.actual}`).toBeLessThanOrEqual(1.5 * points.actual);
    // Each order was read once, by the job's bulk read: no item read its order or its fulfillment orders again.
    for (const name of ["OrderForLabel", "OrderForLabelLineItems", "FulfillmentContext", "FulfillmentContextFulfillmentOrders", "FulfillmentContextLines"]) expect(calls(name), name).toBe(0);
    // One fulfillment per label: an order shipping from two locations has two labels (decision 0115).
    const labels = await db.label.count();
    expect(labels).toBeGreaterThan(labelled.length);
    expect(calls("FulfillmentCreate")).toBe(labels);
    // The summaries: one metafieldsSet per 25 orders (rounding up per flush), not one per order.
    expect(calls("OrderLabelMetafieldSet")).toBeLessThanOrEqual(Math.ceil(labelled.length / 25) + 1);
    expect(calls("ShopPlan")).toBeLessThanOrEqual(2);

    for (const item of labelled) {
      const { body } = await emulator.inspect(`/__admin/orders/${item.orderId.split("/").pop()}`);
      const carrying = (list: unknown[] | undefined) => (list ?? []).filter((entry) => JSON.stringify(entry).includes(item.trackingNumber!)).length;
      expect(carrying(body.fulfillments), item.orderName).toBe(1);
      expect(carrying(body.notifications), item.orderName).toBe(1);
      expect(JSON.stringify(body.metafields), item.orderName).toContain(item.trackingNumber!);
    }
    expect(await db.label.count({ where: { metafieldWritten: false } })).toBe(0);
    // Nothing of the recipients' data is kept on the items once they ran.
    expect(await db.bulkJobItem.count({ where: { orderSealed: { not: null } } })).toBe(0);
  }, 240_000);

  it("an item whose stored order is older than its freshness window reads the order again (once), and Retry failed always does", async () => {
    const ids = (await demoOrderIds()).slice(0, 12);
    clockOffsetMs = ORDER_DRAFT_FRESH_MS + 60_000;
    await fetch(`${sandbox.url}/__admin/faults`, { method: "POST", body: JSON.stringify({ refuseLabel: { next: 1 } }) });
    const created = await createBulkJob(context(), { orderIds: ids, staffUserId: null, queue });
    const job = await finished(created.id);
    const ran = job.items.filter((item) => item.status === "LABELLED" || item.status === "REFUSED");
    expect(job.counts.refused).toBe(1);
    // Stale: each item that ran read its order once, and its push used that read (no FulfillmentContext).
    expect(calls("OrderForLabel")).toBe(ran.length);
    expect(calls("FulfillmentContext")).toBe(0);

    clockOffsetMs = 0;
    tally.clear();
    const retried = (await retryFailedItems(db, DEMO_SHOP, created.id, { queue }))!.retried;
    expect(retried).toBe(job.counts.refused + job.counts.blocked);
    const again = await finished(created.id);
    expect(again.counts).toMatchObject({ refused: 0, labelled: job.counts.labelled + 1 });
    // A fresh clock, yet each retried item read its order from Shopify (its stored read was dropped), once.
    expect(calls("OrderForLabel")).toBe(retried);
    expect(calls("FulfillmentContext")).toBe(0);
  }, 240_000);

  it("a job started from the preflight the merchant just looked at does not read its orders again", async () => {
    const ids = (await demoOrderIds()).slice(0, 16);
    const preflight = await preflightBulkJob(context(), ids);
    expect(calls("OrdersForLabelBulkRun")).toBeGreaterThan(0);
    // Kept sealed, a few minutes.
    const kept = await db.preflightRead.findMany();
    expect(kept).toHaveLength(ids.length);
    expect(kept.every((row) => row.orderSealed.startsWith("v") && !row.orderSealed.includes("{"))).toBe(true);

    tally.clear();
    const jobIds = [...preflight.ready, ...preflight.blocked, ...preflight.alreadyLabelled].map((order) => order.orderId);
    const created = await createBulkJob(context(), { orderIds: jobIds, staffUserId: null, queue });
    const job = await finished(created.id);
    expect(job.counts.labelled).toBe(preflight.ready.length);
    for (const name of ["OrdersForLabelBulkRun", "OrdersForLabelBulkPoll", "OrderForLabel", "FulfillmentContext"]) expect(calls(name), name).toBe(0);
    expect(await db.preflightRead.count()).toBe(0);
  }, 240_000);
});
