/**
 * Webhook routes end to end: real HMAC verification by @shopify/shopify-app-remix, requests signed with
 * Shopify's own test helper, against a migrated SQLite database.
 */
import { getHmac, API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabaseUrl } from "../../test/helpers/test-db";
import { appTestEnv } from "../../test/helpers/app-env";
import type { PrismaClient } from "../generated/prisma/client";
import { customerDataExport, listDataRequests } from "../privacy/data-request.server";

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
  options: { shop?: string; secret?: string; webhookId?: string; topicHeader?: string; noHmac?: boolean } = {},
): Request {
  const body = JSON.stringify(payload);
  deliveryCounter += 1;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "x-shopify-topic": options.topicHeader ?? topic.replace(".", "/"),
    "x-shopify-shop-domain": options.shop ?? SHOP,
    "x-shopify-api-version": "2026-10",
    "x-shopify-webhook-id": options.webhookId ?? `delivery-${deliveryCounter}`,
  };
  if (!options.noHmac) headers["x-shopify-hmac-sha256"] = getHmac(body, options.secret ?? API_SECRET_KEY);
  return new Request(`https://my-test-app.myshopify.io/webhooks/${topic.replace(".", "/")}`, { method: "POST", body, headers });
}

/** Bodies as Shopify documents them for each topic (app/uninstalled carries the shop object). */
function payloadFor(topic: string, shop: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  switch (topic) {
    case "app.uninstalled":
      return { id: 548380009, name: "Shop", domain: "shop.example.com", myshopify_domain: shop, ...extra };
    case "app.scopes_update":
      return { id: 1, shop_id: 548380009, previous: ["read_orders"], current: ["read_orders"], updated_at: "2026-11-22T10:00:00Z", ...extra };
    case "customers.data_request":
      return {
        shop_id: 548380009,
        shop_domain: shop,
        orders_requested: [1001],
        customer: { id: 191167, email: "zoe@example.com", phone: "+33612345678" },
        data_request: { id: 9999 },
        ...extra,
      };
    case "customers.redact":
      return {
        shop_id: 548380009,
        shop_domain: shop,
        customer: { id: 191167, email: "zoe@example.com", phone: "+33612345678" },
        orders_to_redact: [1001],
        ...extra,
      };
    default:
      return { shop_id: 548380009, shop_domain: shop, ...extra };
  }
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
  await db.customerDataRequest.deleteMany();
  await seedShop(SHOP);
  await seedShop(OTHER_SHOP);
});

describe.each(["app.uninstalled", "app.scopes_update", "customers.data_request", "customers.redact", "shop.redact"])(
  "webhooks/%s",
  (topic) => {
    const payload = payloadFor(topic, SHOP);

    it("rejects a wrong HMAC with 401 and changes nothing", async () => {
      expect(await call(topic, webhookRequest(topic, payload, { secret: "not-the-secret" }))).toBe(401);
      expect(await db.webhookDelivery.count()).toBe(0);
      expect(await db.session.count({ where: { shop: SHOP } })).toBe(1);
    });

    it("answers a request without a signature with 400 (as @shopify/shopify-app-remix does) and changes nothing", async () => {
      expect(await call(topic, webhookRequest(topic, payload, { noHmac: true }))).toBe(400);
      expect(await db.webhookDelivery.count()).toBe(0);
      expect(await db.session.count({ where: { shop: SHOP } })).toBe(1);
    });

    it("refuses a correctly signed body of this topic for another shop than the header names", async () => {
      const body = payloadFor(topic, OTHER_SHOP, topic === "app.scopes_update" ? { shop_domain: OTHER_SHOP } : {});
      expect(await call(topic, webhookRequest(topic, body, { shop: SHOP }))).toBe(400);
      expect(await db.webhookDelivery.count()).toBe(0);
      expect(await db.session.count({ where: { shop: SHOP } })).toBe(1);
      expect(await db.label.count({ where: { shop: SHOP } })).toBe(1);
    });

    it("refuses a delivery whose X-Shopify-Topic is not this route's topic", async () => {
      const other = topic === "shop.redact" ? "customers/redact" : "shop/redact";
      expect(await call(topic, webhookRequest(topic, payload, { topicHeader: other }))).toBe(400);
      expect(await db.webhookDelivery.count()).toBe(0);
      expect(await db.session.count({ where: { shop: SHOP } })).toBe(1);
    });

    it("accepts a valid HMAC with 200, and a second delivery of the same webhook is harmless", async () => {
      expect(await call(topic, webhookRequest(topic, payload, { webhookId: "same-id" }))).toBe(200);
      expect(await call(topic, webhookRequest(topic, payload, { webhookId: "same-id" }))).toBe(200);
      // shop/redact keeps no record of the shop, not even of its own delivery: its redelivery just deletes nothing more.
      expect(await db.webhookDelivery.count({ where: { webhookId: "same-id" } })).toBe(topic === "shop.redact" ? 0 : 1);
      // The other shop is never touched.
      expect(await db.session.count({ where: { shop: OTHER_SHOP } })).toBe(1);
      expect(await db.label.count({ where: { shop: OTHER_SHOP } })).toBe(1);
    });
  },
);

