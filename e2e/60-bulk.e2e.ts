/**
 * Journey 4 of issue 14 (bulk labelling), in English and in French (journey 6: fr-FR, Europe/Paris), with the
 * keyboard alone: on "Orders to ship", 20 rows ticked with Tab and Space → Create labels → the free preflight
 * ("N ready, M blocked", blocked orders grouped by cause) → Start → the progress page updates by itself (no reload)
 * to the end, every order labelled or failed with a reason → with the label service refusing two labels (the
 * sandbox's `refuseLabel` fault), Retry failed runs them again and they are labelled. Nothing is bought twice: the
 * sandbox sold exactly one label per labelled order of the job.
 * Printing the job as one PDF is not part of it: the print API is not on this branch (each row links its label file).
 * The English run regenerates the README's screenshot of the progress page (docs/screenshots/bulk-progress.png).
 */
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchChromium, openJourney } from "./browser";
import { inspectLabelPdf } from "./pdf";
import { settled, tabTo, words, type Lang, saveScreenshot } from "./steps";

const demo = inject("demo");
const SELECTED = 20;
const REFUSED = 2;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function setFaults(faults: object) {
  const response = await fetch(`${demo.sandbox}/__admin/faults`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(faults) });
  expect(response.status).toBe(200);
}
// A journey that stops before its refusals were used must not leave them for the next purchase of the run.
afterEach(async () => {
  await setFaults({ refuseLabel: { next: 0 } });
});

/** The labels the sandbox sold: how many, and how many per purchase reference. */
async function sold(): Promise<{ count: number; countByReference: Record<string, number> }> {
  const response = await fetch(`${demo.sandbox}/__admin/labels`);
  expect(response.status).toBe(200);
  return (await response.json()) as { count: number; countByReference: Record<string, number> };
}

/** The number under a count's label on the progress page ("Labelled", "Refused"...). */
async function count(page: Page, label: string): Promise<number> {
  const value = await page.evaluate((name) => {
    const spans = [...document.querySelectorAll("span")];
    const title = spans.find((span) => span.textContent === name && span.nextElementSibling);
    return title?.nextElementSibling?.textContent ?? "";
  }, label);
  return Number(value);
}

/** Waits until the job is finished: its badge says so and nothing remains. */
async function finished(page: Page, lang: Lang) {
  const t = words(lang);
  await page.getByText(t("bulk.job.status.COMPLETED"), { exact: true }).first().waitFor({ timeout: 120_000 });
  await expect.poll(() => count(page, t("bulk.count.remaining")), { timeout: 30_000 }).toBe(0);
}

/** How many live labels these orders ("#1044") hold, as the admin extensions read them (the seed's ids). */
async function labelsOf(orderNames: readonly string[]): Promise<number> {
  let total = 0;
  for (const name of orderNames) {
    const response = await fetch(`${demo.app}/api/orders/${7_100_000_000 + Number(name.replace(/\D/g, ""))}/label?locale=en`);
    expect(response.status, `${name}'s labels`).toBe(200);
    total += ((await response.json()) as { labels: unknown[] }).labels.length;
  }
  return total;
}

/** Every order of the job is labelled or says why not (a reason in the merchant's language). */
async function everyOrderAccountedFor(page: Page, lang: Lang) {
  const t = words(lang);
  const rows = await page.locator("tbody tr").evaluateAll((elements) =>
    elements.map((row) => [...row.querySelectorAll("td")].map((cell) => (cell.textContent ?? "").trim())),
  );
  expect(rows.length).toBeGreaterThan(0);
  for (const [order, status, reason, tracking] of rows) {
    // The badge's text ends with the status (Polaris puts its tone, for screen readers, first).
    if (status!.endsWith(t("bulk.item.status.LABELLED"))) expect(tracking, `${order} has its tracking number`).toMatch(/\S/);
    else expect(reason, `${order} (${status}) says why`).toMatch(/\S{3,}/);
  }
  return rows;
}

