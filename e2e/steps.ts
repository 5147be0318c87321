/** Steps the journeys share: the merchant's words come from the app's own messages, in the journey's language. */
import { mkdirSync, statSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import type { Locator, Page } from "playwright-core";
import { MESSAGES, type MessageKey } from "../app/i18n/messages";
import { capture } from "./browser";
import { root } from "./demo";

/** The README's screenshots, taken by the journeys from the page as the merchant sees it. */
const SCREENSHOTS = path.join(root, "docs/screenshots");
const MAX_SCREENSHOT_BYTES = 200 * 1024;

/** Saves the page as docs/screenshots/<name>, and checks it stays small enough for the README. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, name);
  await capture(page, file);
  expect(statSync(file).size, `${name} stays small for the README`).toBeLessThanOrEqual(MAX_SCREENSHOT_BYTES);
}

export type Lang = "en" | "fr";

export function words(lang: Lang) {
  return (key: MessageKey, values: Record<string, string> = {}) =>
    MESSAGES[lang][key].replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** The page settled after loading: no request under way (only meaningful after a document load). */
export async function settled(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle");
  // A page the app rendered on the server is live once React has hydrated it (app/root.tsx marks <html>); on a loaded
  // machine that can be seconds after the network went quiet.
  await page.waitForFunction(() => !("__remixContext" in window) || document.documentElement.dataset.hydrated === "true", undefined, { timeout: 60_000 });
}

/**
 * Submits a form with its button (clicked, or Enter on it with the keyboard) and waits for the app's answer: the
 * action's POST answered, then no button still loading (Remix has revalidated and rendered the result).
 */
export async function submit(page: Page, press: () => Promise<void>): Promise<void> {
  const answered = page.waitForResponse((response) => response.request().method() === "POST", { timeout: 60_000 });
  await press();
  await answered;
  await page.waitForFunction(() => document.querySelector(".Polaris-Button--loading") === null, undefined, { timeout: 60_000 });
}

/** The orders list's button that opens its search field (Polaris IndexFilters keeps the field folded). */
export function searchButton(page: Page, lang: Lang): Locator {
  return page.getByRole("button", { name: words(lang)("orders.search.label"), exact: true });
}

/** The orders list's search field (its label is its placeholder, hidden). */
export function searchField(page: Page, lang: Lang): Locator {
  return page.getByRole("textbox", { name: words(lang)("orders.search.placeholder"), exact: true });
}

/** The orders list, searched for one order by its name, as a merchant types it. */
export async function searchOrder(page: Page, lang: Lang, order: string): Promise<void> {
  if (!(await searchField(page, lang).isVisible())) await searchButton(page, lang).click();
  await searchField(page, lang).fill(`#${order}`);
  await searchField(page, lang).press("Enter");
  await searched(page, order);
  await settled(page);
}

/**
 * The list shows the search's answer: the URL carries it (Remix changes the URL once the new list's data is in) and the
 * order's link is on screen. An order of the first page is on screen before the search too.
 */
export async function searched(page: Page, order: string): Promise<void> {
  await page.waitForURL((url) => url.searchParams.get("q") === `#${order}`, { timeout: 60_000 });
  await expect.poll(() => page.getByRole("link", { name: `#${order}`, exact: true }).count(), { timeout: 30_000 }).toBe(1);
}

/** The label card after a purchase: its tracking number. */
export async function trackingNumber(page: Page, lang: Lang): Promise<string> {
  const t = words(lang);
  const line = page.getByText(`${t("order.label.tracking")}:`, { exact: false }).first();
  await line.waitFor();
  const text = (await line.textContent()) ?? "";
  const found = /:\s*(\S+)\s*$/.exec(text.trim())?.[1];
  if (!found) throw new Error(`no tracking number in "${text}"`);
  return found;
}

/**
 * Waits until React has hydrated the target, on a page the app rendered on the server (Remix leaves
 * `window.__remixContext` in its HTML). Before that, the markup is on screen and takes the focus, but a key pressed
 * on it reaches no handler: a Space on a row's checkbox ticks the box natively, and the selection never hears of it.
 * A merchant on a slow machine can be that quick; a journey must not depend on the machine being fast. React marks a
 * hydrated element with its props (`__reactProps$…`).
 */
export async function hydrated(page: Page, target: Locator): Promise<void> {
  const serverRendered = await page.evaluate(() => "__remixContext" in window);
  if (!serverRendered) return;
  await target.evaluate(
    (element) =>
      new Promise<void>((resolve) => {
        const check = () => (Object.keys(element).some((key) => key.startsWith("__reactProps$")) ? resolve() : setTimeout(check, 20));
        check();
      }),
    undefined,
    { timeout: 60_000 },
  );
}

/**
 * Keyboard only: Tab (forward) until the target has the focus, as a merchant without a mouse would. Fails when the
 * target cannot be reached within `max` presses (not focusable, or hidden from the tab order).
 *
 * The focus must also stay there, as a merchant sees it before pressing a key. Polaris's Tabs take the focus back to
 * the selected tab when their effect runs late: the focus passed through the tab, the next Tab moved it to the search
 * button, and ~20 ms later the effect (still counting the tabs as focused) focused the tab again, so the Enter meant
 * for the search button selected the tab (3 of 160 loaded runs, recorded with focus and key events). So the target
 * must still hold the focus two frames and 100 ms later, and tabbing goes on when it does not.
 */
export async function tabTo(page: Page, target: Locator, max = 250): Promise<void> {
  const handle = await target.elementHandle();
  if (!handle) throw new Error("tabTo: target not in the page");
  await hydrated(page, target);
  const focused = () => handle.evaluate((element) => element === document.activeElement);
  for (let press = 0; press < max; press += 1) {
    await page.keyboard.press("Tab");
    if (!(await focused())) continue;
    await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 100)))));
    if (await focused()) return;
  }
  throw new Error(`tabTo: not reached with ${max} Tab presses`);
}
