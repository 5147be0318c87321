/**
 * `npm run vitals [-- --orders 256 --loads 5 --views 24 --selections 3 --no-build --verbose]`: Web Vitals of the demo on a production
 * build, in Chromium at 4x CPU slowdown (as Built for Shopify measures), against its thresholds: LCP <= 2.5 s,
 * CLS <= 0.1, INP <= 200 ms, each at p75; and the JavaScript each page loads (gzip).
 *
 * Starts everything itself on free loopback ports (label sandbox, Shopify emulator seeded with `--orders` orders,
 * the app's production build under remix-serve in demo mode on a fresh SQLite database under .tmp/vitals), then
 * stops it (scripts/production-demo.ts). LCP and CLS over `--loads` loads of the orders list and of an order page. INP
 * as Built for Shopify reports it: each page view's worst interaction, at p75 over page views; on the list, `--views`
 * page views ticking `--selections` rows each (scripts/measure-list-selection.ts), on the order page, `--loads` page
 * views clicking its section headings. Figures for the notes, not a test: they depend on the machine.
 */
import path from "node:path";
import { describeSelections, measureListSelections } from "./measure-list-selection";
import { pageWeights } from "./page-weight";
import {
  launchMeasuringBrowser,
  numberArg,
  openThrottled,
  p75,
  readVitals,
  root,
  startProductionDemo,
} from "./production-demo";

const ORDERS = numberArg("orders", 256);
const LOADS = numberArg("loads", 5);
const VIEWS = numberArg("views", 24);
const SELECTIONS = numberArg("selections", 3);
const THRESHOLDS = { lcp: 2500, cls: 0.1, inp: 200 };

const demo = await startProductionDemo({ name: "vitals", orders: ORDERS, build: !process.argv.includes("--no-build") });
const { browser, context } = await launchMeasuringBrowser();
try {
  const appUrl = demo.appUrl;
  // LCP and CLS of page loads; INP: every interaction, and each page view's worst (its INP as web-vitals reports it).
  type Figures = { page: string; lcp: number[]; cls: number[]; inp: number[]; worst: number[] };
  const results: Figures[] = [];

  // The orders list: loads, then row selections over their own page views (measure-list-selection.ts).
  const list: Figures = { page: "Orders to ship (/app)", lcp: [], cls: [], inp: [], worst: [] };
  let firstOrder = "";
  for (let load = 0; load < LOADS; load += 1) {
    const page = await openThrottled(context, `${appUrl}/app`);
    firstOrder ||= (await page.locator("tbody tr a[href*='/app/orders/']").first().getAttribute("href")) ?? "";
    const vitals = await readVitals(page);
    list.lcp.push(vitals.lcp);
    list.cls.push(vitals.cls);
    await page.close();
  }
  const selections = await measureListSelections(context, appUrl, { views: VIEWS, selections: SELECTIONS });
  list.inp.push(...selections.views.flat());
  list.worst.push(...selections.views.map((durations) => Math.max(0, ...durations)));
  results.push(list);

  // An order page: loads; interactions are clicks on its section headings (nothing is bought).
  const orderPage: Figures = { page: "Order page (/app/orders/:id)", lcp: [], cls: [], inp: [], worst: [] };
  if (!firstOrder) throw new Error("no order link on the orders list");
  for (let load = 0; load < LOADS; load += 1) {
    const page = await openThrottled(context, new URL(firstOrder, appUrl).toString());
    const headings = page.locator("h2");
    const count = Math.min(await headings.count(), 4);
    for (let index = 0; index < count; index += 1) {
      await headings.nth(index).click({ force: true });
      await page.waitForTimeout(200);
    }
    const vitals = await readVitals(page);
    orderPage.lcp.push(vitals.lcp);
    orderPage.cls.push(vitals.cls);
    orderPage.inp.push(...Object.values(vitals.interactions));
    orderPage.worst.push(Math.max(0, ...Object.values(vitals.interactions)));
    await page.close();
  }
  results.push(orderPage);

  const weights = new Map(
    pageWeights(path.join(root, "build/client")).map((weight) => [weight.page, weight.gzipBytes]),
  );
  const verdict = (value: number | undefined, limit: number) =>
    value === undefined ? "n/a" : value <= limit ? "ok" : "OVER";
  console.log(
    `\nWeb Vitals at 4x CPU slowdown, production build, ${ORDERS} orders in the shop, p75 (Built for Shopify: LCP <= 2.5 s, CLS <= 0.1, INP <= 200 ms, a page view's INP being its worst interaction)`,
  );
  for (const result of results) {
    const lcp = p75(result.lcp);
    const cls = p75(result.cls);
    const inp = p75(result.worst);
    const js = weights.get(result.page);
    console.log(
      `${result.page}: LCP ${lcp === undefined ? "n/a" : `${(lcp / 1000).toFixed(2)} s`} ${verdict(lcp, THRESHOLDS.lcp)} (${result.lcp.length} loads) · ` +
        `CLS ${cls?.toFixed(3) ?? "n/a"} ${verdict(cls, THRESHOLDS.cls)} · ` +
        `INP ${inp === undefined ? "n/a" : `${Math.round(inp)} ms`} ${verdict(inp, THRESHOLDS.inp)} (p75 over ${result.worst.length} page views of each one's worst interaction; p75 of all ${result.inp.length} interactions ${Math.round(p75(result.inp) ?? 0)} ms) · ` +
        `JS ${js === undefined ? "n/a" : `${(js / 1024).toFixed(1)} KB gzip`}`,
    );
    if (result === list) for (const line of describeSelections(selections)) console.log(`    ${line}`);
    if (process.argv.includes("--verbose"))
      console.log(`    interactions, ms: ${result.inp.map((value) => Math.round(value)).join(", ")}`);
  }
} finally {
  await browser.close();
  await demo.close();
}