// First, while more orders than one page are still to ship: the bulk journeys below label 40 of them.
describe("all orders matching, keyboard only", () => {
  it("the page ticked, then 'select all orders matching' → Create labels → the preflight checks every matching order (nothing bought)", async () => {
    const lang: Lang = "en";
    const t = words(lang);
    const journey = await openJourney(browser, { name: "journey-4-bulk-all-matching", locale: "en-US", timezoneId: "America/New_York" });
    const { page } = journey;
    await page.goto(`${demo.app}/app`);
    await settled(page);
    await page.getByRole("heading", { name: t("orders.title") }).waitFor();
    const rows = await page.locator("tbody tr").count();
    const soldBefore = await sold();

    // The header's checkbox ticks the page; Polaris then offers every order matching the list (there is a next page).
    const pageBox = page.locator("thead input[type='checkbox']").first();
    await tabTo(page, pageBox);
    await page.keyboard.press("Space");
    const selectAll = page.getByRole("button", { name: t("orders.bulk.selectAllMatching"), exact: true });
    await journey.step("page-ticked");
    await tabTo(page, selectAll, 400);
    await page.keyboard.press("Enter");
    await page.getByText(t("orders.bulk.allMatching", { max: "500" })).first().waitFor();
    await journey.step("all-matching-selected");
    await tabTo(page, page.getByRole("button", { name: t("orders.bulk.create"), exact: true }), 400);
    await page.keyboard.press("Enter");

    await page.waitForURL(/\/app\/bulk\/new/, { timeout: 60_000 });
    const matching = page.getByText(new RegExp(t("bulk.new.matching.other", { count: "(\\d+)" }).replace(/\./g, "\\.")));
    await matching.waitFor({ timeout: 60_000 });
    await settled(page);
    await journey.step("all-matching-preflight");
    const found = Number(/\d+/.exec((await matching.textContent()) ?? "")?.[0]);
    expect(found, "more orders than the page showed").toBeGreaterThan(rows);
    expect((await sold()).count).toBe(soldBefore.count);

    expect.soft(journey.problems).toEqual([]);
    await journey.close();
  });
});

