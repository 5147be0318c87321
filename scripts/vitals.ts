/**
 * `npm run vitals [-- --orders 256 --loads 5 --interactions 40 --no-build]`: Web Vitals of the demo on a production
 * build, in Chromium at 4x CPU slowdown (as Built for Shopify measures), against its thresholds: LCP <= 2.5 s,
 * CLS <= 0.1, INP <= 200 ms, each at p75; and the JavaScript each page loads (gzip).
 *
 * Starts everything itself on free loopback ports (label sandbox, Shopify emulator seeded with `--orders` orders,
 * the app's production build under remix-serve in demo mode on a fresh SQLite database under .tmp/vitals), then
 * stops it. LCP and CLS over `--loads` loads of the orders list and of an order page; INP over `--interactions`
 * row selections on the orders list (clicks on a row's checkbox, spread over several loads), and over clicks on the
 * order page's collapsible sections. Figures for the notes, not a test: they depend on the machine.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { chromium, type Page } from "playwright-core";
import { createPrismaClient } from "../app/db.server";
import { seedDemoShop } from "../app/demo/seed-demo-shop.server";
import { createSecretBox } from "../app/security/secret-box.server";
import { startLabelSandbox } from "../emulators/label-sandbox/server";
import { DEFAULT_SEED_FILE, startShopifyEmulator, type Seed } from "../emulators/shopify-admin/server";
import { pageWeights } from "./page-weight";

const root = path.resolve(import.meta.dirname, "..");
const arg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const ORDERS = arg("orders", 256);
const LOADS = arg("loads", 5);
const INTERACTIONS = arg("interactions", 40);
const THRESHOLDS = { lcp: 2500, cls: 0.1, inp: 200 };

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

type Loose = Record<string, unknown> & { id: number };

/** The default seed with its orders copied until there are `count` (new ids and numbers, same shop). */
export function seedWithOrders(count: number): Seed {
  const seed = JSON.parse(readFileSync(DEFAULT_SEED_FILE, "utf8")) as { shops: { orders: Loose[] }[] };
  const shop = seed.shops[0]!;
  const base = shop.orders;
  const orders: Loose[] = [];
  for (let copy = 0; orders.length < count; copy += 1) {
    for (const order of base) {
      if (orders.length >= count) break;
      if (copy === 0) {
        orders.push(order);
        continue;
      }
      const clone = structuredClone(order) as Loose & { number: number; lineItems: Loose[]; customer?: Loose | null; fulfillments?: { lineItems?: { lineItemId: number }[] }[] };
      clone.id = order.id + copy * 1000;
      clone.number = (order.number as number) + copy * 100;
      clone.lineItems = clone.lineItems.map((line) => ({ ...line, id: line.id + copy * 1_000_000 }));
      for (const fulfillment of clone.fulfillments ?? []) for (const line of fulfillment.lineItems ?? []) line.lineItemId += copy * 1_000_000;
      if (clone.customer) clone.customer = { ...clone.customer, id: clone.customer.id + copy * 1000 };
      orders.push(clone);
    }
  }
  shop.orders = orders;
  return seed as unknown as Seed;
}

const p75 = (values: number[]) => {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.75) - 1)];
};

/** Observers installed before any script of the page: LCP, CLS (largest session window), INP (per interaction). */
const OBSERVERS = `
  window.__vitals = { lcp: 0, cls: 0, interactions: {} };
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__vitals.lcp = e.startTime; })
    .observe({ type: "largest-contentful-paint", buffered: true });
  let session = 0, first = 0, last = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.hadRecentInput) continue;
      if (session && e.startTime - last < 1000 && e.startTime - first < 5000) session += e.value;
      else { session = e.value; first = e.startTime; }
      last = e.startTime;
      window.__vitals.cls = Math.max(window.__vitals.cls, session);
    }
  }).observe({ type: "layout-shift", buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (!e.interactionId) continue;
      const seen = window.__vitals.interactions[e.interactionId] || 0;
      window.__vitals.interactions[e.interactionId] = Math.max(seen, e.duration);
    }
  }).observe({ type: "event", durationThreshold: 0, buffered: true });
`;

