/**
 * `npx tsx scripts/measure-list-selection.ts [base URL]`: selecting rows on "Orders to ship" in Chromium at 4× CPU
 * slowdown (as Built for Shopify measures), against a running demo (default http://localhost:3000). Prints each
 * selection's interaction-to-next-paint (Event Timing API, as web-vitals computes INP) and their p75. A figure for
 * the notes, not a test: it depends on the machine.
 */
import { chromium } from "playwright-core";

const base = process.argv[2] ?? "http://localhost:3000";
const SELECTIONS = 12;

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
try {
  const context = await browser.newContext({ locale: "fr-FR", timezoneId: "Europe/Paris" });
  const page = await context.newPage();
  await page.goto(`${base}/app`, { waitUntil: "networkidle" });
  await page.evaluate(() => {
    const durations: Record<number, number> = {};
    (window as unknown as { __interactions: Record<number, number> }).__interactions = durations;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEventTiming & { interactionId?: number })[]) {
        if (!entry.interactionId) continue;
        durations[entry.interactionId] = Math.max(durations[entry.interactionId] ?? 0, entry.duration);
      }
    }).observe({ type: "event", durationThreshold: 16, buffered: true } as PerformanceObserverInit);
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  const checkboxes = page.locator("tbody tr input[type='checkbox']");
  for (let index = 0; index < SELECTIONS; index += 1) {
    await checkboxes.nth(index).click({ force: true });
    await page.waitForTimeout(300);
  }
  await page.waitForTimeout(1000);
  const durations = Object.values(await page.evaluate(() => (window as unknown as { __interactions: Record<number, number> }).__interactions)).sort(
    (a, b) => a - b,
  );
  const p75 = durations[Math.min(durations.length - 1, Math.ceil(durations.length * 0.75) - 1)];
  console.log(`selections measured: ${durations.length} (interactions over 16 ms are reported by the browser)`);
  console.log(`interaction to next paint at 4x CPU slowdown, ms: ${durations.map((d) => Math.round(d)).join(", ")}`);
  console.log(`p75: ${p75 === undefined ? "n/a (every interaction under 16 ms)" : `${Math.round(p75)} ms`}`);
} finally {
  await browser.close();
}
