/**
 * `npm run chaos [-- --orders 40 --bulk-orders 30 --db sqlite,postgresql --settle-ms 60000]`: the fault campaign.
 *
 * Against the demo's emulators (label sandbox with latency, 5xx, 429, connection resets, "charged but answer lost",
 * token expiry, plus malformed answers from a proxy; Shopify Admin emulator with its cost throttle), over the app's
 * real routes (production build, demo mode, two processes on one database), with SIGKILLs of an app process at
 * random moments and restarts, on SQLite and on PostgreSQL (a fresh database per run, dropped after). Merchants click
 * on order pages first; then bulk jobs (`--bulk-orders`, through POST /api/bulk-jobs) run on the two processes' job
 * queues under the same faults and SIGKILLs (scripts/chaos/bulk.ts). Then the
 * faults stop and the background reconciliation settles (RECONCILE_* settings make it fast), and the verdict is
 * counted from the sandbox's and the emulator's inspection endpoints and the database (scripts/chaos/count.ts).
 * Exits 1 when a must-be-zero count is not 0, 2 when the campaign could not run or overran its time limit.
 * Everything listens on and talks to loopback addresses only; every loop is bounded in count and time.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import pg from "pg";
import { DEMO_SHOP_DOMAIN, seedDemoShop } from "../../app/demo/seed-demo-shop.server";
import { createSecretBox } from "../../app/security/secret-box.server";
import { startLabelSandbox } from "../../emulators/label-sandbox/server";
import { generateSeed } from "../../emulators/shopify-admin/seed/generate";
import { startShopifyEmulator } from "../../emulators/shopify-admin/server";
import { AppProcess, freePort, root, sleep } from "./apps";
import { buildFor, campaignClient, serverBuildFor } from "./build";
import { runBulkPhase, type BulkPhaseResult } from "./bulk";
import { countCampaign, failures, MUST_BE_ZERO, type CampaignEvidence, type MerchantAnswer, type ShopifyOrder, type Verdict } from "./count";
import { startFaultProxy, startObservingProxy } from "./fault-proxy";

const { values: args } = parseArgs({
  options: {
    orders: { type: "string" },
    "bulk-orders": { type: "string" },
    "bulk-job-size": { type: "string" },
    "bulk-again": { type: "string" },
    "shopify-plan": { type: "string" },
    "label-concurrency": { type: "string" },
    db: { type: "string" },
    apps: { type: "string" },
    concurrency: { type: "string" },
    "settle-ms": { type: "string" },
    "kill-every-ms": { type: "string" },
    seed: { type: "string" },
    "time-limit-ms": { type: "string" },
    "postgres-url": { type: "string" },
    "lookup-pages": { type: "string" },
    "late-charges": { type: "string" },
    "late-ms": { type: "string" },
    "merchant-releases": { type: "boolean" },
    "no-token-expiry": { type: "boolean" },
    "log-errors": { type: "boolean" },
    "no-build": { type: "boolean" },
    keep: { type: "boolean" },
  },
});

function fail(message: string): never {
  console.error(`chaos: ${message}`);
  process.exit(2);
}

function intOption(name: string, envName: string, fallback: number, min = 0): number {
  const raw = (args as Record<string, string | boolean | undefined>)[name] ?? process.env[envName];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) fail(`--${name} (${envName}) must be a whole number >= ${min}, got "${String(raw)}"`);
  return value;
}

const ORDERS = intOption("orders", "CHAOS_ORDERS", 40, 1);
/** Orders selected into bulk jobs after the merchants' clicks (0: no bulk phase). Small by default, as CI runs it. */
const BULK_ORDERS = intOption("bulk-orders", "CHAOS_BULK_ORDERS", 30);
/** Orders per bulk job (one job takes at most 500). */
const BULK_JOB_SIZE = intOption("bulk-job-size", "CHAOS_BULK_JOB_SIZE", 250, 1);
if (BULK_JOB_SIZE > 500) fail("--bulk-job-size must be at most 500 (one job takes at most 500 orders)");
/** Orders already labelled selected again in one more job, which must report them and buy nothing. */
const BULK_AGAIN = intOption("bulk-again", "CHAOS_BULK_AGAIN", Math.min(50, Math.max(5, Math.ceil(BULK_ORDERS / 20))));
/** LABEL_SERVICE_MAX_CONCURRENCY for the apps: label-service calls at once per account, across both processes. */
const LABEL_CONCURRENCY = intOption("label-concurrency", "CHAOS_LABEL_CONCURRENCY", 4, 1);
/** The Shopify emulator's plan: its cost bucket and restore rate (docs/decisions/0073). */
const SHOPIFY_PLAN = String(args["shopify-plan"] ?? process.env.CHAOS_SHOPIFY_PLAN ?? "standard");
if (!["standard", "advanced", "plus"].includes(SHOPIFY_PLAN)) fail(`--shopify-plan takes standard, advanced or plus, got "${SHOPIFY_PLAN}"`);
const APPS = intOption("apps", "CHAOS_APPS", 2, 1);
const CONCURRENCY = intOption("concurrency", "CHAOS_CONCURRENCY", 6, 1);
/** How long reconciliation may take to settle once the faults stop (ends early when nothing is left open). */
const SETTLE_MS = intOption("settle-ms", "CHAOS_SETTLE_MS", BULK_ORDERS > 0 ? 240_000 : 60_000);
/** Mean time between SIGKILLs of an app process (0: never). */
const KILL_EVERY_MS = intOption("kill-every-ms", "CHAOS_KILL_EVERY_MS", 6_000);
const SEED = intOption("seed", "CHAOS_SEED", 1);
const TIME_LIMIT_MS = intOption("time-limit-ms", "CHAOS_TIME_LIMIT_MS", 15 * 60_000 + ORDERS * 3_000 + BULK_ORDERS * 2_000, 1);
const LOOKUP_PAGES = intOption("lookup-pages", "CHAOS_LOOKUP_PAGES", Math.ceil(((ORDERS + BULK_ORDERS) * 2) / 20) + 20, 1);
/**
 * Share of generate_label calls delivered to the service after the app gave up (charged late). Off by default:
 * with --merchant-releases it reproduces a second paid label (see docs/decisions/0096-...).
 */