describe.each([
  { lang: "en" as Lang, locale: "en-US" as const, timezoneId: "America/New_York", readme: true },
  { lang: "fr" as Lang, locale: "fr-FR" as const, timezoneId: "Europe/Paris", readme: false },
])("journey 4 (bulk), keyboard only, in $locale", ({ lang, locale, timezoneId, readme }) => {
  it(`${SELECTED} orders → Create labels → preflight → start → live progress → Retry failed after ${REFUSED} refusals`, async () => {
    const t = words(lang);
    const journey = await openJourney(browser, { name: `journey-4-bulk-${lang}`, locale, timezoneId });
    const { page } = journey;
    await page.goto(`${demo.app}/app`);
    await settled(page);
    await page.getByRole("heading", { name: t("orders.title") }).waitFor();
    await journey.step("orders-list");

    // Tick 20 rows with the keyboard: Tab to each row's checkbox, Space.
    const checkboxes = page.locator("tbody tr input[type='checkbox']");
    expect(await checkboxes.count()).toBeGreaterThanOrEqual(SELECTED);
    const names: string[] = [];
    for (let row = 0; row < SELECTED; row += 1) {
      await tabTo(page, checkboxes.nth(row));
      await page.keyboard.press("Space");
      // A loaded machine may take a while to render; the message says where the focus was if the tick is lost.
      await expect
        .poll(() => checkboxes.nth(row).isChecked(), {
          timeout: 15_000,
          message: `row ${row + 1} ticked with Space (focus on: ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 160) ?? "nothing")})`,
        })
        .toBe(true);
      names.push((await page.locator("tbody tr").nth(row).getByRole("link").first().textContent()) ?? "");
    }
    await journey.step("twenty-selected");
    const create = page.getByRole("button", { name: t("orders.bulk.create"), exact: true });
    await tabTo(page, create, 400);
    await page.keyboard.press("Enter");

    // The free preflight: N ready, M blocked, each blocked group in the merchant's language.
    await page.waitForURL(/\/app\/bulk\/new/, { timeout: 60_000 });
    const summary = page.getByRole("heading", { level: 2 }).filter({ hasText: new RegExp(t("bulk.new.summary", { ready: "\\d+", blocked: "\\d+" })) });
    await summary.waitFor({ timeout: 60_000 });
    await settled(page);
    await journey.step("preflight");
    const [ready, blocked] = ((await summary.textContent()) ?? "").match(/\d+/g)!.map(Number) as [number, number];
    expect(ready).toBeGreaterThan(REFUSED);
    expect(ready + blocked).toBeLessThanOrEqual(SELECTED);
    await expect.poll(() => page.getByText(t("bulk.new.selected.other", { count: String(SELECTED) })).count()).toBe(1);
    if (blocked > 0) await expect.poll(() => page.getByText(t("bulk.new.blocked.heading")).count()).toBe(1);
    const soldBefore = await sold();

    // The label service refuses the first two purchases (nothing charged); Start with the ready orders.
    await setFaults({ refuseLabel: { next: REFUSED } });
    const startButton = page.getByRole("button", { name: t("bulk.new.start.other", { count: String(ready) }), exact: true });
    await tabTo(page, startButton);
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/app\/bulk\/(?!new)[^/?]+$/, { timeout: 60_000 });
    await page.getByText(t("bulk.count.remaining"), { exact: true }).first().waitFor();
    // A marker on the window: the page must update by itself, never reload.
    await page.evaluate(() => Object.assign(window, { __noReload: true }));
    await journey.step("progress-started");

    await finished(page, lang);
    await journey.step("progress-finished");
    expect(await count(page, t("bulk.count.refused"))).toBe(REFUSED);
    expect(await count(page, t("bulk.count.labelled"))).toBeGreaterThanOrEqual(ready - REFUSED);
    await everyOrderAccountedFor(page, lang);
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);

    // Retry failed, with the keyboard: only the failed orders run again, and the refused ones are labelled.
    const failedCount = (await count(page, t("bulk.count.refused"))) + (await count(page, t("bulk.count.blocked")));
    const retry = page.getByRole("button", { name: t("bulk.retry", { count: String(failedCount) }), exact: true });
    await tabTo(page, retry);
    const answered = page.waitForResponse((response) => response.request().method() === "POST", { timeout: 60_000 });
    await page.keyboard.press("Enter");
    await answered;
    await page.getByText(t("bulk.retried.other", { count: String(failedCount) })).or(page.getByText(t("bulk.retried.one", { count: String(failedCount) }))).first().waitFor();
    await journey.step("retried");
    // The page may still show the first run's end ("Completed", nothing remaining) until its next refresh: wait for
    // the retried run's end, where the refused orders are labelled.
    await expect
      .poll(async () => (await count(page, t("bulk.count.refused"))) === 0 && (await count(page, t("bulk.count.labelled"))) >= ready, { timeout: 120_000 })
      .toBe(true);
    await finished(page, lang);
    const rows = await everyOrderAccountedFor(page, lang);
    // Every selected order is in the job (the blocked ones as blocked, with their reason): none dropped.
    expect(rows.map(([order]) => order).sort()).toEqual([...names].sort());
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
    await settled(page);
    await journey.step("retried-finished");
    if (readme) await saveScreenshot(page, "bulk-progress.png");

    // Nothing bought twice: the sandbox sold one label per order this job labelled (those labelled before excepted),
    // one per location for an order shipping from two (decision 0115), none for a refusal, each reference once.
    const soldAfter = await sold();
    const labelledRowList = rows.filter(([, status]) => status!.endsWith(t("bulk.item.status.LABELLED")));
    const boughtRows = labelledRowList.filter(([, , note]) => note !== t("bulk.item.alreadyLabelled"));
    expect(boughtRows.length).toBe(ready);
    expect(soldAfter.count - soldBefore.count).toBe(await labelsOf(boughtRows.map(([order]) => order!)));
    expect(Object.values(soldAfter.countByReference).every((sales) => sales === 1)).toBe(true);

    // Print the whole job with the keyboard: one file per label format, offered on the print page; the file is a PDF
    // holding a page for every label the job holds.
    const labelledRows = await labelsOf(labelledRowList.map(([order]) => order!));
    // Files printed before (the other language's run) stay listed for 24 h: only the new ones are this job's.
    const fileIds = (html: string) => new Set(html.match(/\/api\/print\/files\/[A-Za-z0-9_-]+/g) ?? []);
    const earlier = fileIds(await (await page.request.get(new URL("/app/print", page.url()).toString())).text());
    const printAll = page.getByRole("button", { name: t("bulk.print.all", { count: String(labelledRows) }), exact: true });
    // The print card counts labels as its button does (an order shipping from two locations has two).
    await expect.poll(() => page.getByText(t(labelledRows === 1 ? "bulk.print.body.one" : "bulk.print.body.other", { count: String(labelledRows) })).count()).toBe(1);
    await tabTo(page, printAll, 400);
    await page.keyboard.press("Enter");
    const download = page.getByRole("link", { name: t("print.file.download") }).first();
    await download.waitFor({ timeout: 60_000 });
    await settled(page);
    await journey.step("printed");
    // Every file offered (one per label format) is fetched: together they hold one page per label of the job.
    let pages = 0;
    for (const link of await page.getByRole("link", { name: t("print.file.download") }).all()) {
      const href = await link.getAttribute("href");
      expect(href).toBeTruthy();
      if ([...fileIds(href!)].some((id) => earlier.has(id))) continue;
      const file = await page.request.get(new URL(href!, page.url()).toString());
      expect(file.status()).toBe(200);
      if (!/^application\/pdf/.test(file.headers()["content-type"] ?? "")) continue;
      const pdf = await inspectLabelPdf(await file.body());
      expect(pdf.barcode.bars).toBeGreaterThan(20);
      pages += pdf.pages;
    }
    expect(pages).toBe(labelledRows);

    // The recent jobs list it, reached from the navigation.
    // The layout's link (the page's back arrow has the same name).
    const nav = page.getByRole("link", { name: t("nav.bulk"), exact: true }).first();
    await tabTo(page, nav, 400);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: t("bulk.list.title") }).waitFor();
    await settled(page);
    await journey.step("recent-jobs");
    expect(await page.locator("tbody tr").count()).toBeGreaterThanOrEqual(1);

    expect.soft(journey.problems).toEqual([]);
    await journey.close();
  });
});
