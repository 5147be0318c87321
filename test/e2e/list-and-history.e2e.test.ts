/**
 * The orders list and the label history in Chromium, as a French merchant in Paris sees them (issue 11 item 3, issue 19):
 *   - no hydration warning or console error on either page (dates are rendered once, on the server);
 *   - selecting a row on "Orders to ship" re-renders that row only (counted through React's DevTools hook).
 * Runs against a demo: `E2E_BASE_URL=http://localhost:3700 npx vitest run test/e2e/list-and-history.e2e.test.ts`, or
 * with `E2E=1` it starts its own demo on free ports. Skipped otherwise (it takes a minute; `npm test` stays quick).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
const enabled = Boolean(process.env.E2E_BASE_URL || process.env.E2E);

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

/** Starts `npm run demo -- --reset` on free ports and resolves with its URL once it says it is ready. */
async function startDemo(): Promise<{ url: string; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "etiquette-e2e-"));
  const [appPort, sandboxPort, emulatorPort, hmrPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const child: ChildProcess = spawn(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), "scripts/demo.ts", "--reset"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "development",
      PORT: String(appPort),
      LABEL_SANDBOX_PORT: String(sandboxPort),
      SHOPIFY_EMULATOR_PORT: String(emulatorPort),
      HMR_PORT: String(hmrPort),
      DEMO_DATA_DIR: dataDir,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const check = setInterval(() => {
      if (output.includes("demo: ready")) {
        clearInterval(check);
        resolve();
      }
    }, 200);
    child.once("exit", () => {
      clearInterval(check);
      reject(new Error(`the demo exited:\n${output}`));
    });
  });
  return {
    url: `http://localhost:${appPort}`,
    stop: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGINT");
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Installed before the page's scripts: a minimal React DevTools hook that counts, per component name, the function
 * components that actually rendered in each commit (the check React DevTools itself uses: a subtree whose child is
 * the same fiber as before was not visited; a visited fiber rendered when it carries the PerformedWork flag, 1).
 * Plain JavaScript text, so no transpiler helper ends up in the page.
 */
const RENDER_COUNTER = `
(() => {
  const counts = {};
  window.__renderCounts = counts;
  function bump(fiber) {
    const name = typeof fiber.type === "function" ? fiber.type.name : undefined;
    if (!name) return;
    // Bundled names may carry a suffix (Row2): count by base name; Polaris's table rows of orders also as "order row".
    const base = name.replace(/[0-9]+$/, "");
    counts[base] = (counts[base] || 0) + 1;
    const id = fiber.memoizedProps && fiber.memoizedProps.id;
    if (base === "Row" && typeof id === "string" && id.startsWith("gid://shopify/Order/")) counts["order row"] = (counts["order row"] || 0) + 1;
  }
  function visitChildren(parent) {
    if (parent.alternate && parent.child === parent.alternate.child) return;
    for (let child = parent.child; child; child = child.sibling) {
      if (!child.alternate || (child.flags & 1) === 1) bump(child);
      visitChildren(child);
    }
  }
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    renderers: new Map(),
    supportsFiber: true,
    inject() { return 1; },
    onScheduleFiberRoot() {},
    onCommitFiberRoot(_id, root) { visitChildren(root.current); },
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    checkDCE() {},
  };
})();
`;

describe.skipIf(!enabled)("orders list and history in Chromium (fr-FR, Europe/Paris)", () => {
  let demo: { url: string; stop: () => Promise<void> } | undefined;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    if (process.env.E2E_BASE_URL) base = process.env.E2E_BASE_URL;
    else {
      demo = await startDemo();
      base = demo.url;
    }
    // One label, so the history shows a date too (bought for free in staging, through the order page's form).
    const bought = await fetch(`${base}/app/orders/7100001035`, { method: "POST", body: new URLSearchParams({ intent: "create" }) });
    expect(bought.status).toBe(200);
    browser = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    });
    context = await browser.newContext({ locale: "fr-FR", timezoneId: "Europe/Paris" });
    await context.addInitScript({ content: RENDER_COUNTER });
    // A cold demo's first browser load may make Vite optimise dependencies and reload the page (issue 11 item 14,
    // handled in the demo elsewhere): one unwatched visit of each page first, so the checks below see stable pages.
    const warmUp = await context.newPage();
    for (const path of ["/app", "/app/labels"]) {
      await warmUp.goto(`${base}${path}`, { waitUntil: "networkidle" });
      await warmUp.waitForLoadState("networkidle");
    }
    await warmUp.close();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await demo?.stop();
  });

  /** Opens a page and returns every console error or warning and uncaught error seen until it is hydrated and idle. */
  async function open(url: string): Promise<{ page: Page; problems: string[] }> {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") problems.push(`${message.type()}: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
    await page.goto(url, { waitUntil: "networkidle" });
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
    return { page, problems };
  }

  it("the orders list hydrates without a warning, its dates in French and in the shop's days", async () => {
    const { page, problems } = await open(`${base}/app`);
    expect(problems).toEqual([]);
    await expect(page.getByRole("heading", { name: "Commandes à expédier" }).first().isVisible()).resolves.toBe(true);
    // #1051 was placed at 17:57 UTC on 5 November: 5 November in Paris.
    const row = page.locator("tr", { hasText: "#1051" }).first();
    await expect(row.textContent()).resolves.toContain("5 nov. 2026");
    await page.close();
  });

  it("the label history hydrates without a warning, its dates in French", async () => {
    const { page, problems } = await open(`${base}/app/labels`);
    expect(problems).toEqual([]);
    const row = page.locator("tr", { hasText: "#1035" }).first();
    await expect(row.textContent()).resolves.toMatch(/\d{1,2} [a-zéû.]+ \d{4}, \d{2}:\d{2}/);
    await page.close();
  });

  it("selecting a row re-renders that row only", async () => {
    const { page, problems } = await open(`${base}/app`);
    const checkboxes = page.locator("tbody tr input[type='checkbox']");
    expect(await checkboxes.count()).toBe(25);
    // The first selection switches the table into selection mode (every row shows it); count the next one.
    await checkboxes.nth(0).click({ force: true });
    // Polaris re-renders a row the pointer enters or leaves: hover first, so only the selection is counted.
    await checkboxes.nth(1).hover({ force: true });
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
    const before = await page.evaluate(() => ({ ...(window as unknown as { __renderCounts: Record<string, number> }).__renderCounts }));
    await checkboxes.nth(1).click({ force: true });
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
    const after = await page.evaluate(() => ({ ...(window as unknown as { __renderCounts: Record<string, number> }).__renderCounts }));
    const rendered = (name: string) => (after[name] ?? 0) - (before[name] ?? 0);
    console.log(`renders for one row selection: order rows ${rendered("order row")}, table cells ${rendered("Cell")}`);
    expect(await checkboxes.nth(1).isChecked()).toBe(true);
    expect(rendered("order row")).toBe(1);
    // That row's cells at most (a row has 8 besides its checkbox).
    expect(rendered("Cell")).toBeLessThanOrEqual(8);
    // The search field, tabs and filters do not depend on the selection.
    expect(rendered("IndexFilters")).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });
});
