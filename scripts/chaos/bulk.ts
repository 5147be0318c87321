/**
 * The campaign's bulk phase: a merchant selects orders and clicks Create labels, through the app's JSON API
 * (POST /api/bulk-jobs, demo mode's shop), in jobs of at most `jobSize` orders, while the campaign's faults and
 * SIGKILLs go on; the progress page is looked at now and then; Retry failed is clicked on jobs that end with refused
 * items (bounded rounds); then a job is started again over orders already labelled, which must report them as such
 * and buy nothing. Every wait here is bounded by the campaign's deadline.
 */
import type { PrismaClient } from "../../app/generated/prisma/client";
import { DEMO_SHOP_DOMAIN } from "../../app/demo/seed-demo-shop.server";
import { sleep, type AppProcess } from "./apps";
import { labelledInFull } from "./count";

export interface BulkPhaseOptions {
  db: PrismaClient;
  /** A process that is serving now (or any, when none is). */
  liveApp: () => AppProcess;
  orders: string[];
  jobSize: number;
  /** Orders already labelled started again in one more job (0: none). */
  againCount: number;
  /** How many places (locations) an order ships from, from the seed's lines. */
  shipsFrom: (orderId: string) => number;
  retryRounds: number;
  deadline: number;
  random: () => number;
  log: (message: string) => void;
  bump: (key: string) => void;
}

export interface BulkPhaseResult {
  /** The jobs the campaign heard of (a creation whose answer was lost and was clicked again may have made one more). */
  jobIds: string[];
  /** The jobs over orders already labelled. */
  againJobIds: string[];
  /** The orders selected in those jobs. */
  againOrders: string[];
  /** The bulk orders whose creation never succeeded (never put in a job). */
  notStarted: string[];
  retriesClicked: number;
}

const UNFINISHED = ["QUEUED", "RUNNING"];

