/**
 * The production switch through the real settings action and Shopify's embedded authentication: the request carries
 * a session token signed like the admin's (Shopify's test helper), the shop has only its offline session, and the
 * confirmation is recorded with the staff member the token names (`sub`), not the offline session id.
 */
import { API_SECRET_KEY, getJwt } from "@shopify/shopify-api/test-helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../generated/prisma/client";
import { appTestEnv, TEST_API_KEY } from "../../test/helpers/app-env";
import { createTestDatabaseUrl } from "../../test/helpers/test-db";
import type * as SettingsRoute from "./app.settings";

const SHOP = "switch-shop.myshopify.com";
const database = createTestDatabaseUrl();
let db: PrismaClient;
let route: typeof SettingsRoute;

beforeAll(async () => {
  Object.assign(process.env, appTestEnv(database.url), { LABEL_SERVICE_PRODUCTION_URL: "https://labels.production.test" });
  db = (await import("../db.server")).default;
  route = await import("./app.settings");
  await db.session.create({
    data: { id: `offline_${SHOP}`, shop: SHOP, state: "x", isOnline: false, accessToken: "shpat_offline", scope: "read_orders,write_orders" },
  });
  await db.labelServiceAccount.create({ data: { shop: SHOP, environment: "production", email: "p@x.test", passwordCiphertext: "v1:x", keyVersion: 1 } });
});

afterAll(async () => {
  await db.$disconnect();
  database.cleanup();
});

async function switchToProduction(sub: string): Promise<unknown> {
  const { token } = await getJwt("switch-shop", TEST_API_KEY, API_SECRET_KEY, { sub });
  const body = new URLSearchParams({ intent: "setEnvironment", environment: "production", confirmCharges: "on" });
  const request = new Request("https://my-test-app.myshopify.io/app/settings", {
    method: "POST",
    body,
    headers: { authorization: `Bearer ${token}` },
  });
  return route.action({ request, params: {}, context: {} });
}

describe("production switch", () => {
  it("records the staff member from the session token, not the shop's offline session", async () => {
    expect(await switchToProduction("8472")).toMatchObject({ ok: true });
    const row = await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(row.environment).toBe("production");
    expect(row.productionConfirmedBy).toBe("8472");
    expect(row.productionConfirmedBy).not.toBe(`offline_${SHOP}`);
  });
});
