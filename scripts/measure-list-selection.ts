/**
 * `npx tsx scripts/measure-list-selection.ts [--views 24] [--selections 3] [--orders 256] [--no-build] [--url URL] [--trace] [--renders]`:
 * selecting rows on "Orders to ship" in Chromium at 4x CPU slowdown (as Built for Shopify measures).
 *
 * Each page view loads the list, waits for React to have hydrated the table, lets the merchant read it for a second,
 * then ticks `--selections` rows one after the other (the pointer rests on a row's checkbox before it clicks, as a
 * hand does). What Built for Shopify reports
 * is a page view's INP, its worst interaction (web-vitals with fewer than 50 interactions), at p75 over page views:
 * this prints that, and the p75 of first selections, of later selections and of every selection. Starts its own
 * production demo (scripts/production-demo.ts), or measures a running one with `--url`.
 *
 * `--renders` also counts the components React renders for a page view's first and second ticks, commit by commit.
 *
 * `--trace [--traces 5]` also records a Chromium performance trace of the first selection of a few page views and
 * prints where the renderer's main thread spent that interaction, from the press to the first frame after the click
 * (the thread's own CPU time, which other processes on the machine inflate less than wall time): the click's
 * handlers (React's render and the effects it flushes), style, layout, paint. Figures for the notes, not
 * a test: they depend on the machine.
 */
import path from "node:path";
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";
import {
  launchMeasuringBrowser,
  numberArg,
  openThrottled,
  p75,
  readVitals,
  startProductionDemo,
} from "./production-demo";

export interface SelectionViews {
  /** Per page view, its selections' durations in the order they happened (ms). */
  views: number[][];
}

const ROW_CHECKBOXES = "tbody tr input[type='checkbox']";

/**
 * Waits until React has hydrated the whole table (it hydrates top-down and marks each element it adopted with its
 * props): on a loaded machine the network is idle long before hydration ends, and a tick that lands during hydration
 * measures the machine's load, not the selection.
 */
export async function waitForHydratedTable(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const last = document.querySelector("tbody tr:last-child input[type='checkbox']");
      return last !== null && Object.keys(last).some((key) => key.startsWith("__reactProps"));
    },
    undefined,
    { timeout: 60_000, polling: 100 },
  );
}

/** Ticks a row as a merchant does: the pointer moves onto its checkbox, rests, then clicks. */
export async function tickRow(page: Page, index: number): Promise<void> {
  const checkbox = page.locator(ROW_CHECKBOXES).nth(index);
  await checkbox.hover({ force: true });
  await page.waitForTimeout(150);
  await checkbox.click({ force: true });
}

/** `views` page views of the list, `selections` ticked rows in each (each view starts at a different row). */
export async function measureListSelections(
  context: BrowserContext,
  appUrl: string,
  { views, selections, idleMs = 1000 }: { views: number; selections: number; idleMs?: number },
): Promise<SelectionViews> {
  const result: number[][] = [];
  for (let view = 0; view < views; view += 1) {
    const page = await openThrottled(context, `${appUrl}/app`);
    await waitForHydratedTable(page);
    await page.waitForTimeout(idleMs); // a merchant reads the list before picking orders
    const rows = await page.locator(ROW_CHECKBOXES).count();
    if (rows === 0) throw new Error("the orders list shows no rows");
    for (let index = 0; index < selections; index += 1) {
      await tickRow(page, (view * selections + index) % rows);
      await page.waitForTimeout(300);
    }
    const vitals = await readVitals(page);
    const durations = Object.entries(vitals.interactions)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([, duration]) => duration);
    result.push(durations);
    await page.close();
  }
  return { views: result };
}

