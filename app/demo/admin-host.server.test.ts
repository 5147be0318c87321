/**
 * The demo's admin host: only in demo mode; the page, the frame with its `shopify` global (selection, the
 * extension's translations for the locale, a session token the Shopify library accepts for the demo shop), the
 * bundles by handle only. The browser side runs in e2e/65-extensions.e2e.ts.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import "@shopify/shopify-api/adapters/node";
import { LogSeverity, shopifyApi } from "@shopify/shopify-api";
import { afterAll, describe, expect, it } from "vitest";
import { appTestEnv, TEST_API_KEY } from "../../test/helpers/app-env";
import { createTestDatabaseUrl } from "../../test/helpers/test-db";

const database = createTestDatabaseUrl();
Object.assign(process.env, appTestEnv(database.url), { NODE_ENV: "development", ETIQUETTE_DEMO: "1", SHOPIFY_ADMIN_EMULATOR_URL: "http://127.0.0.1:9" });
const host = await import("./admin-host.server");
const { DEMO_SHOP_DOMAIN } = await import("./seed-demo-shop.server");

// A copy of extensions/ (TOMLs and locales) with stand-in bundles, so nothing is written to the real dist folders.
const dir = mkdtempSync(path.join(tmpdir(), "admin-host-"));
cpSync(path.resolve("extensions"), dir, { recursive: true, filter: (source) => !source.includes(`${path.sep}dist`) });
mkdirSync(path.join(dir, "order-label-action/dist"), { recursive: true });
for (const file of ["order-label-action.js", "order-label-action-conditions.js"]) writeFileSync(path.join(dir, "order-label-action/dist", file), "/* test */");
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  database.cleanup();
});

const url = (query: string) => new URL(`http://localhost/dev/admin-host${query}`);

/** The JSON the frame hands its runtime. */
async function frameHost(query: string) {
  const page = await host.framePage(url(`/frame${query}`), dir).text();
  const json = /window\.__ADMIN_HOST__ = (.*?);<\/script>/.exec(page)?.[1];
  return { page, host: JSON.parse(json!) as { target: string; locale: string; selected: { id: string }[]; translations: Record<string, unknown>; token: string } };
}

describe("demo admin host", () => {
  it("is on in demo mode and lists the four extensions", () => {
    expect(host.adminHostEnabled()).toBe(true);
    expect(host.hostedExtensions(dir).map((extension) => [extension.handle, extension.target, extension.shouldRender])).toEqual([
      ["order-label-action", "admin.order-details.action.render", true],
      ["order-print", "admin.order-details.print-action.render", false],
      ["orders-label-selection", "admin.order-index.selection-action.render", false],
      ["orders-print", "admin.order-index.selection-print-action.render", false],
    ]);
  });

  it("frames an extension with the admin's part: GIDs, the locale's translations, should-render first", async () => {
    const { page, host: global } = await frameHost("?extension=order-label-action&ids=7100001063,gid://shopify/Order/7100001064,bad&locale=fr");
    expect(global.target).toBe("admin.order-details.action.render");
    expect(global.selected).toEqual([{ id: "gid://shopify/Order/7100001063" }, { id: "gid://shopify/Order/7100001064" }]);
    expect(global.translations.create).toBe("Créer l'étiquette");
    expect(page.indexOf("order-label-action-conditions.js")).toBeLessThan(page.indexOf("bundle/order-label-action.js"));
    const english = await frameHost("?extension=order-label-action&ids=1&locale=de");
    expect(english.host.translations.create).toBe("Create label");
  });

  it("gives a session token the Shopify library accepts, for the demo shop", async () => {
    const { host: global } = await frameHost("?extension=order-label-action&ids=1&locale=en");
    const api = shopifyApi({ apiKey: TEST_API_KEY, apiSecretKey: process.env.SHOPIFY_API_SECRET!, hostName: "localhost", isEmbeddedApp: true, apiVersion: "2026-10" as never, logger: { level: LogSeverity.Error } });
    const payload = await api.session.decodeSessionToken(global.token);
    expect(payload.dest).toBe(`https://${DEMO_SHOP_DOMAIN}`);
    expect(payload.aud).toBe(TEST_API_KEY);
  });

  it("answers 404 for an unknown extension or bundle, and never serves a file outside dist by name", async () => {
    expect(host.framePage(url("/frame?extension=nope"), dir).status).toBe(404);
    expect(host.hostPage(url("?extension=nope"), dir).status).toBe(404);
    expect(host.bundleFile("../../package.json", dir).status).toBe(404);
    expect(host.bundleFile("order-label-action.js", dir).status).toBe(200);
    expect(host.bundleFile("order-print.js", dir).status).toBe(404);
    expect(host.framePage(url("/frame?extension=order-print&ids=1"), dir).status).toBe(503);
    expect(host.bundleFile("order-label-action.js", dir).headers.get("Content-Type")).toMatch(/javascript/);
  });
});
