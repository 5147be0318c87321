/**
 * Canary: with every log line captured at trace level, a full purchase (real clients against the Shopify emulator
 * and the label sandbox), a refused purchase and a webhook write no password, token or recipient data.
 * The canaries are the values actually sent: the recipient of the label request snapshot, the account password,
 * the Shopify access token, the customer of the webhook.
 */
import { Writable } from "node:stream";
import { getHmac, API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import type { DestinationStream } from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEMO_SHOP, DEMO_TOKEN, startTestEmulator, type TestEmulator } from "../../emulators/shopify-admin/test-helpers";
import { DEMO_ACCOUNT, startLabelSandbox, type LabelSandbox } from "../../emulators/label-sandbox/server";
import { DEMO_SHIPPING_SETTINGS } from "../../app/demo/seed-demo-shop.server";
import { createLabelServiceClient } from "../../app/label-service";
import { labelContextFromAdmin } from "../../app/labels/context.server";
import { labelOrder } from "../../app/labels/label-order.server";
import { openRequest } from "../../app/privacy/snapshot-seal.server";
import { createLogger } from "../../app/observability/logger.server";
import { saveShippingSettings } from "../../app/settings/shipping-settings.server";
import { appTestEnv, TEST_ENCRYPTION_KEY } from "../helpers/app-env";
import { createTestDatabaseUrl } from "../helpers/test-db";
import { realAdminFor } from "../helpers/real-admin";
import type { PrismaClient } from "../../app/generated/prisma/client";

const lines: string[] = [];
globalThis.__etiquetteLogger = createLogger({
  level: "trace",
  destination: new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  }) as unknown as DestinationStream,
});

const database = createTestDatabaseUrl();
Object.assign(process.env, appTestEnv(database.url), { LOG_LEVEL: "trace" });
let db: PrismaClient;
let emulator: TestEmulator;
let sandbox: LabelSandbox;

beforeAll(async () => {
  db = (await import("../../app/db.server")).default;
  [emulator, sandbox] = await Promise.all([startTestEmulator(), startLabelSandbox({ port: 0 })]);
  await saveShippingSettings(db, DEMO_SHOP, DEMO_SHIPPING_SETTINGS);
});
afterAll(async () => {
  await Promise.all([emulator.emulator.close(), sandbox.close()]);
  await db.$disconnect();
  database.cleanup();
  globalThis.__etiquetteLogger = undefined;
});

it("a refused purchase, a full purchase and a webhook log no secret and no recipient data", async () => {
  const admin = await realAdminFor(emulator.emulator.url, db, DEMO_SHOP, DEMO_TOKEN);
  const service = createLabelServiceClient({
    shop: DEMO_SHOP,
    environment: "staging",
    account: { baseUrl: sandbox.url, ...DEMO_ACCOUNT },
    options: { generateTimeoutMs: 5_000, defaultTimeoutMs: 5_000 },
  });
  const create = async () => labelOrder(await labelContextFromAdmin(DEMO_SHOP, admin, { database: db, service: async () => service }), { orderId: "7100001035" });

  await fetch(`${sandbox.url}/__admin/faults`, { method: "POST", body: JSON.stringify({ refuseLabel: { next: 1 } }) });
  const refused = await create();
  expect(refused.kind).toBe("refused");

  const bought = await create();
  if (bought.kind !== "labelled" || bought.alreadyLabelled) throw new Error(JSON.stringify(bought));
  const snapshot = openRequest(bought.label.requestSnapshotJson) as { recipient: Record<string, unknown> };

  const customer = { id: 7001, email: "canary.customer@example.org", phone: "+41791234567" };
  const body = JSON.stringify({ shop_id: 1, shop_domain: DEMO_SHOP, orders_requested: [1035], customer, data_request: { id: 99 } });
  const route = (await import("../../app/routes/webhooks.customers.data_request")) as { action: (args: { request: Request }) => Promise<Response> };
  const response = await route.action({
    request: new Request("https://my-test-app.myshopify.io/webhooks/customers/data_request", {
      method: "POST",
      body,
      headers: {
        "content-type": "application/json",
        "x-shopify-topic": "customers/data_request",
        "x-shopify-shop-domain": DEMO_SHOP,
        "x-shopify-api-version": "2026-10",
        "x-shopify-webhook-id": "canary-delivery",
        "x-shopify-hmac-sha256": getHmac(body, API_SECRET_KEY),
      },
    }),
  });
  expect(response.status).toBe(200);

  const text = lines.join("\n");
  // The lines are there: each label-service and Admin call, and the webhook.
  expect(text).toContain('"msg":"label-service call"');
  expect(text).toContain('"msg":"shopify admin call"');
  expect(text).toContain('"msg":"webhook handled"');

  const recipient = Object.values(snapshot.recipient).filter((value): value is string => typeof value === "string" && value.length >= 6);
  expect(recipient.length).toBeGreaterThanOrEqual(3);
  const canaries = [...recipient, DEMO_ACCOUNT.password, DEMO_TOKEN, TEST_ENCRYPTION_KEY, API_SECRET_KEY, customer.email, customer.phone];
  for (const canary of canaries) expect(text, `"${canary}" was logged`).not.toContain(canary);
  expect(text).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}/); // no JWT (the label service's session token)
}, 120_000);