const LATE_CHARGES = Number(args["late-charges"] ?? process.env.CHAOS_LATE_CHARGES ?? 0);
if (!(LATE_CHARGES >= 0 && LATE_CHARGES <= 1)) fail(`--late-charges must be a probability between 0 and 1`);
/** How late a late charge reaches the service, "min-max" ms. */
const LATE_MS = String(args["late-ms"] ?? process.env.CHAOS_LATE_MS ?? "5000-8000")
  .split("-")
  .map(Number) as [number, number];
if (LATE_MS.length !== 2 || !LATE_MS.every((value) => Number.isInteger(value) && value >= 0 && value <= 600_000) || LATE_MS[0] > LATE_MS[1]) {
  fail(`--late-ms must be "min-max" in ms (at most 600000)`);
}
/** The merchant answers "needs review" with "No label was bought" (release) and Create label again. */
const MERCHANT_RELEASES = Boolean(args["merchant-releases"] ?? process.env.CHAOS_MERCHANT_RELEASES === "1");
const DATABASES = String(args.db ?? process.env.CHAOS_DB ?? "sqlite,postgresql")
  .split(",")
  .map((kind) => kind.trim())
  .filter(Boolean);
for (const kind of DATABASES) if (kind !== "sqlite" && kind !== "postgresql") fail(`--db takes sqlite and/or postgresql, got "${kind}"`);
const POSTGRES_URL = String(args["postgres-url"] ?? process.env.CHAOS_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/test");
if (DATABASES.includes("postgresql")) {
  const host = new URL(POSTGRES_URL).hostname;
  if (!["127.0.0.1", "localhost", "[::1]", "::1"].includes(host)) fail(`PostgreSQL must be on a loopback address, got ${host}`);
}

/** mulberry32: the campaign's choices follow --seed (the processes' timing does not). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(SEED);
const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
const pickFrom = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

/** The sandbox's faults during the campaign (switched off for the settle phase). */
const SANDBOX_FAULTS = {
  latency: { probability: 0.3, minMs: 50, maxMs: 1_500 },
  error5xx: { probability: 0.05, status: 503 },
  rateLimit: { probability: 0.05, retryAfterSeconds: 1 },
  resetBeforeProcessing: { probability: 0.03 },
  chargedButLost: { probability: 0.05 },
};
/** A few generate_label calls wait longer than the app's timeout (the sandbox stores the label after the app gave up). */
const GENERATE_TIMEOUT_MS = 4_000;
/** Reconciliation delays: quick first tries, then every 15 s until past `windowMs` plus one more try. */
function backoffPast(windowMs: number): number[] {
  const steps = [0, 1_000, 2_000, 4_000, 8_000];
  let total = steps.reduce((sum, step) => sum + step, 0);
  while (total < windowMs + 15_000) {
    steps.push(15_000);
    total += 15_000;
  }
  return steps;
}

const SLOW = { probability: 0.02, ms: [4_500, 6_000] as [number, number] };

interface Stats {
  posts: Record<string, number>;
  answers: Record<string, number>;
  tokenExpiries: number;
  kills: number;
  elapsedMs: number;
  settleMs: number;
  settled: boolean;
  timedOut: boolean;
  startupMs: number[];
  spoiled: Record<string, number>;
  /** Shopify answers that said THROTTLED or MAX_COST_EXCEEDED. */
  shopifyRefusals: Record<string, number>;
  /** The first answers with a 5xx status, cut short: what the merchant got instead of a page. */
  errorSamples: string[];
  bulk?: BulkPhaseResult & { elapsedMs: number };
  /** Bulk items the sweeper handed back (items left RUNNING by a killed worker), by what it did, from the apps' logs. */
  swept: Record<string, number>;
}

function bump(record: Record<string, number>, key: string, by = 1): void {
  record[key] = (record[key] ?? 0) + by;
}

/** The notice a single-fetch action answer carries (turbo-stream text; the message keys appear as strings). */
function classify(status: number, text: string): string {
  if (status >= 500) return /throttled/i.test(text) ? `http ${status} (Shopify throttled)` : `http ${status}`;
  if (status !== 200) return `http ${status}`;
  const keys: [string, string][] = [
    ['"order.created"', "labelled"],
    ['"order.inProgress"', "in_progress"],
    ['"order.attempt.pending"', "pending"],
    ['"order.attempt.review"', "review"],
    ['"order.rejected"', "rejected"],
    ['"order.serviceUnavailable"', "unavailable"],
    ['"order.fulfillment.created"', "fulfilled"],
    ['"order.fulfillment.failed"', "fulfillment_failed"],
    ['"order.attach.refused"', "attach_refused"],
    ['"order.attempt.alreadySettled"', "already_settled"],
    ['"order.attempt.released"', "released"],
    ['"problems"', "problems"],
  ];
  for (const [needle, kind] of keys) if (text.includes(needle)) return kind;
  return "other";
}

const DEFINITE = new Set<string>(["labelled", "problems", "rejected", "pending", "review", "in_progress"]);

async function campaign(kind: "sqlite" | "postgresql"): Promise<{ verdict: Verdict; stats: Stats } | { error: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), `etiquette-chaos-${kind}-`));
  const encryptionKey = randomBytes(32).toString("hex");
  let databaseUrl = `file:${path.join(dir, "chaos.sqlite")}`;
  let dropDatabase: (() => Promise<void>) | undefined;
  const closers: (() => Promise<unknown>)[] = [];
  const apps: AppProcess[] = [];
  const stats: Stats = { posts: {}, answers: {}, tokenExpiries: 0, kills: 0, elapsedMs: 0, settleMs: 0, settled: false, timedOut: false, startupMs: [], spoiled: {}, errorSamples: [], shopifyRefusals: {}, swept: {} };
  const started = performance.now();
  const deadline = Date.now() + TIME_LIMIT_MS;
  try {
    if (kind === "postgresql") {
      const name = `etiquette_chaos_${process.pid}_${randomBytes(3).toString("hex")}`;
      const admin = new pg.Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = new URL(POSTGRES_URL);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
      dropDatabase = async () => {
        const client = new pg.Client({ connectionString: POSTGRES_URL });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await client.end();
      };
    }
    const migrate = spawnSync(path.join(root, "node_modules/.bin/prisma"), ["migrate", "deploy"], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      encoding: "utf8",
    });
    if (migrate.status !== 0) return { error: `migration failed:\n${migrate.stdout}\n${migrate.stderr}` };
    if (!args["no-build"]) console.log(`chaos[${kind}]: production build in ${(buildFor(kind, databaseUrl) / 1000).toFixed(1)} s`);
    const { db, close: closeDb } = await campaignClient(kind, databaseUrl);
    closers.push(closeDb);
    await seedDemoShop(db, createSecretBox(new Map([[1, Buffer.from(encryptionKey, "hex")]]), 1));

    const sandbox = await startLabelSandbox({ port: 0, faults: SANDBOX_FAULTS, random: prng(SEED + 1), tokenLifetimeSeconds: 120 });
    closers.push(() => sandbox.close());
    const setSandboxFaults = async (faults: unknown) => {
      const response = await fetch(`${sandbox.url}/__admin/faults`, { method: "POST", body: JSON.stringify(faults), signal: AbortSignal.timeout(5_000) });
      if (!response.ok) throw new Error(`sandbox faults: HTTP ${response.status}`);
    };
    const proxy = await startFaultProxy({ target: sandbox.url, generate: 0.03, other: 0.02, slow: SLOW.probability, slowMs: SLOW.ms, late: LATE_CHARGES, lateMs: LATE_MS, random: prng(SEED + 2) });
    closers.push(() => proxy.close());
    const seed = generateSeed(Math.max(ORDERS + BULK_ORDERS, 64));
    const emulator = await startShopifyEmulator({ port: 0, seed, plan: SHOPIFY_PLAN as "standard" | "advanced" | "plus" });
    closers.push(() => emulator.close());
    // The app reaches Shopify through an observer that counts throttled answers (the cost bucket at work).
    const shopifyObserver = await startObservingProxy(emulator.url, ['"THROTTLED"', '"MAX_COST_EXCEEDED"']);
    closers.push(() => shopifyObserver.close());
    const seedOrders = (seed.shops[0]!.orders ?? []).map((order) => ({
      id: String(order.id),
      gid: `gid://shopify/Order/${order.id}`,
      // The places it ships from: a line without a location ships from the shop's own.
      shipsFrom: new Set(order.lineItems.map((line) => line.locationId ?? 0)).size,
    }));
    const orders = seedOrders.slice(0, ORDERS);
    // The bulk phase's orders: the next ones, never clicked by the merchants (the seed is generated to hold them all).
    const bulkOrders = seedOrders.slice(ORDERS, ORDERS + BULK_ORDERS);
    if (bulkOrders.length < BULK_ORDERS) throw new Error(`the seed holds ${seedOrders.length} orders, ${ORDERS + BULK_ORDERS} were asked for`);

    const shopifyReport = async (id: string): Promise<ShopifyOrder> => {
      const response = await fetch(`${emulator.url}/__admin/orders/${id}`, { signal: AbortSignal.timeout(10_000) });
      const report = (await response.json()) as {
        order: { id: string };
        fulfillments: { id: string; status: string; trackingInfo: { number: string | null }[] }[];
        notifications: { fulfillmentId: string; trackingNumbers: string[] }[];
      };
      return {
        orderId: report.order.id,
        fulfillments: report.fulfillments.map((f) => ({ id: f.id, status: f.status, trackingNumbers: f.trackingInfo.map((t) => t.number ?? "").filter(Boolean) })),
        notifications: report.notifications.map((n) => ({ fulfillmentId: n.fulfillmentId, trackingNumbers: n.trackingNumbers })),
      };
    };
    const preexistingFulfillments: string[] = [];
    for (const order of [...orders, ...bulkOrders]) for (const f of (await shopifyReport(order.id)).fulfillments) preexistingFulfillments.push(f.id);

    // --log-errors: NODE_ENV=development, so Remix logs each route error to the app's log (in "test" it stays silent);
    // remix-serve then pings a dev server on start, played here by a loopback listener that answers 200.
    let devOrigin = "";
    if (args["log-errors"]) {
      const { createServer } = await import("node:http");
      const dev = createServer((request, response) => response.end("ok"));
      await new Promise<void>((resolve) => dev.listen(0, "127.0.0.1", () => resolve()));
      const address = dev.address();
      devOrigin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
      closers.push(() => new Promise((resolve) => dev.close(resolve)));
    }
    const lateChargeWindowMs = Math.max(SLOW.ms[1], LATE_CHARGES > 0 ? LATE_MS[1] : 0) + 30_000;
    const appEnv: Record<string, string> = {
      ...(devOrigin ? { REMIX_DEV_ORIGIN: devOrigin } : {}),
      NODE_ENV: devOrigin ? "development" : "test", // demo mode refuses production
      ETIQUETTE_DEMO: "1",
      SHOPIFY_ADMIN_EMULATOR_URL: shopifyObserver.url,
      SHOPIFY_API_KEY: "etiquette-demo",
      SHOPIFY_API_SECRET: "etiquette-demo-secret",
      SHOPIFY_APP_URL: "http://127.0.0.1",
      DATABASE_URL: databaseUrl,
      ENCRYPTION_KEY: encryptionKey,
      ENCRYPTION_KEY_VERSION: "1",
      LABEL_SERVICE_STAGING_URL: proxy.url,
      LABEL_SERVICE_GENERATE_TIMEOUT_MS: String(GENERATE_TIMEOUT_MS),
      LABEL_SERVICE_MAX_CONCURRENCY: String(LABEL_CONCURRENCY),
      LABEL_SERVICE_TIMEOUT_MS: "4000",
      LOG_LEVEL: "warn",
      // Reconciliation fast enough to settle within the run (honoured once app/config.server.ts reads them).
      // The backoff outlasts the late-charge window below (as the defaults do, 41 min against 10): a backoff that ended
      // first sent unanswered purchases to review before a lookup could count them as not bought.
      RECONCILE_BACKOFF_MS: backoffPast(lateChargeWindowMs).join(","),
      RECONCILE_STALE_AFTER_MS: "15000",
      RECONCILE_INTERVAL_MS: "1000",
      // A purchase without an answer counts as "not bought" only after this window (decision 0061). The campaign's
      // only late charges are the proxy's held answers (charged at once) and --late-charges: the window covers them,
      // so purchases left unknown settle within the run instead of after the 10-minute default.
      RECONCILE_LATE_CHARGE_WINDOW_MS: String(lateChargeWindowMs),
      FULFILLMENT_CLAIM_TIMEOUT_MS: "15000",
      LABEL_LOOKUP_MAX_PAGES: String(LOOKUP_PAGES),
    };
    for (let index = 0; index < APPS; index += 1) {
      apps.push(new AppProcess(`app${index + 1}`, await freePort(), serverBuildFor(kind), appEnv, path.join(dir, `app${index + 1}.log`)));
    }
    closers.push(() => Promise.all(apps.map((app) => app.stop())));
    await Promise.all(apps.map((app) => app.start(180_000))); // the first start on a loaded machine may be slow
    console.log(`chaos[${kind}]: ${orders.length} orders, ${APPS} app processes (${apps.map((app) => app.url).join(", ")}), logs in ${dir}`);

    const post = async (app: AppProcess, orderId: string, fields: Record<string, string>): Promise<string> => {
      bump(stats.posts, fields.intent ?? "?");
      let kindOfAnswer: string;
      try {
        const response = await fetch(`${app.url}/app/orders/${orderId}.data`, {
          method: "POST",
          body: new URLSearchParams(fields),
          signal: AbortSignal.timeout(30_000),
        });
        const text = await response.text();
        kindOfAnswer = classify(response.status, text);
        if (response.status >= 500 && stats.errorSamples.length < 3) stats.errorSamples.push(text.replace(/\s+/g, " ").slice(0, 240));
      } catch {
        kindOfAnswer = "no answer";
      }
      bump(stats.answers, `${fields.intent}: ${kindOfAnswer}`);
      return kindOfAnswer;
    };
    const view = async (app: AppProcess, orderId: string) => {
      bump(stats.posts, "view");
      try {
        const response = await fetch(`${app.url}/app/orders/${orderId}.data`, { signal: AbortSignal.timeout(30_000) });
        await response.arrayBuffer();
        bump(stats.answers, `view: http ${response.status}`);
      } catch {
        bump(stats.answers, "view: no answer");
      }
    };
    /** The merchant's browser reaches whichever process is serving (a load balancer would do the same). */
    const liveApp = () => pickFrom(apps.filter((app) => app.ready).length > 0 ? apps.filter((app) => app.ready) : apps);
    const answers: Record<string, MerchantAnswer | undefined> = {};
    const remember = (gid: string, answer: string) => {
      if (DEFINITE.has(answer)) answers[gid] = answer as MerchantAnswer;
    };

    /** One merchant on one order: clicks (sometimes twice, sometimes in two tabs), then follows up, boundedly. */
    const merchant = async (order: { id: string; gid: string }) => {
      if (random() < 0.3) await view(liveApp(), order.id);
      const style = random();
      const clicks = style < 0.45 ? 1 : style < 0.7 ? 2 : style < 0.9 ? 3 : 5;
      const results = await Promise.all(
        Array.from({ length: clicks }, (_, index) => {
          const app = style >= 0.45 && style < 0.7 ? apps[0]! : apps[index % apps.length]!; // double click, or tabs on both
          return post(app.ready ? app : liveApp(), order.id, { intent: "create", box: "" });
        }),
      );
      for (const answer of results) remember(order.gid, answer);
      let last = results.find((answer) => DEFINITE.has(answer)) ?? results[results.length - 1]!;
      for (let round = 0; round < 8 && Date.now() < deadline; round += 1) {
        if (last === "labelled") {
          const label = await db.label.findFirst({ where: { shop: DEMO_SHOP_DOMAIN, orderId: order.gid }, orderBy: { createdAt: "asc" } });
          if (label && label.fulfillmentStatus === "FAILED") {
            await sleep(between(200, 1_000));
            await post(liveApp(), order.id, { intent: "retryFulfillment", labelId: label.id });
            continue;
          }
          // Now and then the merchant really wants a second parcel: an additional label, double-clicked.
          if (round === 0 && random() < 0.05) {
            await Promise.all(apps.map((app) => post(app.ready ? app : liveApp(), order.id, { intent: "createAdditional", labelIndex: "2", box: "" })));
          }
          return;
        }
        if (last === "review" && MERCHANT_RELEASES) {
          const attempt = await db.purchaseAttempt.findFirst({ where: { shop: DEMO_SHOP_DOMAIN, orderId: order.gid, status: "NEEDS_REVIEW" } });
          if (attempt) await post(liveApp(), order.id, { intent: "releaseAttempt", attemptId: attempt.id });
          last = await post(liveApp(), order.id, { intent: "create", box: "" });
          remember(order.gid, last);
          continue;
        }
        if (last === "problems" || last === "review") return;
        await sleep(between(300, 2_000));
        if (last === "pending" || last === "in_progress") {
          const attempt = await db.purchaseAttempt.findFirst({
            where: { shop: DEMO_SHOP_DOMAIN, orderId: order.gid, status: { in: ["UNKNOWN", "PENDING", "NEEDS_REVIEW"] } },
          });
          if (!attempt) {
            last = await post(liveApp(), order.id, { intent: "create", box: "" }); // settled meanwhile: the page says so
          } else {
            last = await post(liveApp(), order.id, { intent: "checkAttempt", attemptId: attempt.id });
            if (last === "already_settled" || last === "labelled") last = await post(liveApp(), order.id, { intent: "create", box: "" });
          }
        } else {
          // Refused (e.g. 429), no answer, an error page: the merchant clicks Create label again.
          last = await post(liveApp(), order.id, { intent: "create", box: "" });
        }
        remember(order.gid, last);
      }
    };

    /** A restart that fails (e.g. the port still held) is tried again, a few times. */
    const startBounded = async (app: AppProcess) => {
      for (let tries = 1; ; tries += 1) {
        try {
          return await app.start();
        } catch (error) {
          if (tries >= 3) throw error;
          await app.kill();
          await sleep(1_000);
        }
      }
    };

    // Chaos beside the merchants: SIGKILLs with restarts, token expiry.
    let campaignOver = false;
    let killerError: unknown;
    const killer = (async () => {
      if (KILL_EVERY_MS === 0) return;
      for (let round = 0; round < 100_000 && !campaignOver && Date.now() < deadline; round += 1) {
        await sleep(between(Math.floor(KILL_EVERY_MS / 2), Math.floor(KILL_EVERY_MS * 1.5)));
        if (campaignOver) break;
        const victim = pickFrom(apps);
        await victim.kill();
        await sleep(between(100, 1_500));
        await startBounded(victim);
      }
    })().catch((error: unknown) => {
      // The campaign stops (the merchants see no server) and reports why; the cleanup below still runs.
      killerError = error;
      campaignOver = true;
    });
    const expirer = (async () => {
      if (args["no-token-expiry"]) return; // e.g. with --late-charges: a late call must still carry a valid token
      for (let round = 0; round < 100_000 && !campaignOver && Date.now() < deadline; round += 1) {
        await sleep(between(2_000, 8_000));
        if (campaignOver) break;
        await fetch(`${sandbox.url}/__admin/expire-tokens`, { method: "POST", signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
        stats.tokenExpiries += 1;
      }
    })();

    const queue = [...orders];
    let done = 0;
    const progressEvery = Math.max(10, Math.floor(orders.length / 10));
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let order = queue.shift(); order && Date.now() < deadline && !killerError; order = queue.shift()) {
          await merchant(order);
          done += 1;
          if (done % progressEvery === 0) console.log(`chaos[${kind}]: ${done}/${orders.length} orders, ${apps.reduce((n, app) => n + app.kills, 0)} SIGKILLs`);
        }
      }),
    );
    // Bulk jobs, on the same two processes, under the same faults and SIGKILLs.
    if (bulkOrders.length > 0 && !killerError && Date.now() < deadline) {
      const bulkStarted = performance.now();
      console.log(`chaos[${kind}]: bulk phase, ${bulkOrders.length} orders in jobs of at most ${BULK_JOB_SIZE}`);
      const result = await runBulkPhase({
        db,
        liveApp,
        orders: bulkOrders.map((order) => order.gid),
        jobSize: BULK_JOB_SIZE,
        againCount: BULK_AGAIN,
        shipsFrom: (orderId) => bulkOrders.find((order) => order.gid === orderId)?.shipsFrom ?? 1,
        retryRounds: 2,
        deadline,
        random,
        log: (message) => console.log(`chaos[${kind}]: ${message}`),
        bump: (key) => bump(stats.answers, key),
      });
      stats.bulk = { ...result, elapsedMs: performance.now() - bulkStarted };
    }
    campaignOver = true;
    await Promise.all([killer, expirer]);
    if (killerError) throw killerError;
    for (const app of apps) if (!app.ready) await startBounded(app);
    stats.timedOut = queue.length > 0 || Date.now() >= deadline || (stats.bulk?.notStarted.length ?? 0) > 0;
    stats.elapsedMs = performance.now() - started;

    // Settle: the service is healthy again; the background passes finish what the faults left open.
    await setSandboxFaults({
      latency: { probability: 0 },
      error5xx: { probability: 0 },
      rateLimit: { probability: 0 },
      resetBeforeProcessing: { probability: 0 },
      chargedButLost: { probability: 0 },
    });
    proxy.setProbabilities(0, 0, 0);
    const settleStart = performance.now();
    // An item pending on a purchase in review waits for the merchant ("No label was bought"), not for the app.
    const inReview = async () =>
      (await db.purchaseAttempt.findMany({ where: { shop: DEMO_SHOP_DOMAIN, status: "NEEDS_REVIEW" }, select: { id: true } })).map((attempt) => attempt.id);
    const open = async () =>
      (await db.purchaseAttempt.count({ where: { shop: DEMO_SHOP_DOMAIN, status: { in: ["UNKNOWN", "PENDING"] } } })) +
      (await db.label.count({ where: { shop: DEMO_SHOP_DOMAIN, fulfillmentStatus: { in: ["PENDING", "IN_PROGRESS"] } } })) +
      (await db.bulkJobItem.count({ where: { shop: DEMO_SHOP_DOMAIN, status: { in: ["QUEUED", "RUNNING"] } } })) +
      (await db.bulkJobItem.count({
        where: { shop: DEMO_SHOP_DOMAIN, status: "PENDING", OR: [{ attemptId: null }, { attemptId: { notIn: MERCHANT_RELEASES ? [] : await inReview() } }] },
      }));
    while (performance.now() - settleStart < SETTLE_MS && Date.now() < deadline) {
      if ((await open()) === 0) {
        stats.settled = true;
        break;
      }
      await sleep(1_000);
    }
    stats.settleMs = performance.now() - settleStart;

    // Evidence.
    const paid = (await (await fetch(`${sandbox.url}/__admin/labels`, { signal: AbortSignal.timeout(30_000) })).json()) as {
      labels: { id: string; custom_reference: string }[];
    };
    const evidence: CampaignEvidence = {
      attempted: orders.map((order) => order.gid),
      paidLabels: paid.labels.map((label) => ({ id: label.id, customReference: label.custom_reference })),
      attempts: await db.purchaseAttempt.findMany({
        where: { shop: DEMO_SHOP_DOMAIN },
        select: { id: true, orderId: true, labelIndex: true, customReference: true, status: true, labelId: true, locationId: true, orderSlot: true },
      }),
      labels: await db.label.findMany({
        where: { shop: DEMO_SHOP_DOMAIN },
        select: { id: true, orderId: true, serviceLabelId: true, trackingNumber: true, fulfillmentStatus: true },
      }),
      shopify: [],
      preexistingFulfillments,
      answers,
      ...(stats.bulk
        ? {
            bulk: {
              orders: bulkOrders.map((order) => order.gid),
              notStarted: stats.bulk.notStarted,
              items: await db.bulkJobItem.findMany({
                where: { shop: DEMO_SHOP_DOMAIN },
                select: { jobId: true, orderId: true, status: true, reasonJson: true, labelId: true, alreadyLabelled: true },
              }),
              againJobIds: stats.bulk.againJobIds,
              againOrders: stats.bulk.againOrders,
            },
          }
        : {}),
    };
    for (const order of [...orders, ...(stats.bulk ? bulkOrders : [])]) evidence.shopify.push(await shopifyReport(order.id));
    stats.kills = apps.reduce((n, app) => n + app.kills, 0);
    stats.startupMs = apps.flatMap((app) => app.startupMs);
    stats.spoiled = { ...proxy.spoiled };
    stats.shopifyRefusals = { ...shopifyObserver.seen };
    // The sweeper logs each item it hands back: "bulk item … was RUNNING since …: <action>".
    for (let index = 0; index < APPS; index += 1) {
      const file = path.join(dir, `app${index + 1}.log`);
      if (!existsSync(file)) continue;
      for (const match of readFileSync(file, "utf8").matchAll(/was RUNNING since [^:]+:[^:]+:[^:]+: (pending|queued|cancelled|refused)/g)) bump(stats.swept, match[1]!);
    }
    return { verdict: countCampaign(evidence), stats };
  } catch (error) {
    return { error: `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n(logs in ${dir})` };
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    if (dropDatabase && args.keep) console.log(`chaos[${kind}]: database kept: ${databaseUrl}`);
    else if (dropDatabase) await dropDatabase().catch((error: unknown) => console.error(`chaos: could not drop the database: ${String(error)}`));
    if (!args.keep) rmSync(dir, { recursive: true, force: true });
  }
}

