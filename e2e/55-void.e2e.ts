/**
 * Void and relabel (issue 15), in English and in French (fr-FR, Europe/Paris): an order is labelled from its page;
 * Void label asks first, naming the label id and reference to quote to the label service (it has no cancel); once
 * confirmed, the Shopify fulfillment is cancelled (the emulator shows it), the label is kept as void without its
 * file, and nothing is bought; Create label then buys a new label, whose fulfillment notifies the customer once with
 * the new tracking number. The English run regenerates the README's screenshot (docs/screenshots/void.png).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchChromium, openJourney } from "./browser";
import { settled, submit, trackingNumber, words, type Lang, saveScreenshot } from "./steps";

const demo = inject("demo");

interface EmulatorOrder {
  fulfillments: { id: string; status: string; trackingInfo: { number: string | null }[] }[];
  notifications: { kind: string; fulfillmentId: string; trackingNumbers: string[] }[];
}
interface SoldLabel {
  id: string;
  reference: string;
  custom_reference: string;
}

async function emulatorOrder(id: string): Promise<EmulatorOrder> {
  const response = await fetch(`${demo.emulator}/__admin/orders/${id}`);
  expect(response.status).toBe(200);
  return (await response.json()) as EmulatorOrder;
}

async function sold(): Promise<SoldLabel[]> {
  const response = await fetch(`${demo.sandbox}/__admin/labels`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { labels: SoldLabel[] }).labels;
}

/** The order's label state as the admin extensions read it ("ready": nothing bought, nothing blocking). */
async function stateOf(id: string): Promise<string | null> {
  const response = await fetch(`${demo.app}/api/orders/${id}/label?locale=en`);
  return response.ok ? ((await response.json()) as { state: string }).state : null;
}

let browser: Browser;
/**
 * Two ready orders of the seed that no earlier journey names (the state is read, not assumed: the run shares one
 * demo, and this file runs before the bulk journeys, which label whatever is ready), shipping from one location
 * (#1044 and #1062 ship from two: one label per location, decision 0115).
 */
const orders: string[] = [];
beforeAll(async () => {
  browser = await launchChromium();
  const named = new Set([1000, 1001, 1002, 1004, 1009, 1015, 1018, 1019, 1024, 1034, 1035, 1037, 1044, 1051, 1054, 1059, 1060, 1062, 1064]);
  for (let number = 1063; number > 1000 && orders.length < 2; number -= 1) {
    if (named.has(number)) continue;
    const id = String(7_100_000_000 + number);
    if ((await stateOf(id)) === "ready") orders.push(id);
  }
  expect(orders, "two ready orders of the seed that no other journey uses").toHaveLength(2);
});
afterAll(async () => {
  await browser?.close();
});

const CASES = [
  { lang: "en" as Lang, locale: "en-US" as const, timezoneId: "America/New_York", pick: 0, readme: true },
  { lang: "fr" as Lang, locale: "fr-FR" as const, timezoneId: "Europe/Paris", pick: 1, readme: false },
];