export function describeSelections({ views }: SelectionViews): string[] {
  const worst = views.map((durations) => Math.max(0, ...durations));
  const first = views.flatMap((durations) => durations.slice(0, 1));
  const later = views.flatMap((durations) => durations.slice(1));
  const all = views.flat();
  const ms = (value: number | undefined) => (value === undefined ? "n/a" : `${Math.round(value)} ms`);
  return [
    `page views: ${views.length}, selections: ${all.length}`,
    `INP per page view (its worst selection), p75: ${ms(p75(worst))} (Built for Shopify: <= 200 ms)`,
    `first selection of a page view, p75: ${ms(p75(first))}; later selections, p75: ${ms(p75(later))}; every selection, p75: ${ms(p75(all))}`,
  ];
}

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { data?: Record<string, unknown> & { type?: string; frame?: string; functionName?: string; url?: string } };
}

const CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "v8.execute",
  "blink.user_timing",
  "latencyInfo",
].join(",");

/** Records one trace of a page view's first selection and sums the renderer main thread's work by kind. */
async function traceFirstSelection(
  context: BrowserContext,
  appUrl: string,
  view: number,
): Promise<Map<string, number>> {
  const page = await openThrottled(context, `${appUrl}/app`);
  await waitForHydratedTable(page);
  await page.waitForTimeout(1000);
  await page.locator(ROW_CHECKBOXES).nth(view).hover({ force: true });
  await page.waitForTimeout(150);
  const cdp: CDPSession = await context.newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on("Tracing.dataCollected", ({ value }) => {
    events.push(...(value as unknown as TraceEvent[]));
  });
  const done = new Promise<void>((resolve) => cdp.once("Tracing.tracingComplete", () => resolve()));
  await cdp.send("Tracing.start", { categories: CATEGORIES, transferMode: "ReportEvents" });
  await page.locator(ROW_CHECKBOXES).nth(view).click({ force: true });
  await page.waitForTimeout(800);
  await cdp.send("Tracing.end");
  await done;
  await page.close();

  // The renderer's main thread: the one running the click's EventDispatch. The interaction: from the pointer's press
  // to the end of the first frame committed after the click's handlers (what the next paint waits for).
  const click = events.find((event) => event.name === "EventDispatch" && event.args?.data?.type === "click");
  if (!click) throw new Error("the trace holds no click");
  const main = events.filter((event) => event.pid === click.pid && event.tid === click.tid && event.ph === "X");
  const pointerdown =
    main.find((event) => event.name === "EventDispatch" && event.args?.data?.type === "pointerdown") ?? click;
  const clickEnd = click.ts + (click.dur ?? 0);
  const frame = main.find((event) => event.name === "Commit" && event.ts >= clickEnd);
  const end = frame ? frame.ts + (frame.dur ?? 0) : Infinity;
  const totals = new Map<string, number>([
    ["press to the next frame (wall)", frame ? (end - pointerdown.ts) / 1000 : NaN],
  ]);
  const add = (key: string, micros: number | undefined) =>
    totals.set(key, (totals.get(key) ?? 0) + (micros ?? 0) / 1000);
  for (const event of main) {
    if (event.name === "RunTask" && event.ts + (event.dur ?? 0) > pointerdown.ts && event.ts < end)
      add("main thread, every task (CPU)", event.tdur);
    if (event.ts < pointerdown.ts || event.ts >= end) continue;
    if (event.name === "EventDispatch" && event.args?.data?.type === "click")
      add("  the click's handlers: React's render and effects (CPU)", event.tdur);
    if (event.name === "UpdateLayoutTree") add("  style (CPU)", event.tdur);
    if (event.name === "Layout") add("  layout (CPU)", event.tdur);
    if (event.name === "Paint" || event.name === "PrePaint" || event.name === "Layerize" || event.name === "Commit")
      add("  paint (CPU)", event.tdur);
  }
  return totals;
}

/**
 * Installed before the page's scripts: a minimal React DevTools hook that counts, for each commit, the function
 * components that rendered in it (the test React DevTools itself makes: a subtree whose child is the same fiber as
 * before was not visited; a visited fiber rendered when it carries the PerformedWork flag, 1). Plain JavaScript.
 */
