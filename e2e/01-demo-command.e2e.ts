/**
 * The README's main command, `npm run demo -- --reset` (the run's shared demo, started on free ports by the global
 * setup): it prints the app's URL, serves the orders page with seeded orders, and its search by name finds that order
 * only. That Ctrl-C (SIGINT) stops everything, with exit code 0 and "demo: stopped", is checked when the run ends
 * (e2e/global-setup.ts). Was test/demo.smoke.test.ts, which started a demo of its own inside `npm test`.
 */
import { describe, expect, inject, it } from "vitest";
import { demoLog } from "./demo";

const demo = inject("demo");

describe("npm run demo", () => {
  it("prints the app's URL and serves the orders page with seeded orders", async () => {
    expect(demo.app).toMatch(/^http:\/\/localhost:\d+$/);
    expect(demoLog()).toContain(`Open ${demo.app}/app`);

    const page = await fetch(`${demo.app}/app`);
    expect(page.status).toBe(200);
    // Order names as rendered in rows (a placeholder such as "#1001" does not count).
    const orderNames = (text: string) => new Set(text.replace(/placeholder="[^"]*"/g, "").match(/#10\d\d/g) ?? []);
    const html = await page.text();
    expect(orderNames(html).size).toBeGreaterThan(5);
    expect(html).toContain("Orders to ship");

    // Search by name finds that order and only it.
    const first = [...orderNames(html)][0]!;
    const search = await (await fetch(`${demo.app}/app?q=${encodeURIComponent(first)}`)).text();
    expect([...orderNames(search)]).toEqual([first]);
  });
});
