/** The customer data requests page: the merchant sees only their shop's requests and exports, and marks them handed over. */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { PrismaClient } from "../generated/prisma/client";
import { appTestEnv } from "../../test/helpers/app-env";
import { createTestDatabaseUrl } from "../../test/helpers/test-db";
import type * as PrivacyRoute from "./app.privacy";

const A = "shop-a.myshopify.com";
vi.mock("../auth.server", () => ({
  requireAdmin: async () => ({ admin: {}, shop: "shop-a.myshopify.com", session: { id: "offline_shop-a.myshopify.com" }, demo: false }),
}));

const database = createTestDatabaseUrl();
let db: PrismaClient;
let route: typeof PrivacyRoute;
let mine = "";
let theirs = "";

beforeAll(async () => {
  Object.assign(process.env, appTestEnv(database.url));
  db = (await import("../db.server")).default;
  route = await import("./app.privacy");
  const { recordDataRequest } = await import("../privacy/data-request.server");
  const payload = (shop: string) => ({ shop_domain: shop, customer: { id: 7 }, orders_requested: [1001], data_request: { id: 1 } });
  mine = await recordDataRequest(db, A, payload(A), "w-a");
  theirs = await recordDataRequest(db, "shop-b.myshopify.com", payload("shop-b.myshopify.com"), "w-b");
  await db.label.create({
    data: {
      shop: A, orderId: "gid://shopify/Order/1001", orderName: "#1001", environment: "staging", customReference: "20261122-001",
      serviceLabelId: "L1", trackingNumber: "TN1", trackingUrl: "https://t/1", labelUrl: "https://l/1", carrierName: "Dhl",
      carrierServiceName: "n", labelFormat: "PDF_A4_300dpi", requestSnapshotJson: JSON.stringify({ recipient: { firstname: "Zoé" } }),
    },
  });
});

afterAll(async () => {
  await db.$disconnect();
  database.cleanup();
});

const load = (query: string) =>
  route.loader({ request: new Request(`https://etiquette.test/app/privacy${query}`), params: {}, context: {} });

describe("customer data requests page", () => {
  it("lists the shop's requests and shows the export of one of them", async () => {
    const data = await load(`?request=${mine}`);
    expect(data.requests.map((entry) => entry.id)).toEqual([mine]);
    expect(data.exportJson).toContain("Zoé");
    expect(data.notFound).toBe(false);
  });

  it("never shows another shop's export", async () => {
    const data = await load(`?request=${theirs}`);
    expect(data.exportJson).toBeNull();
    expect(data.notFound).toBe(true);
  });

  it("marks a request as handed over", async () => {
    const body = new URLSearchParams({ intent: "handedOver", id: mine });
    const result = await route.action({ request: new Request("https://etiquette.test/app/privacy", { method: "POST", body }), params: {}, context: {} });
    expect(result).toEqual({ ok: true });
    expect((await load("")).requests[0]?.handedOverAt).not.toBeNull();
    const other = new URLSearchParams({ intent: "handedOver", id: theirs });
    expect(await route.action({ request: new Request("https://etiquette.test/app/privacy", { method: "POST", body: other }), params: {}, context: {} })).toEqual({ ok: false });
  });
});
