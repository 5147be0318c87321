/**
 * Webhook routes end to end: real HMAC verification by @shopify/shopify-app-remix, requests signed with
 * Shopify's own test helper, against a migrated SQLite database.
 */
import { getHmac, API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabaseUrl } from "../../test/helpers/test-db";
import { appTestEnv } from "../../test/helpers/app-env";
import type { PrismaClient } from "../generated/prisma/client";

const SHOP = "webhook-shop.myshopify.com";
const OTHER_SHOP = "other-shop.myshopify.com";
const database = createTestDatabaseUrl();
Object.assign(process.env, appTestEnv(database.url));

let db: PrismaClient;
const routes: Record<string, (args: { request: Request }) => Promise<Response>> = {};

beforeAll(async () => {
  db = (await import("../db.server")).default;
  for (const topic of ["app.uninstalled", "app.scopes_update", "customers.data_request", "customers.redact", "shop.redact"]) {
    const module = (await import(`../routes/webhooks.${topic}.tsx`)) as { action: (typeof routes)[string] };
    routes[topic] = module.action;
  }
});

afterAll(async () => {
  await db.$disconnect();
  database.cleanup();
});

let deliveryCounter = 0;

function webhookRequest(
  topic: string,
  payload: unknown,
  options: { shop?: string; secret?: string; webhookId?: string } = {},
): Request {
  const body = JSON.stringify(payload);
  deliveryCounter += 1;
  return new Request(`https://my-test-app.myshopify.io/webhooks/${topic.replace(".", "/")}`, {
    method: "POST",
    body,
    headers: {
      "content-type": "application/json",
      "x-shopify-hmac-sha256": getHmac(body, options.secret ?? API_SECRET_KEY),
      "x-shopify-topic": topic.replace(".", "/"),
      "x-shopify-shop-domain": options.shop ?? SHOP,
      "x-shopify-api-version": "2026-10",
      "x-shopify-webhook-id": options.webhookId ?? `delivery-${deliveryCounter}`,
    },
  });
}

async function call(topic: string, request: Request): Promise<number> {
  try {
    return (await routes[topic]!({ request })).status;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
}

async function seedShop(shop: string) {
  await db.session.create({ data: { id: `offline_${shop}`, shop, state: "x", accessToken: "shpat_x", scope: "read_orders" } });
  await db.shopSettings.create({ data: { shop } });
  await db.label.create({
    data: {
      shop,
      orderId: "gid://shopify/Order/1001",
      orderName: "#1001",
      environment: "staging",
      customReference: "20261122-001",
      serviceLabelId: `L-${shop}`,
      trackingNumber: "1234567890",
      trackingUrl: "https://track.test/1234567890",
      labelUrl: "https://labels.test/1.pdf",
      carrierName: "Dhl",
      carrierServiceName: "n",
      labelFormat: "PDF_A4_300dpi",
      requestSnapshotJson: JSON.stringify({
        weight: "1000",
        recipient: { firstname: "Zoé", lastname: "Martin", address_line1: "1 rue de la Paix", city: "Lyon", zip: "69001", email: "zoe@example.com", country: "FR" },
      }),
    },
  });
}

beforeEach(async () => {
  for (const shop of [SHOP, OTHER_SHOP]) {
    await db.label.deleteMany({ where: { shop } });
    await db.shopSettings.deleteMany({ where: { shop } });
    await db.session.deleteMany({ where: { shop } });
  }
  await db.webhookDelivery.deleteMany();
  await seedShop(SHOP);
  await seedShop(OTHER_SHOP);
});

describe.each(["app.uninstalled", "app.scopes_update", "customers.data_request", "customers.redact", "shop.redact"])(
  "webhooks/%s",
  (topic) => {
    const payload = topic === "app.scopes_update" ? { current: ["read_orders"] } : { shop_domain: SHOP, orders_to_redact: [] };

    it("rejects a wrong HMAC with 401 and changes nothing", async () => {
      expect(await call(topic, webhookRequest(topic, payload, { secret: "not-the-secret" }))).toBe(401);
      expect(await db.webhookDelivery.count()).toBe(0);
      expect(await db.session.count({ where: { shop: SHOP } })).toBe(1);
    });

    it("accepts a valid HMAC with 200, and a second delivery of the same webhook is harmless", async () => {
      expect(await call(topic, webhookRequest(topic, payload, { webhookId: "same-id" }))).toBe(200);
      expect(await call(topic, webhookRequest(topic, payload, { webhookId: "same-id" }))).toBe(200);
      expect(await db.webhookDelivery.count({ where: { webhookId: "same-id" } })).toBe(1);
      // The other shop is never touched.
      expect(await db.session.count({ where: { shop: OTHER_SHOP } })).toBe(1);
      expect(await db.label.count({ where: { shop: OTHER_SHOP } })).toBe(1);
    });
  },
);

describe("what each webhook does", () => {
  it("app/uninstalled deletes the shop's sessions only", async () => {
    expect(await call("app.uninstalled", webhookRequest("app.uninstalled", {}))).toBe(200);
    expect(await db.session.count({ where: { shop: SHOP } })).toBe(0);
    expect(await db.label.count({ where: { shop: SHOP } })).toBe(1);
  });

  it("app/scopes_update stores the new scopes on the shop's sessions", async () => {
    await call("app.scopes_update", webhookRequest("app.scopes_update", { current: ["read_orders", "write_orders"] }));
    const session = await db.session.findFirstOrThrow({ where: { shop: SHOP } });
    expect(session.scope).toBe("read_orders,write_orders");
  });

  it("customers/redact removes the recipient's personal data from that order's snapshots, keeping tracking", async () => {
    await call("customers.redact", webhookRequest("customers.redact", { orders_to_redact: [1001] }));
    const label = await db.label.findFirstOrThrow({ where: { shop: SHOP } });
    expect(label.requestSnapshotJson).not.toContain("Zoé");
    expect(label.requestSnapshotJson).not.toContain("zoe@example.com");
    expect(label.trackingNumber).toBe("1234567890");
    expect(label.redactedAt).not.toBeNull();
    const other = await db.label.findFirstOrThrow({ where: { shop: OTHER_SHOP } });
    expect(other.requestSnapshotJson).toContain("Zoé");
  });

  it("shop/redact deletes everything stored for the shop", async () => {
    await call("shop.redact", webhookRequest("shop.redact", { shop_domain: SHOP }));
    expect(await db.label.count({ where: { shop: SHOP } })).toBe(0);
    expect(await db.shopSettings.count({ where: { shop: SHOP } })).toBe(0);
    expect(await db.session.count({ where: { shop: SHOP } })).toBe(0);
    expect(await db.label.count({ where: { shop: OTHER_SHOP } })).toBe(1);
  });
});