const COMMIT_COUNTER = `
(() => {
  const commits = [];
  window.__commits = commits;
  function visit(parent) {
    let rendered = 0;
    if (parent.alternate && parent.child === parent.alternate.child) return 0;
    for (let child = parent.child; child; child = child.sibling) {
      if (typeof child.type === "function" && (!child.alternate || (child.flags & 1) === 1)) rendered += 1;
      else if (child.type && typeof child.type === "object" && (!child.alternate || (child.flags & 1) === 1)) rendered += 1;
      rendered += visit(child);
    }
    return rendered;
  }
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    renderers: new Map(),
    supportsFiber: true,
    inject() { return 1; },
    onScheduleFiberRoot() {},
    onCommitFiberRoot(_id, root) { commits.push(visit(root.current)); },
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    checkDCE() {},
  };
})();
`;

/**
 * `--renders`: the components React renders for a page view's first tick and for its second, commit by commit (the
 * tick's own commit, then the deferred ones). A count, so it does not depend on the machine's load.
 */
async function countRenders(browser: Browser, appUrl: string): Promise<string[]> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript({ content: COMMIT_COUNTER });
  try {
    const page = await context.newPage();
    await page.goto(`${appUrl}/app`, { waitUntil: "networkidle" });
    await waitForHydratedTable(page);
    const idle = () => page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 2000 })));
    const commits = () => page.evaluate(() => [...(window as unknown as { __commits: number[] }).__commits]);
    const lines: string[] = [];
    for (const [index, name] of [
      [0, "first tick"],
      [1, "second tick"],
    ] as const) {
      await page.locator(ROW_CHECKBOXES).nth(index).hover({ force: true });
      await page.waitForTimeout(300);
      await idle();
      const before = (await commits()).length;
      await page.locator(ROW_CHECKBOXES).nth(index).click({ force: true });
      await page.waitForTimeout(500);
      await idle();
      const after = (await commits()).slice(before);
      lines.push(
        `  ${name}: ${after.reduce((sum, n) => sum + n, 0)} components rendered, by commit: ${after.join(" + ")}`,
      );
    }
    return lines;
  } finally {
    await context.close();
  }
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const urlIndex = process.argv.indexOf("--url");
  const demo =
    urlIndex > 0
      ? undefined
      : await startProductionDemo({
          name: "list-selection",
          orders: numberArg("orders", 256),
          build: !process.argv.includes("--no-build"),
        });
  const appUrl = urlIndex > 0 ? process.argv[urlIndex + 1]! : demo!.appUrl;
  const { browser, context } = await launchMeasuringBrowser();
  try {
    const measured = await measureListSelections(context, appUrl, {
      views: numberArg("views", 24),
      selections: numberArg("selections", 3),
    });
    console.log(`Selecting rows on "Orders to ship" at 4x CPU slowdown, production build`);
    for (const line of describeSelections(measured)) console.log(line);
    if (process.argv.includes("--verbose"))
      for (const view of measured.views) console.log(`    ${view.map((value) => Math.round(value)).join(", ")}`);
    if (process.argv.includes("--renders")) {
      console.log("Components React renders per tick (no CPU slowdown; a count):");
      for (const line of await countRenders(browser, appUrl)) console.log(line);
    }
    if (process.argv.includes("--trace")) {
      const traces = numberArg("traces", 5);
      const sums = new Map<string, number[]>();
      for (let view = 0; view < traces; view += 1) {
        for (const [key, ms] of await traceFirstSelection(context, appUrl, view))
          sums.set(key, [...(sums.get(key) ?? []), ms]);
      }
      console.log(
        `First selection, renderer main thread from the press to the next frame, median of ${traces} traces (ms):`,
      );
      for (const [key, values] of sums) {
        const sorted = [...values].sort((a, b) => a - b);
        console.log(`  ${key}: ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms`);
      }
    }
  } finally {
    await browser.close();
    await demo?.close();
  }
}