interface Vitals {
  lcp: number;
  cls: number;
  interactions: Record<string, number>;
}

async function settle(page: Page): Promise<Vitals> {
  await page.waitForTimeout(1500);
  return page.evaluate(() => (window as unknown as { __vitals: Vitals }).__vitals);
}

const children: ChildProcess[] = [];
const closers: (() => Promise<unknown>)[] = [];
try {
  if (!process.argv.includes("--no-build")) {
    console.log("vitals: building (remix vite:build)…");
    const built = spawnSync(process.execPath, [path.join(root, "node_modules/@remix-run/dev/dist/cli.js"), "vite:build"], { cwd: root, encoding: "utf8" });
    if (built.status !== 0) throw new Error(`build failed:\n${built.stdout}\n${built.stderr}`);
  }
  const dir = path.join(root, ".tmp/vitals");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const databaseUrl = `file:${path.join(dir, "vitals.sqlite")}`;
  const migrate = spawnSync(path.join(root, "node_modules/.bin/prisma"), ["migrate", "deploy"], { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: "utf8" });
  if (migrate.status !== 0) throw new Error(`migration failed:\n${migrate.stderr}`);
  const key = randomBytes(32);
  const db = createPrismaClient(databaseUrl);
  await seedDemoShop(db, createSecretBox(new Map([[1, key]]), 1));
  await db.$disconnect();

  const sandbox = await startLabelSandbox({ port: 0 });
  closers.push(() => sandbox.close());
  const emulator = await startShopifyEmulator({ port: 0, seed: seedWithOrders(ORDERS), plan: "plus" });
  closers.push(() => emulator.close());

  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const app = spawn(process.execPath, [path.join(root, "node_modules/@remix-run/serve/dist/cli.js"), path.join(root, "build/server/index.js")], {
    cwd: root,
    stdio: ["ignore", "ignore", "pipe"],
    env: {
      ...process.env,
      NODE_ENV: "test", // demo mode refuses production; the bundle is the production build all the same
      PORT: String(port),
      HOST: "127.0.0.1",
      ETIQUETTE_DEMO: "1",
      SHOPIFY_ADMIN_EMULATOR_URL: emulator.url,
      SHOPIFY_API_KEY: "etiquette-demo",
      SHOPIFY_API_SECRET: "etiquette-demo-secret",
      SHOPIFY_APP_URL: appUrl,
      DATABASE_URL: databaseUrl,
      ENCRYPTION_KEY: key.toString("hex"),
      ENCRYPTION_KEY_VERSION: "1",
      LABEL_SERVICE_STAGING_URL: sandbox.url,
      LOG_LEVEL: "warn",
    },
  });
  children.push(app);
  let appErrors = "";
  app.stderr?.on("data", (chunk: Buffer) => (appErrors += chunk.toString()));
  for (let tries = 0; ; tries += 1) {
    if (app.exitCode !== null) throw new Error(`the app exited:\n${appErrors}`);
    try {
      if ((await fetch(`${appUrl}/app`)).ok) break;
    } catch {
      // not yet listening
    }
    if (tries > 300) throw new Error(`the app did not start:\n${appErrors}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
  closers.unshift(() => browser.close());
  const context = await browser.newContext({ locale: "fr-FR", timezoneId: "Europe/Paris", viewport: { width: 1280, height: 900 } });
  await context.addInitScript({ content: OBSERVERS });
  const open = async (url: string) => {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    await page.goto(url, { waitUntil: "networkidle" });
    return page;
  };

  // inp: every interaction; worst: each page view's slowest (the page view's INP as web-vitals reports it).
  const results: { page: string; lcp: number[]; cls: number[]; inp: number[]; worst: number[] }[] = [];
  // The orders list: loads, and row selections (a few per load, as a merchant picks orders).
  const list = { page: "Orders to ship (/app)", lcp: [] as number[], cls: [] as number[], inp: [] as number[], worst: [] as number[] };
  const perLoad = Math.max(1, Math.ceil(INTERACTIONS / LOADS));
  let firstOrder = "";
  for (let load = 0; load < LOADS; load += 1) {
    const page = await open(`${appUrl}/app`);
    await page.waitForTimeout(arg("idle-ms", 1000)); // a merchant reads the list before picking orders
    const checkboxes = page.locator("tbody tr input[type='checkbox']");
    const rows = await checkboxes.count();
    if (rows === 0) throw new Error("the orders list shows no rows");
    firstOrder ||= (await page.locator("tbody tr a[href*='/app/orders/']").first().getAttribute("href")) ?? "";
    for (let index = 0; index < perLoad && list.inp.length + index < INTERACTIONS; index += 1) {
      await checkboxes.nth((load * perLoad + index) % rows).click({ force: true });
      await page.waitForTimeout(250);
    }
    const vitals = await settle(page);
    list.lcp.push(vitals.lcp);
    list.cls.push(vitals.cls);
    list.inp.push(...Object.values(vitals.interactions));
    list.worst.push(Math.max(0, ...Object.values(vitals.interactions)));
    await page.close();
  }
  results.push(list);

  // An order page: loads; interactions are clicks on its section headings (nothing is bought).
  const orderPage = { page: "Order page (/app/orders/:id)", lcp: [] as number[], cls: [] as number[], inp: [] as number[], worst: [] as number[] };
  if (!firstOrder) throw new Error("no order link on the orders list");
  for (let load = 0; load < LOADS; load += 1) {
    const page = await open(new URL(firstOrder, appUrl).toString());
    const headings = page.locator("h2");
    const count = Math.min(await headings.count(), 4);
    for (let index = 0; index < count; index += 1) {
      await headings.nth(index).click({ force: true });
      await page.waitForTimeout(200);
    }
    const vitals = await settle(page);
    orderPage.lcp.push(vitals.lcp);
    orderPage.cls.push(vitals.cls);
    orderPage.inp.push(...Object.values(vitals.interactions));
    orderPage.worst.push(Math.max(0, ...Object.values(vitals.interactions)));
    await page.close();
  }
  results.push(orderPage);

  const weights = new Map(pageWeights(path.join(root, "build/client")).map((weight) => [weight.page, weight.gzipBytes]));
  const verdict = (value: number | undefined, limit: number) => (value === undefined ? "n/a" : value <= limit ? "ok" : "OVER");
  console.log(`\nWeb Vitals at 4x CPU slowdown, production build, ${ORDERS} orders in the shop, p75 (Built for Shopify: LCP <= 2.5 s, CLS <= 0.1, INP <= 200 ms)`);
  for (const result of results) {
    const lcp = p75(result.lcp);
    const cls = p75(result.cls);
    const inp = p75(result.inp);
    const js = weights.get(result.page);
    console.log(
      `${result.page}: LCP ${lcp === undefined ? "n/a" : `${(lcp / 1000).toFixed(2)} s`} ${verdict(lcp, THRESHOLDS.lcp)} · ` +
        `CLS ${cls?.toFixed(3) ?? "n/a"} ${verdict(cls, THRESHOLDS.cls)} · ` +
        `INP ${inp === undefined ? "n/a" : `${Math.round(inp)} ms`} ${verdict(inp, THRESHOLDS.inp)} (${result.inp.length} interactions; per page view, worst one: p75 ${Math.round(p75(result.worst) ?? 0)} ms) · ` +
        `JS ${js === undefined ? "n/a" : `${(js / 1024).toFixed(1)} KB gzip`}`,
    );
    if (process.argv.includes("--verbose")) console.log(`    interactions, ms: ${result.inp.map((value) => Math.round(value)).join(", ")}`);
  }
} finally {
  for (const close of closers) await close().catch(() => undefined);
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
}
