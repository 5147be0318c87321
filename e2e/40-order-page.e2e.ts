/**
 * The order page as a merchant uses it (issue 11 items 6/7, 8 and 9), in English and in French (fr-FR, Europe/Paris):
 *   - item 8: typed edits (address line 2, weight) survive a change of box; the new box's dimensions apply;
 *   - items 6/7: a refused edit is named in the merchant's words on its field, which is highlighted, and listed once;
 *   - a refused purchase (#1037) lists each problem once, not once from the page and once from the action;
 *   - item 9: after the label is bought nothing is left "to fix before buying"; CN23 says "not required" at home.
 * A second box ("Large") is saved through Settings first, as a merchant would.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchChromium, openJourney } from "./browser";
import { settled, submit, words, type Lang } from "./steps";

const demo = inject("demo");
let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
  const journey = await openJourney(browser, { name: "order-page-setup-box" });
  const { page } = journey;
  await page.goto(`${demo.app}/app/settings`);
  await settled(page);
  await page.locator('input[name="boxes.1.name"]').fill("Large");
  await page.locator('input[name="boxes.1.lengthCm"]').fill("50");
  await page.locator('input[name="boxes.1.widthCm"]').fill("40");
  await page.locator('input[name="boxes.1.heightCm"]').fill("30");
  await page.locator('input[name="boxes.1.packagingWeightGrams"]').fill("400");
  await submit(page, () => page.getByRole("button", { name: words("en")("settings.shipping.save") }).click());
  await settled(page);
  await journey.step("second-box-saved");
  await page.reload();
  await settled(page);
  expect(await page.locator('input[name="boxes.1.name"]').inputValue()).toBe("Large");
  expect(journey.problems).toEqual([]);
  await journey.close();
});
afterAll(async () => {
  await browser?.close();
});

const CASES = [
  {
    lang: "en" as Lang,
    locale: "en-US" as const,
    timezoneId: "America/New_York",
    weightError: "Weight (g) must be a whole number from 10 to 30000 g for Colissimo",
    domestic: "1004",
  },
  {
    lang: "fr" as Lang,
    locale: "fr-FR" as const,
    timezoneId: "Europe/Paris",
    weightError: "Poids (g) doit être un nombre entier de 10 à 30000 g pour Colissimo",
    domestic: "1009",
  },
];

describe.each(CASES)("the order page in $locale ($timezoneId)", ({ lang, locale, timezoneId, weightError, domestic }) => {
  const t = words(lang);

  it("keeps typed edits (address line 2, weight) when the box changes; the new box's dimensions apply", async () => {
    const journey = await openJourney(browser, { name: `order-box-change-${lang}`, locale, timezoneId });
    const { page } = journey;
    await page.goto(`${demo.app}/app/orders/7100001002`);
    await settled(page);
    await page.locator('input[name="recipient.address_line2"]').fill("Bâtiment B");
    await page.locator('input[name="weight"]').fill("777");
    await journey.step("edits-typed");
    await page.getByLabel(t("order.field.box"), { exact: true }).selectOption("Large");
    await page.waitForURL(/box=Large/);
    await settled(page);
    await journey.step("box-changed");
    expect(await page.locator('input[name="recipient.address_line2"]').inputValue()).toBe("Bâtiment B");
    expect(await page.locator('input[name="weight"]').inputValue()).toBe("777");
    expect(await page.locator('input[name="length"]').inputValue()).toBe("50");
    expect(journey.problems).toEqual([]);
    await journey.close();
  });

  it("names a refused edit on its field, highlights that field, and lists the problem once", async () => {
    const journey = await openJourney(browser, { name: `order-field-error-${lang}`, locale, timezoneId });
    const { page } = journey;
    await page.goto(`${demo.app}/app/orders/7100001002`);
    await settled(page);
    const weight = page.locator('input[name="weight"]');
    await weight.fill("0");
    await submit(page, () => page.getByRole("button", { name: t("order.create"), exact: true }).click());
    await page.locator(".Polaris-InlineError").first().waitFor();
    await journey.step("weight-refused");
    const errors = await page.locator(".Polaris-InlineError").allTextContents();
    expect(errors).toEqual([expect.stringContaining(weightError)]);
    // Highlighted: the weight field itself is marked invalid (and only it).
    expect(await weight.getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator('input[aria-invalid="true"]').count()).toBe(1);
    expect(await weight.inputValue()).toBe("0");
    const listed = await page.locator(".Polaris-Banner li").allTextContents();
    expect(listed).toHaveLength(1);
    expect(listed.join(" ")).not.toMatch(/weight\b|cn23_data|recipient\./);
    expect(journey.problems).toEqual([]);
    await journey.close();
  });

  it("lists an order's problem once after a refused purchase (#1037), not once from the page and once from the action", async () => {
    const journey = await openJourney(browser, { name: `order-refused-once-${lang}`, locale, timezoneId });
    const { page } = journey;
    await page.goto(`${demo.app}/app/orders/7100001037`);
    await settled(page);
    const items = page.locator(".Polaris-Banner--toneCritical li, .Polaris-Banner li");
    const before = await items.allTextContents();
    expect(before.length).toBeGreaterThan(0);
    await journey.step("blocked-order");
    await submit(page, () => page.getByRole("button", { name: t("order.create"), exact: true }).click());
    await settled(page);
    await journey.step("purchase-refused");
    const after = await items.allTextContents();
    expect(new Set(after).size).toBe(after.length);
    expect(after.length).toBe(before.length);
    expect(journey.problems).toEqual([]);
    await journey.close();
  });

  it(`after the label is bought (#${domestic}), nothing is left 'to fix before buying'; CN23 says not required at home`, async () => {
    const journey = await openJourney(browser, { name: `order-bought-nothing-to-fix-${lang}`, locale, timezoneId });
    const { page } = journey;
    await page.goto(`${demo.app}/app/orders/710000${domestic}`);
    await settled(page);
    await journey.step("domestic-order");
    expect(await page.getByText(t("order.customs.notRequired")).count()).toBe(1);
    await submit(page, () => page.getByRole("button", { name: t("order.create"), exact: true }).click());
    await journey.step("create-label-answered");
    await page.getByText(t("order.created", { tracking: "" }).replace(/\s*\.$/, "").trim()).first().waitFor({ timeout: 20_000 });
    await page.locator("h2", { hasText: `${t("order.label.title")} · Colissimo Domicile sans signature` }).waitFor();
    await settled(page);
    await journey.step("label-bought");
    expect(await page.getByText(t("order.problems.title")).count()).toBe(0);
    expect(journey.problems).toEqual([]);
    await journey.close();
  });
});
