/**
 * The demo on a production build, for measuring pages in a browser (`npm run vitals`,
 * scripts/measure-list-selection.ts): the label sandbox, the Shopify emulator seeded with `orders` orders (Plus plan,
 * so pages are not throttled) and the app's production build under remix-serve in demo mode on a fresh SQLite
 * database under .tmp/<name>, all on free loopback ports. Also the browser side every measurement shares: Chromium at
 * 4x CPU slowdown (as Built for Shopify measures) with Web Vitals observers installed before any script of the page.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { createPrismaClient } from "../app/db.server";
import { seedDemoShop } from "../app/demo/seed-demo-shop.server";
import { createSecretBox } from "../app/security/secret-box.server";
import { startLabelSandbox } from "../emulators/label-sandbox/server";
import { DEFAULT_SEED_FILE, startShopifyEmulator, type Seed } from "../emulators/shopify-admin/server";

export const root = path.resolve(import.meta.dirname, "..");

/** `--name value` from the command line, as a number. */
export function numberArg(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
}

/** The 75th percentile (nearest rank), as web-vitals and Built for Shopify report it. */
export function p75(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.75) - 1)];
}

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
      const clone = structuredClone(order) as Loose & {
        number: number;
        lineItems: Loose[];
        customer?: Loose | null;
        fulfillments?: { lineItems?: { lineItemId: number }[] }[];
      };
      clone.id = order.id + copy * 1000;
      clone.number = (order.number as number) + copy * 100;
      clone.lineItems = clone.lineItems.map((line) => ({ ...line, id: line.id + copy * 1_000_000 }));
      for (const fulfillment of clone.fulfillments ?? [])
        for (const line of fulfillment.lineItems ?? []) line.lineItemId += copy * 1_000_000;
      if (clone.customer) clone.customer = { ...clone.customer, id: clone.customer.id + copy * 1000 };
      orders.push(clone);
    }
  }
  shop.orders = orders;
  return seed as unknown as Seed;
}

export interface ProductionDemo {
  appUrl: string;
  close(): Promise<void>;
}

/** Builds (unless `build` is false) and starts everything; `close()` stops it all. */
export async function startProductionDemo({
  name,
  orders,
  build,
}: {
  name: string;
  orders: number;
  build: boolean;
}): Promise<ProductionDemo> {
  const children: ChildProcess[] = [];
  const closers: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const closer of closers) await closer().catch(() => undefined);
    for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  };
  try {
    if (build) {
      console.log(`${name}: building (remix vite:build)…`);
      const built = spawnSync(
        process.execPath,
        [path.join(root, "node_modules/@remix-run/dev/dist/cli.js"), "vite:build"],
        { cwd: root, encoding: "utf8" },
      );
      if (built.status !== 0) throw new Error(`build failed:\n${built.stdout}\n${built.stderr}`);
    }
    const dir = path.join(root, ".tmp", name);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const databaseUrl = `file:${path.join(dir, `${name}.sqlite`)}`;
    const migrate = spawnSync(path.join(root, "node_modules/.bin/prisma"), ["migrate", "deploy"], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      encoding: "utf8",
    });
    if (migrate.status !== 0) throw new Error(`migration failed:\n${migrate.stderr}`);
    const key = randomBytes(32);
    const db = createPrismaClient(databaseUrl);
    await seedDemoShop(db, createSecretBox(new Map([[1, key]]), 1));
    await db.$disconnect();

    const sandbox = await startLabelSandbox({ port: 0 });
    closers.push(() => sandbox.close());
    const emulator = await startShopifyEmulator({ port: 0, seed: seedWithOrders(orders), plan: "plus" });
    closers.push(() => emulator.close());

    const port = await freePort();
    const appUrl = `http://127.0.0.1:${port}`;
    const app = spawn(
      process.execPath,
      [path.join(root, "node_modules/@remix-run/serve/dist/cli.js"), path.join(root, "build/server/index.js")],
      {
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
      },
    );
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
    return { appUrl, close };
  } catch (error) {
    await close();
    throw error;
  }
}

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

export interface Vitals {
  lcp: number;
  cls: number;
  /** Each interaction's longest event duration (input delay + processing + until the next paint), in order. */
  interactions: Record<string, number>;
}

/** The page's figures so far, after letting the last interaction's entries arrive. */
export async function readVitals(page: Page, waitMs = 1500): Promise<Vitals> {
  await page.waitForTimeout(waitMs);
  return page.evaluate(() => (window as unknown as { __vitals: Vitals }).__vitals);
}

/** A merchant's browser: French admin, Paris time, a laptop's window. */
export async function launchMeasuringBrowser(): Promise<{ browser: Browser; context: BrowserContext }> {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  const context = await browser.newContext({
    locale: "fr-FR",
    timezoneId: "Europe/Paris",
    viewport: { width: 1280, height: 900 },
  });
  await context.addInitScript({ content: OBSERVERS });
  return { browser, context };
}

/** A new page view at 4x CPU slowdown, loaded until the network is idle. */
export async function openThrottled(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await page.goto(url, { waitUntil: "networkidle" });
  return page;
}