/** POST to a live process; null when no answer came (killed, timed out). */
async function postJson(app: AppProcess, path: string, body: unknown, timeoutMs: number): Promise<{ status: number; json: unknown } | null> {
  try {
    const response = await fetch(`${app.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = text.slice(0, 200);
    }
    return { status: response.status, json };
  } catch {
    return null;
  }
}

/** Create labels for one selection: clicked again after an error page or no answer, a bounded number of times. */
async function createJob(options: BulkPhaseOptions, orderIds: string[]): Promise<string | null> {
  for (let click = 1; click <= 12 && Date.now() < options.deadline; click += 1) {
    const answer = await postJson(options.liveApp(), "/api/bulk-jobs", { orderIds }, 120_000);
    options.bump(`bulk create: ${answer ? `http ${answer.status}` : "no answer"}`);
    if (answer?.status === 201) return (answer.json as { id: string }).id;
    if (answer && answer.status >= 400 && answer.status < 500) {
      throw new Error(`POST /api/bulk-jobs refused the selection: HTTP ${answer.status} ${JSON.stringify(answer.json).slice(0, 300)}`);
    }
    await sleep(500 + Math.floor(options.random() * 2_000));
  }
  return null;
}

/**
 * The shop's jobs with items still to run, from the database (the campaign's own view, cheap). Every job of the shop:
 * a creation whose answer was lost and that was clicked again may have made a job the campaign never heard of.
 */
async function running(db: PrismaClient): Promise<string[]> {
  const rows = await db.bulkJobItem.groupBy({ by: ["jobId"], where: { shop: DEMO_SHOP_DOMAIN, status: { in: UNFINISHED } }, _count: { _all: true } });
  return rows.map((row) => row.jobId);
}

async function waitForJobs(options: BulkPhaseOptions, label: string): Promise<void> {
  let lastLog = 0;
  let lastView = 0;
  while (Date.now() < options.deadline) {
    const open = await running(options.db);
    if (open.length === 0) return;
    if (Date.now() - lastView > 10_000) {
      // The merchant's progress page (GET /api/bulk-jobs/:id), now and then.
      lastView = Date.now();
      const id = open[Math.floor(options.random() * open.length)]!;
      try {
        const response = await fetch(`${options.liveApp().url}/api/bulk-jobs/${id}`, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(30_000) });
        await response.arrayBuffer();
        options.bump(`bulk view: http ${response.status}`);
      } catch {
        options.bump("bulk view: no answer");
      }
    }
    if (Date.now() - lastLog > 30_000) {
      lastLog = Date.now();
      const counts = await options.db.bulkJobItem.groupBy({ by: ["status"], where: { shop: DEMO_SHOP_DOMAIN }, _count: { _all: true } });
      options.log(`${label}: ${counts.map((row) => `${row.status} ${row._count._all}`).join(", ")}`);
    }
    await sleep(2_000);
  }
}

export async function runBulkPhase(options: BulkPhaseOptions): Promise<BulkPhaseResult> {
  const result: BulkPhaseResult = { jobIds: [], againJobIds: [], againOrders: [], notStarted: [], retriesClicked: 0 };
  for (let start = 0; start < options.orders.length && Date.now() < options.deadline; start += options.jobSize) {
    const selection = options.orders.slice(start, start + options.jobSize);
    const id = await createJob(options, selection);
    if (id) result.jobIds.push(id);
    else result.notStarted.push(...selection);
    options.log(`bulk job ${result.jobIds.length} of ${Math.ceil(options.orders.length / options.jobSize)}: ${id ?? "not started"} (${selection.length} orders)`);
  }
  await waitForJobs(options, "bulk items");

  // Retry failed: the merchant clicks it on jobs that ended with refused items (the service said no, or kept saying 429).
  for (let round = 1; round <= options.retryRounds && Date.now() < options.deadline; round += 1) {
    const refused = await options.db.bulkJobItem.groupBy({ by: ["jobId"], where: { shop: DEMO_SHOP_DOMAIN, status: "REFUSED" }, _count: { _all: true } });
    if (refused.length === 0) break;
    for (const { jobId } of refused) {
      for (let click = 1; click <= 5 && Date.now() < options.deadline; click += 1) {
        const answer = await postJson(options.liveApp(), `/api/bulk-jobs/${jobId}/retry`, {}, 60_000);
        options.bump(`bulk retry: ${answer ? `http ${answer.status}` : "no answer"}`);
        if (answer?.status === 200) break;
        await sleep(1_000);
      }
      result.retriesClicked += 1;
    }
    await waitForJobs(options, `bulk items (retry round ${round})`);
  }

  // Orders already labelled, selected again: reported as such, never bought again.
  if (options.againCount > 0 && Date.now() < options.deadline) {
    // Only orders labelled in full (every place they ship from, no purchase still open): an order labelled at one of
    // its two locations, the other in review, is rightly reported as a purchase in progress. 500 ids per query: SQLite
    // refuses more than 999 parameters in one statement.
    const labelled: string[] = [];
    for (let start = 0; start < options.orders.length && labelled.length < options.againCount; start += 500) {
      const rows = await options.db.purchaseAttempt.findMany({
        where: { shop: DEMO_SHOP_DOMAIN, orderId: { in: options.orders.slice(start, start + 500) } },
        select: { orderId: true, status: true, labelId: true, locationId: true },
      });
      const byOrder = new Map<string, typeof rows>();
      for (const row of rows) byOrder.set(row.orderId, [...(byOrder.get(row.orderId) ?? []), row]);
      for (const [orderId, attempts] of byOrder) {
        if (labelled.length < options.againCount && labelledInFull(attempts, options.shipsFrom(orderId))) labelled.push(orderId);
      }
    }
    result.againOrders = labelled;
    if (result.againOrders.length > 0) {
      const before = new Date();
      await createJob(options, result.againOrders);
      // Every job made by these clicks (one, or two when an answer was lost and the merchant clicked again).
      const again = await options.db.bulkJob.findMany({ where: { shop: DEMO_SHOP_DOMAIN, createdAt: { gte: before } }, select: { id: true } });
      result.againJobIds = again.map((job) => job.id);
      await waitForJobs(options, "bulk items (orders already labelled)");
    }
  }
  return result;
}
