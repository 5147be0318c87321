/**
 * Issue 11 item 14: the demo's first page load is stable (no self-reload while Vite optimises dependencies, even
 * with a cold cache as in a fresh clone), and the page talks to the app's own port only (no fourth port for live
 * reload that would clash when two demos run).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchChromium, openJourney } from "./browser";
import { demoLog } from "./demo";
import { MESSAGES } from "../app/i18n/messages";

const demo = inject("demo");
let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe("the demo's first visit", () => {
  it("loads the orders list once, without reloading itself, over the app's port only", async () => {
    const journey = await openJourney(browser, { name: "first-load" });
    const { page } = journey;
    // A reload is a new document request for the page (Vite's reload can come before the first load event).
    const documents: string[] = [];
    const origins = new Set<string>();
    page.on("request", (request) => {
      origins.add(new URL(request.url()).origin);
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) documents.push(request.url());
    });
    page.on("websocket", (socket) => origins.add(new URL(socket.url()).origin.replace(/^ws/, "http")));

    await page.goto(`${demo.app}/app`, { waitUntil: "networkidle" });
    await expect.poll(() => page.getByRole("heading", { name: MESSAGES.en["orders.title"] }).count()).toBe(1);
    // A dependency optimisation would reload the page a moment after it settled: give it that moment.
    await page.waitForTimeout(4000);
    await page.waitForLoadState("networkidle");
    await journey.step("orders-list-first-load");

    expect.soft(demoLog()).not.toMatch(/optimized dependencies changed|new dependencies optimized|reloading/i);
    expect.soft(documents).toEqual([`${demo.app}/app`]);
    expect.soft([...origins]).toEqual([new URL(demo.app).origin]);
    expect.soft(journey.problems).toEqual([]);
    await journey.close();
  });
});
