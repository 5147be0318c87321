/**
 * Issue 11 item 4, in English and in French (fr-FR, Europe/Paris): after a 503 from the label service with no label in
 * its list, the order page refreshes by itself while the purchase is pending, and once the list was read back to the
 * purchase twice (right away, then the background pass a few seconds later) it offers "No label was bought" with its
 * risk, without the merchant clicking anything. Nothing is bought. Each language uses its own order (#1034, #1059).
 */
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchChromium, openJourney } from "./browser";
import { settled, submit, words, type Lang } from "./steps";
import { MESSAGES } from "../app/i18n/messages";

const demo = inject("demo");
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
// A journey that stops before its 503 was used must not leave it for the next purchase of the run.
afterEach(async () => {
  await setFaults({ error5xx: { next: 0 } });
});

/** The message's text before its first placeholder (what the page shows, whatever the reference). */
function opening(lang: Lang, key: "order.attempt.pending" | "order.attempt.releaseRisk"): string {
  return MESSAGES[lang][key].split("{")[0]!.replace(/\s*\(?\s*$/, "");
}

describe.each([
  { lang: "en" as Lang, locale: "en-US" as const, timezoneId: "America/New_York", order: "1034" },
  { lang: "fr" as Lang, locale: "fr-FR" as const, timezoneId: "Europe/Paris", order: "1059" },
])("a purchase left unconfirmed, in $locale", ({ lang, locale, timezoneId, order }) => {
  it(`after a 503 (#${order}), the order page refreshes itself and offers the release once the list proved the label absent`, async () => {
    const t = words(lang);
    const journey = await openJourney(browser, { name: `pending-refresh-${lang}`, locale, timezoneId });
    const { page } = journey;
    // The loader signs in and looks the carrier services up; the fault set afterwards hits generate_label.
    await page.goto(`${demo.app}/app/orders/710000${order}`);
    await page.getByRole("heading", { name: t("order.title", { order: `#${order}` }) }).waitFor();
    await settled(page);
    await journey.step("order-page");
    await setFaults({ error5xx: { next: 1 } });
    await submit(page, () => page.getByRole("button", { name: t("order.create"), exact: true }).click());
    const pending = page.getByText(opening(lang, "order.attempt.pending")).first();
    await pending.waitFor({ timeout: 60_000 });
    await journey.step("purchase-pending");
    const reference = new RegExp(MESSAGES[lang]["order.attempt.pending"].split("{reference}")[0]!.replace(/[.*+?^$()[\]\\|]/g, "\\$&") + "(\\S+?)\\)").exec(
      (await pending.textContent()) ?? "",
    )?.[1];
    expect(reference, "the pending purchase's reference, shown to the merchant").toBeTruthy();
    expect(await page.getByRole("button", { name: t("order.attempt.release") }).count()).toBe(0);
    await expect(page.getByText(t("order.attempt.autoRefresh")).first().isVisible()).resolves.toBe(true);

    // No click from here: the background pass looks again (5 s backoff) and the page refreshes itself.
    await page.getByRole("button", { name: t("order.attempt.release") }).waitFor({ timeout: 90_000 });
    await journey.step("release-offered");
    expect(await page.getByText(t("order.attempt.releaseRisk", { reference: reference! })).count()).toBeGreaterThan(0);
    expect(await page.getByText(opening(lang, "order.attempt.releaseRisk")).count()).toBeGreaterThan(0);
    const bought = (await (await fetch(`${demo.sandbox}/__admin/labels`)).json()) as { countByReference: Record<string, number> };
    expect(bought.countByReference[reference!] ?? 0).toBe(0);
    expect(journey.problems).toEqual([]);
    await journey.close();
  });
});