function report(kind: string, verdict: Verdict, stats: Stats): void {
  const line = (label: string, value: string | number) => console.log(`  ${label.padEnd(38)} ${value}`);
  const median = (values: number[]) => (values.length ? [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]! : 0);
  console.log(`\n== chaos on ${kind}: ${verdict.attempted} orders clicked, ${BULK_ORDERS} in bulk jobs, ${APPS} app processes, Shopify plan ${SHOPIFY_PLAN}, label-service concurrency ${LABEL_CONCURRENCY}, seed ${SEED}`);
  line("campaign time", `${(stats.elapsedMs / 1000).toFixed(1)} s, then settle ${(stats.settleMs / 1000).toFixed(1)} s (${stats.settled ? "settled" : `not settled within ${SETTLE_MS} ms`})`);
  line("SIGKILLs of an app process", stats.kills);
  line("app start (production build), median", `${(median(stats.startupMs) / 1000).toFixed(2)} s over ${stats.startupMs.length} starts`);
  line("token expiries forced", stats.tokenExpiries);
  line("malformed answers (proxy)", Object.entries(stats.spoiled).map(([key, n]) => `${key} ${n}`).join(", ") || "0");
  line("Shopify answers throttled / too costly", `${stats.shopifyRefusals['"THROTTLED"'] ?? 0} / ${stats.shopifyRefusals['"MAX_COST_EXCEEDED"'] ?? 0}`);
  line("requests by intent", Object.entries(stats.posts).map(([key, n]) => `${key} ${n}`).join(", "));
  console.log(`  answers:`);
  for (const [key, n] of Object.entries(stats.answers).sort()) console.log(`    ${key.padEnd(36)} ${n}`);
  for (const sample of stats.errorSamples) console.log(`  a 5xx answer: ${sample}`);
  console.log(`  must be 0:`);
  for (const name of MUST_BE_ZERO) {
    const examples = verdict.details[name].slice(0, 5);
    console.log(`    ${name.padEnd(36)} ${verdict[name]}${examples.length ? `   e.g. ${examples.join(", ")}` : ""}`);
  }
  console.log(`  how the orders ended:`);
  for (const [end, n] of Object.entries(verdict.ends)) console.log(`    ${end.padEnd(36)} ${n}`);
  if (stats.bulk) {
    const bulk = stats.bulk;
    console.log(`  bulk jobs:`);
    line("  bulk phase time", `${(bulk.elapsedMs / 1000).toFixed(1)} s`);
    line("  jobs started (heard of)", `${bulk.jobIds.length}, Retry failed clicked ${bulk.retriesClicked} times`);
    line("  purchases (labels charged)", verdict.bulkPurchases);
    const endNames: Record<string, string> = { review: "pending, in review (merchant's release)" };
    for (const [end, n] of Object.entries(verdict.bulkEnds)) console.log(`    ${(endNames[end] ?? end).padEnd(36)} ${n}`);
    line("  already labelled, selected again", `${bulk.againOrders.length} orders in ${bulk.againJobIds.length} job(s)`);
    line("  items left RUNNING, swept", Object.entries(stats.swept).map(([action, n]) => `${action} ${n}`).join(", ") || "0");
  }
  line("labelled, fulfillment not in Shopify", verdict.labelledNotFulfilled);
  line("paid labels the app has not stored", verdict.paidNotStored);
  for (const order of verdict.paidNotStoredOrders.slice(0, 10)) console.log(`    ${order}`);
}

let exitCode = 0;
for (const kind of DATABASES as ("sqlite" | "postgresql")[]) {
  const result = await campaign(kind);
  if ("error" in result) {
    console.error(`chaos[${kind}]: the campaign could not run: ${result.error}`);
    exitCode = 2;
    continue;
  }
  report(kind, result.verdict, result.stats);
  if (result.stats.timedOut) {
    console.log(`  the campaign overran its time limit (${TIME_LIMIT_MS} ms): not every order was tried`);
    exitCode = Math.max(exitCode, 2);
  }
  const bad = failures(result.verdict);
  console.log(bad.length === 0 ? `  verdict: PASS (all must-be-zero counts are 0)` : `  verdict: FAIL (${bad.join(", ")})`);
  if (bad.length > 0) exitCode = Math.max(exitCode, 1);
}
process.exit(exitCode);
