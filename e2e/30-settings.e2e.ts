/**
 * Journey 3 of issue 14, in English and in French: Settings with a wrong password (saved, then Test connection
 * says it failed), a bad sender postcode (refused on its field, nothing saved), then a correct save and a Test
 * connection that succeeds. Runs last: it ends with the demo's settings as they were.
 */
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchChromium, openJourney } from "./browser";
import { settled, submit, words, type Lang } from "./steps";

const demo = inject("demo");
let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

// A journey that fails half-way (a bad postcode accepted, say) must not leave the demo's settings broken for the
// next one: put the demo's sender postcode and account password back, through the page.
afterEach(async () => {
  const context = await browser.newContext({ locale: "en-US" });
  const page = await context.newPage();
  const t = words("en");
  await page.goto(`${demo.app}/app/settings`);
  await settled(page);
  const shipping = card(page, t("settings.shipping.title"));
  await shipping.getByLabel(t("settings.shipping.zip")).fill("75012");
  await submit(page, () => shipping.getByRole("button", { name: t("settings.shipping.save") }).click());
  const account = card(page, t("settings.account.title", { environment: t("env.short.staging") }));
  await account.getByLabel(t("settings.account.password")).fill("demo-sandbox");
  await submit(page, () => account.getByRole("button", { name: t("settings.account.save") }).click());
  await context.close();
});

/** The page's answer to a form, waited for (the page renders it once Remix has revalidated). */
const POLL = { timeout: 15_000 };

/** The Polaris card holding a heading. */
function card(page: Page, heading: string) {
  return page.locator(".Polaris-ShadowBevel").filter({ has: page.getByRole("heading", { name: heading, exact: true }) });
}

/** The message banner at the top of the page after an action. */
async function banner(page: Page): Promise<string> {
  // Its own section above the cards (the cards hold banners of their own).
  const found = page.locator(".Polaris-Layout__Section").filter({ hasNot: page.locator(".Polaris-ShadowBevel") }).locator(".Polaris-Banner");
  await found.waitFor();
  return spaces(await found.innerText());
}

/** French typography puts no-break spaces before colons: compare texts with plain spaces. */
function spaces(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

async function submitAndSettle(page: Page, button: ReturnType<Page["getByRole"]>) {
  await submit(page, () => button.click());
}

describe.each([
  { lang: "en" as Lang, locale: "en-US" as const, timezoneId: "America/New_York" },
  { lang: "fr" as Lang, locale: "fr-FR" as const, timezoneId: "Europe/Paris" },
])("journey 3 in $locale", ({ lang, locale, timezoneId }) => {
  it("a wrong password, a bad postcode, then a correct save and a successful Test connection", async () => {
    const t = words(lang);
    const journey = await openJourney(browser, { name: `journey-3-settings-${lang}`, locale, timezoneId });
    const { page } = journey;
    await page.goto(`${demo.app}/app/settings`);
    await settled(page);
    await page.getByRole("heading", { name: t("settings.title") }).first().waitFor();
    await journey.step("settings");

    const account = card(page, t("settings.account.title", { environment: t("env.short.staging") }));
    const saveAccount = account.getByRole("button", { name: t("settings.account.save") });
    const testConnection = account.getByRole("button", { name: t("settings.account.test") });

    // 1. A wrong password is saved (the service is not asked), and Test connection says it failed.
    await account.getByLabel(t("settings.account.password")).fill("not-the-password");
    await submitAndSettle(page, saveAccount);
    await expect.poll(() => banner(page), POLL).toBe(spaces(t("settings.saved")));
    await submitAndSettle(page, testConnection);
    await expect.poll(async () => (await banner(page)).startsWith(spaces(t("settings.account.testFailed", { message: "" }))), POLL).toBe(true);
    await journey.step("wrong-password-test-failed");

    // 2. A bad sender postcode: refused on its field, in the merchant's words, and nothing is saved.
    const shipping = card(page, t("settings.shipping.title"));
    const zip = shipping.getByLabel(t("settings.shipping.zip"));
    const saveShipping = shipping.getByRole("button", { name: t("settings.shipping.save") });
    await zip.fill("ABCDE");
    await submitAndSettle(page, saveShipping);
    await expect.poll(() => zip.getAttribute("aria-invalid"), POLL).toBe("true");
    await journey.step("bad-postcode");
    expect(await zip.inputValue()).toBe("ABCDE");
    const fieldError = await shipping.locator(".Polaris-InlineError").first().innerText();
    const said = `${await banner(page)}\n${fieldError}`;
    // Names the field as the merchant knows it; no schema path or raw validator text.
    expect(said).toContain(t("settings.shipping.zip"));
    expect(said).not.toMatch(/sender\.|zip\b|Too small|Too big|Invalid input|expected|>=|regex/i);
    await page.reload();
    await settled(page);
    expect(await card(page, t("settings.shipping.title")).getByLabel(t("settings.shipping.zip")).inputValue()).toBe("75012");

    // 3. A correct save: the postcode, then the account's real password; Test connection succeeds.
    const shippingAgain = card(page, t("settings.shipping.title"));
    await shippingAgain.getByLabel(t("settings.shipping.zip")).fill("75012");
    await submitAndSettle(page, shippingAgain.getByRole("button", { name: t("settings.shipping.save") }));
    await expect.poll(() => banner(page), POLL).toBe(spaces(t("settings.saved")));
    expect(await shippingAgain.getByLabel(t("settings.shipping.zip")).getAttribute("aria-invalid")).toBe("false");
    await journey.step("shipping-saved");

    const accountAgain = card(page, t("settings.account.title", { environment: t("env.short.staging") }));
    await accountAgain.getByLabel(t("settings.account.password")).fill("demo-sandbox");
    await submitAndSettle(page, accountAgain.getByRole("button", { name: t("settings.account.save") }));
    await expect.poll(() => banner(page), POLL).toBe(spaces(t("settings.saved")));
    await submitAndSettle(page, accountAgain.getByRole("button", { name: t("settings.account.test") }));
    await expect.poll(() => banner(page), POLL).toBe(spaces(t("settings.account.testOk")));
    await journey.step("test-connection-ok");

    expect.soft(journey.problems).toEqual([]);
    await journey.close();
  });
});
