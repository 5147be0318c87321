/**
 * Issue 11 item 13: an unknown order is said inside the app's frame (its navigation stays), in the merchant's
 * language, with a way back; never a bare English "Order not found".
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchChromium, openJourney } from "./browser";
import { settled, words } from "./steps";

const demo = inject("demo");
let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe.each([
  { lang: "en" as const, locale: "en-US" as const, timezoneId: "America/New_York" },
  { lang: "fr" as const, locale: "fr-FR" as const, timezoneId: "Europe/Paris" },
])("an unknown order in $locale", ({ lang, locale, timezoneId }) => {
  it("is a translated 'not found' inside the app, with the way back to the orders", async () => {
    const t = words(lang);
    const journey = await openJourney(browser, { name: `unknown-order-${lang}`, locale, timezoneId });
    const { page } = journey;
    journey.allowHttpError("/app/orders/999999", 404);
    const response = await page.goto(`${demo.app}/app/orders/999999`);
    expect(response?.status()).toBe(404);
    await settled(page);
    await journey.step("unknown-order");

    await expect.poll(() => page.getByRole("heading", { name: t("error.notFound.title") }).count()).toBe(1);
    const text = await page.locator("body").innerText();
    expect(text).toContain(t("error.notFound.body"));
    expect(text).not.toContain("Order not found");
    // The app's frame: its environment badge and navigation are still there.
    expect(text).toContain(t("env.staging"));
    expect(await page.getByRole("link", { name: t("nav.settings"), exact: true }).count()).toBe(1);

    await page.getByRole("link", { name: t("error.back") }).click();
    await page.getByRole("heading", { name: t("orders.title") }).waitFor();
    await settled(page);
    await journey.step("back-to-orders");
    expect.soft(journey.problems).toEqual([]);
    await journey.close();
  });
});
