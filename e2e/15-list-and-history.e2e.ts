/**
 * The orders list and the label history (issue 11 item 3, issue 19), in English and in French (fr-FR, Europe/Paris):
 *   - both pages hydrate without a warning or console error: dates are formatted once, on the server, in the
 *     merchant's language and the SHOP's time zone (Paris), so a browser in New York sees the shop's day too;
 *   - selecting a row on "Orders to ship" re-renders that row only (counted through React's DevTools hook).
 * One label is bought first (#1060, through the order page's form), so the history shows a date too.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchChromium, openJourney, type Journey } from "./browser";
import { settled, words, type Lang } from "./steps";

const demo = inject("demo");
let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
  // One label, so the history shows a date too (bought for free in staging, through the order page's form).
  const bought = await fetch(`${demo.app}/app/orders/7100001060`, { method: "POST", body: new URLSearchParams({ intent: "create" }) });
  expect(bought.status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
});

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

/** Opens a page of the app in the journey and waits until it is hydrated and idle. */
async function open(journey: Journey, url: string): Promise<Page> {
  const { page } = journey;
  await page.goto(url, { waitUntil: "networkidle" });
  await settled(page);
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
  return page;
}

const CASES = [
  // #1051 was placed at 17:57 UTC on 5 November: 5 November in Paris. #1064 at 23:20 UTC on 14 November: already
  // 15 November in Paris (the shop's day), still 14 November in the New York browser, which must not reformat it.
  { lang: "en" as Lang, locale: "en-US" as const, timezoneId: "America/New_York", nov5: "Nov 5, 2026", nov15: "Nov 15, 2026", dateTime: /[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M/ },
  { lang: "fr" as Lang, locale: "fr-FR" as const, timezoneId: "Europe/Paris", nov5: "5 nov. 2026", nov15: "15 nov. 2026", dateTime: /\d{1,2} [a-zéû.]+ \d{4}(,| à) \d{2}:\d{2}/ },
];

describe.each(CASES)("orders list and history in $locale ($timezoneId)", ({ lang, locale, timezoneId, nov5, nov15, dateTime }) => {
  const t = words(lang);

  it("the orders list hydrates without a warning, its dates in the merchant's language and in the shop's days", async () => {
    const journey = await openJourney(browser, { name: `list-dates-${lang}`, locale, timezoneId });
    const page = await open(journey, `${demo.app}/app`);
    await journey.step("orders-list");
    await expect(page.getByRole("heading", { name: t("orders.title") }).first().isVisible()).resolves.toBe(true);
    await expect(page.locator("tr", { hasText: "#1051" }).first().textContent()).resolves.toContain(nov5);
    await expect(page.locator("tr", { hasText: "#1064" }).first().textContent()).resolves.toContain(nov15);
    expect(journey.problems).toEqual([]);
    await journey.close();
  });

  it("the label history hydrates without a warning, its dates in the merchant's language", async () => {
    const journey = await openJourney(browser, { name: `history-dates-${lang}`, locale, timezoneId });
    const page = await open(journey, `${demo.app}/app/labels`);
    await journey.step("label-history");
    await expect(page.getByRole("heading", { name: t("history.title") }).first().isVisible()).resolves.toBe(true);
    const row = page.locator("tr", { hasText: "#1060" }).first();
    await expect(row.textContent()).resolves.toMatch(dateTime);
    expect(journey.problems).toEqual([]);
    await journey.close();
  });

  it("selecting a row re-renders that row only", async () => {
    const journey = await openJourney(browser, { name: `list-selection-${lang}`, locale, timezoneId });
    await journey.context.addInitScript({ content: RENDER_COUNTER });
    const page = await open(journey, `${demo.app}/app`);
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
    await journey.step("two-rows-selected");
    expect(await checkboxes.nth(1).isChecked()).toBe(true);
    expect(rendered("order row")).toBe(1);
    // That row's cells at most (a row has 8 besides its checkbox).
    expect(rendered("Cell")).toBeLessThanOrEqual(8);
    // The search field, tabs and filters do not depend on the selection.
    expect(rendered("IndexFilters")).toBe(0);
    expect(journey.problems).toEqual([]);
    await journey.close();
  });
});