describe("what each webhook does", () => {
  it("app/uninstalled deletes the shop's sessions only", async () => {
    expect(await call("app.uninstalled", webhookRequest("app.uninstalled", payloadFor("app.uninstalled", SHOP)))).toBe(200);
    expect(await db.session.count({ where: { shop: SHOP } })).toBe(0);
    expect(await db.label.count({ where: { shop: SHOP } })).toBe(1);
  });

  it("app/scopes_update records scopes taken away", async () => {
    await db.session.updateMany({ where: { shop: SHOP }, data: { scope: "read_orders,write_orders,read_products" } });
    const body = payloadFor("app.scopes_update", SHOP, { current: ["write_orders"] });
    expect(await call("app.scopes_update", webhookRequest("app.scopes_update", body))).toBe(200);
    const session = await db.session.findFirstOrThrow({ where: { shop: SHOP } });
    expect(session.scope).toBe("read_orders,write_orders");
  });

  it("app/scopes_update never adds a scope: its body names no shop, so it could have been signed for another", async () => {
    const body = payloadFor("app.scopes_update", SHOP, { current: ["read_orders", "write_orders", "read_customers"] });
    expect(await call("app.scopes_update", webhookRequest("app.scopes_update", body))).toBe(200);
    const session = await db.session.findFirstOrThrow({ where: { shop: SHOP } });
    expect(session.scope).toBe("read_orders");
  });

  it("customers/redact removes the recipient's personal data from that order's snapshots, keeping tracking", async () => {
    await call("customers.redact", webhookRequest("customers.redact", payloadFor("customers.redact", SHOP)));
    const label = await db.label.findFirstOrThrow({ where: { shop: SHOP } });
    expect(label.requestSnapshotJson).not.toContain("Zoé");
    expect(label.requestSnapshotJson).not.toContain("zoe@example.com");
    expect(label.trackingNumber).toBe("1234567890");
    expect(label.redactedAt).not.toBeNull();
    const other = await db.label.findFirstOrThrow({ where: { shop: OTHER_SHOP } });
    expect(other.requestSnapshotJson).toContain("Zoé");
  });

  it("customers/data_request records the request, whose export holds the order's stored label data", async () => {
    expect(await call("customers.data_request", webhookRequest("customers.data_request", payloadFor("customers.data_request", SHOP)))).toBe(200);
    const [request] = await listDataRequests(db, SHOP);
    expect(request).toMatchObject({ shopifyRequestId: "9999", customerId: "191167", recordsFound: 1, handedOverAt: null });
    const exported = await customerDataExport(db, SHOP, request!.id);
    expect(exported?.labels[0]).toMatchObject({ orderName: "#1001", trackingNumber: "1234567890", requestAsSent: { recipient: { firstname: "Zoé" } } });
    expect(await listDataRequests(db, OTHER_SHOP)).toEqual([]);
  });

  it("shop/redact deletes everything stored for the shop", async () => {
    await call("customers.data_request", webhookRequest("customers.data_request", payloadFor("customers.data_request", SHOP)));
    await call("shop.redact", webhookRequest("shop.redact", payloadFor("shop.redact", SHOP)));
    expect(await db.customerDataRequest.count({ where: { shop: SHOP } })).toBe(0);
    expect(await db.label.count({ where: { shop: SHOP } })).toBe(0);
    expect(await db.shopSettings.count({ where: { shop: SHOP } })).toBe(0);
    expect(await db.session.count({ where: { shop: SHOP } })).toBe(0);
    // Not even the record of the deliveries is kept (shop/redact's own included: a redelivery deletes nothing more).
    expect(await db.webhookDelivery.count({ where: { shop: SHOP } })).toBe(0);
    expect(await db.label.count({ where: { shop: OTHER_SHOP } })).toBe(1);
  });
});

describe("a signed body replayed to another route (issue 10, item 3)", () => {
  it("a customers/data_request body of shop B posted to /webhooks/shop/redact as shop A's shop/redact deletes nothing", async () => {
    const bodyOfB = payloadFor("customers.data_request", OTHER_SHOP);
    const request = webhookRequest("shop.redact", bodyOfB, { topicHeader: "shop/redact", shop: SHOP });
    expect(await call("shop.redact", request)).toBe(400);
    for (const shop of [SHOP, OTHER_SHOP]) {
      expect(await db.label.count({ where: { shop } })).toBe(1);
      expect(await db.shopSettings.count({ where: { shop } })).toBe(1);
      expect(await db.session.count({ where: { shop } })).toBe(1);
    }
  });

  it("the same body with shop B's own domain in the header does not delete shop B either", async () => {
    const bodyOfB = payloadFor("customers.data_request", OTHER_SHOP);
    const request = webhookRequest("shop.redact", bodyOfB, { topicHeader: "shop/redact", shop: OTHER_SHOP });
    expect(await call("shop.redact", request)).toBe(400);
    expect(await db.label.count({ where: { shop: OTHER_SHOP } })).toBe(1);
    expect(await db.session.count({ where: { shop: OTHER_SHOP } })).toBe(1);
  });

  it("a customers/redact body replayed as shop/redact of the same shop deletes nothing", async () => {
    const request = webhookRequest("shop.redact", payloadFor("customers.redact", SHOP), { topicHeader: "shop/redact" });
    expect(await call("shop.redact", request)).toBe(400);
    expect(await db.label.count({ where: { shop: SHOP } })).toBe(1);
  });

  it("a customers/data_request body replayed as customers/redact redacts nothing", async () => {
    const request = webhookRequest("customers.redact", payloadFor("customers.data_request", SHOP), {
      topicHeader: "customers/redact",
    });
    expect(await call("customers.redact", request)).toBe(400);
    const label = await db.label.findFirstOrThrow({ where: { shop: SHOP } });
    expect(label.requestSnapshotJson).toContain("Zoé");
  });

  it("an app/uninstalled body of shop B with shop A in the header keeps shop A's sessions", async () => {
    const request = webhookRequest("app.uninstalled", payloadFor("app.uninstalled", OTHER_SHOP), { shop: SHOP });
    expect(await call("app.uninstalled", request)).toBe(400);
    expect(await db.session.count({ where: { shop: SHOP } })).toBe(1);
  });
});