describe.each(CASES)("void and relabel in $locale ($timezoneId)", ({ lang, locale, timezoneId, pick, readme }) => {
  const t = words(lang);

  it("labels an order, voids the label after confirming (fulfillment cancelled, nothing bought), and labels it again with one new notice", async () => {
    const order = orders[pick]!;
    const journey = await openJourney(browser, { name: `void-${lang}`, locale, timezoneId });
    const { page } = journey;
    await page.goto(`${demo.app}/app/orders/${order}`);
    await settled(page);

    // 1. The first label, fulfilled in Shopify with one notice.
    await submit(page, () => page.getByRole("button", { name: t("order.create"), exact: true }).click());
    const first = await trackingNumber(page, lang);
    await journey.step("labelled");
    await expect.poll(async () => (await emulatorOrder(order)).fulfillments.length).toBe(1);
    expect((await emulatorOrder(order)).notifications).toHaveLength(1);
    const bought = (await sold()).find((label) => label.reference === first);
    expect(bought, "the sandbox sold the label shown").toBeTruthy();
    const soldBefore = (await sold()).length;

    // 2. Void label asks first: what happens, and the label id and reference to quote for a refund.
    await page.getByRole("button", { name: t("void.button"), exact: true }).click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    const orderName = `#${Number(order) - 7_100_000_000}`;
    await expect.poll(() => dialog.getByText(t("void.confirm.title", { order: orderName }), { exact: true }).count()).toBe(1);
    expect(await dialog.getByText(t("void.confirm.body", { tracking: first }), { exact: true }).count()).toBe(1);
    expect(await dialog.getByText(t("void.confirm.noRefund", { labelId: bought!.id, reference: bought!.custom_reference }), { exact: true }).count()).toBe(1);
    await journey.step("void-confirmation");
    // Keeping the label changes nothing.
    await dialog.getByRole("button", { name: t("void.confirm.keep"), exact: true }).click();
    await dialog.waitFor({ state: "hidden" });
    expect((await emulatorOrder(order)).fulfillments.map((fulfillment) => fulfillment.status)).toEqual(["SUCCESS"]);

    // 3. Confirmed: void.
    await page.getByRole("button", { name: t("void.button"), exact: true }).click();
    await page.getByRole("dialog").waitFor();
    await submit(page, () => page.getByRole("dialog").getByRole("button", { name: t("void.confirm.action"), exact: true }).click());
    await settled(page);
    const values = { tracking: first, order: orderName, labelId: bought!.id, reference: bought!.custom_reference };
    // The dialog's button leaves with the dialog, so `submit` can return before Remix has revalidated and shown the
    // outcome: wait for the notice itself (any other outcome fails here too), then for the label's card to show it
    // void (CI once saw the notice a moment before the card; the failure's picture showed both right).
    await expect.poll(() => page.getByText(t("void.done", values), { exact: true }).count(), { timeout: 30_000 }).toBe(1);
    const refund = t("void.card.refund", { labelId: bought!.id, reference: bought!.custom_reference });
    await expect.poll(() => page.getByText(refund, { exact: true }).count(), { timeout: 30_000 }).toBe(1);
    // Kept, but never printed again: no file link, no print button, no second void.
    expect(await page.getByRole("link", { name: t("order.label.open") }).count()).toBe(0);
    expect(await page.getByRole("button", { name: t("print.button.order") }).count()).toBe(0);
    expect(await page.getByRole("button", { name: t("void.button"), exact: true }).count()).toBe(0);
    await journey.step("voided");
    if (readme) await saveScreenshot(page, "void.png");

    const afterVoid = await emulatorOrder(order);
    expect(afterVoid.fulfillments.map((fulfillment) => fulfillment.status)).toEqual(["CANCELLED"]);
    expect(afterVoid.notifications).toHaveLength(1);
    expect((await sold()).length, "voiding buys nothing").toBe(soldBefore);

    // 4. Labelled again: a first label (not an "additional" one), one new fulfillment, one new notice.
    await submit(page, () => page.getByRole("button", { name: t("order.create"), exact: true }).click());
    await settled(page);
    await expect.poll(() => page.getByRole("link", { name: t("order.label.open") }).count()).toBe(1);
    const numbers = await page.getByText(`${t("order.label.tracking")}:`, { exact: false }).allTextContents();
    const second = numbers.map((text) => /:\s*(\S+)\s*$/.exec(text.trim())?.[1]).find((number) => number && number !== first);
    expect(second, "a new tracking number on the page").toBeTruthy();
    await journey.step("labelled-again");
    await expect.poll(async () => (await emulatorOrder(order)).fulfillments.length).toBe(2);
    const after = await emulatorOrder(order);
    const live = after.fulfillments.filter((fulfillment) => fulfillment.status === "SUCCESS");
    expect(live.map((fulfillment) => fulfillment.trackingInfo.map((info) => info.number))).toEqual([[second]]);
    expect(after.notifications.slice(1)).toEqual([expect.objectContaining({ kind: "fulfillment_created", fulfillmentId: live[0]!.id, trackingNumbers: [second] })]);
    expect((await sold()).length).toBe(soldBefore + 1);

    // 5. The history keeps the void label, without a file to print.
    await page.goto(`${demo.app}/app/labels`);
    await settled(page);
    const row = page.locator("tr", { hasText: first });
    expect(await row.getByText(t("history.status.voided"), { exact: true }).count()).toBe(1);
    expect(await row.getByRole("checkbox").isDisabled()).toBe(true);
    await journey.step("history");

    expect(journey.problems).toEqual([]);
    await journey.close();
  });
});
