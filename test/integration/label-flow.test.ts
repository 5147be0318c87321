/**
 * The merchant's "Create label" end to end: the app's real Admin client against the Shopify emulator, the real
 * label-service client against the label sandbox, the purchase and fulfillment layers on SQLite.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_SHOP, DEMO_TOKEN, startTestEmulator, type TestEmulator } from "../../emulators/shopify-admin/test-helpers";
import { DEMO_ACCOUNT, startLabelSandbox, type LabelSandbox } from "../../emulators/label-sandbox/server";
import { DEMO_SHIPPING_SETTINGS } from "../../app/demo/seed-demo-shop.server";
import { createLabelServiceClient, type LabelServiceClient } from "../../app/label-service";
import { handleOrderLabelAction } from "../../app/labels/order-label-actions.server";
import { labelContextFromAdmin } from "../../app/labels/context.server";
import { labelOrder, type LabelOrderInput } from "../../app/labels/label-order.server";
import { overridesFromForm } from "../../app/labels/order-label.server";
import type { AdminGraphqlClient } from "../../app/shopify/admin-client";
import { saveShippingSettings } from "../../app/settings/shipping-settings.server";
import { createTestDatabase } from "../helpers/test-db";
import { fulfilTestLabelsOn } from "../helpers/dev-store";
import { openRequest } from "../../app/privacy/snapshot-seal.server";
import { realAdminFor } from "../helpers/real-admin";

const database = createTestDatabase();
const db = database.prisma;
let emulator: TestEmulator;
let sandbox: LabelSandbox;
let admin: Awaited<ReturnType<typeof realAdminFor>>;
let service: LabelServiceClient;

const SWISS_ORDER = "7100001035";

beforeAll(async () => {
  [emulator, sandbox] = await Promise.all([startTestEmulator(), startLabelSandbox({ port: 0 })]);
  admin = await realAdminFor(emulator.emulator.url, db, DEMO_SHOP, DEMO_TOKEN);
  await saveShippingSettings(db, DEMO_SHOP, DEMO_SHIPPING_SETTINGS);
  // The emulated demo shop is a development store; its test labels are fulfilled once turned on (decision 0170).
  await fulfilTestLabelsOn(db, DEMO_SHOP);
});
afterAll(async () => {
  await Promise.all([emulator.emulator.close(), sandbox.close()]);
  await database.close();
});
beforeEach(async () => {
  await fetch(`${sandbox.url}/__admin/reset`, { method: "POST" });
  await emulator.inspect("/__admin/reset", "POST");
  await db.purchaseAttempt.deleteMany();
  await db.label.deleteMany();
  service = createLabelServiceClient({
    shop: DEMO_SHOP,
    environment: "staging",
    account: { baseUrl: sandbox.url, ...DEMO_ACCOUNT },
    tokenCache: undefined,
    options: { generateTimeoutMs: 5_000, defaultTimeoutMs: 5_000 },
  });
  service.invalidateToken();
});

async function boughtInSandbox() {
  return (await (await fetch(`${sandbox.url}/__admin/labels`)).json()) as { count: number; countByReference: Record<string, number> };
}
async function shopifyOrder(number: string) {
  return (await emulator.inspect(`/__admin/orders/${number}`)).body as { fulfillments: unknown[]; notifications: unknown[] };
}
/** The one labelling unit, with this request's context (the shop's environment and settings read once). */
async function label(input: LabelOrderInput, client: AdminGraphqlClient = admin) {
  return labelOrder(await labelContextFromAdmin(DEMO_SHOP, client, { database: db, service: async () => service }), input);
}
const create = () => label({ orderId: SWISS_ORDER });

describe("Create label", () => {
  it("buys one label with CN23 lines and fulfils the Swiss order once, notifying the customer", async () => {
    const outcome = await create();
    expect(outcome.kind).toBe("labelled");
    if (outcome.kind !== "labelled" || outcome.alreadyLabelled) throw new Error(JSON.stringify(outcome));
    const snapshot = openRequest(outcome.label.requestSnapshotJson) as { cn23_data?: { products: unknown[] }; recipient: { country: string } };
    expect(snapshot.recipient.country).toBe("CH");
    expect(snapshot.cn23_data?.products.length).toBeGreaterThan(0);
    expect(outcome.fulfillment?.status).toBe("created");
    expect((await boughtInSandbox()).count).toBe(1);
    const order = await shopifyOrder("1035");
    expect(order.fulfillments).toHaveLength(1);
    expect(order.notifications).toHaveLength(1);
  });

  it("two concurrent purchases for the same order leave exactly one label in the sandbox", async () => {
    const results = await Promise.all([create(), create()]);
    const statuses = results.map((result) => (result.kind === "labelled" ? (result.alreadyLabelled ? "already_labelled" : "created") : result.kind)).sort();
    expect(statuses).toContain("created");
    expect(statuses.filter((status) => status === "created")).toHaveLength(1);
    expect((await boughtInSandbox()).count).toBe(1);
    expect((await shopifyOrder("1035")).fulfillments).toHaveLength(1);
  });

  it("charged but response lost: reconciled to the one label, fulfilled once", async () => {
    await fetch(`${sandbox.url}/__admin/faults`, { method: "POST", body: JSON.stringify({ chargedButLost: { next: 1 } }) });
    const outcome = await create();
    if (outcome.kind !== "labelled" || outcome.alreadyLabelled) throw new Error(JSON.stringify(outcome));
    // Clicking again reports the label already bought: nothing more to buy.
    const again = await create();
    if (again.kind !== "labelled" || !again.alreadyLabelled) throw new Error(JSON.stringify(again));
    expect(again.label.id).toBe(outcome.label.id);
    const bought = await boughtInSandbox();
    expect(bought.count).toBe(1);
    expect(Object.values(bought.countByReference)).toEqual([1]);
    expect((await shopifyOrder("1035")).fulfillments).toHaveLength(1);
    expect(await db.label.count()).toBe(1);
  });

  it("when fulfillmentCreate fails after the label was bought, a retry fulfils without buying again", async () => {
    // Shopify answers the first fulfillmentCreate with an error (as it does for a fulfillment order on hold).
    let failuresLeft = 1;
    const flaky = {
      async graphql(query: string, options?: { variables?: Record<string, unknown> }) {
        if (query.includes("mutation FulfillmentCreate") && failuresLeft > 0) {
          failuresLeft -= 1;
          return Response.json({ data: { fulfillmentCreate: { fulfillment: null, userErrors: [{ field: ["fulfillment"], message: "Fulfillment order is on hold" }] } } });
        }
        return admin.graphql(query, options);
      },
    };
    const outcome = await label({ orderId: SWISS_ORDER }, flaky);
    if (outcome.kind !== "labelled" || outcome.alreadyLabelled) throw new Error(JSON.stringify(outcome));
    expect(outcome.fulfillment).toMatchObject({ status: "failed" });
    expect((await shopifyOrder("1035")).fulfillments).toHaveLength(0);

    const retried = await handleOrderLabelAction(
      { db, admin: flaky, shop: DEMO_SHOP, orderId: SWISS_ORDER, service },
      formOf({ intent: "retryFulfillment", labelId: outcome.label.id }),
    );
    expect(retried.notice?.key).toBe("order.fulfillment.created");
    expect((await boughtInSandbox()).count).toBe(1);
    expect((await shopifyOrder("1035")).fulfillments).toHaveLength(1);
  });

  it("shop B cannot read or act on shop A's label, even with its id", async () => {
    const outcome = await create();
    if (outcome.kind !== "labelled" || outcome.alreadyLabelled) throw new Error("expected a label");
    const labelId = outcome.label.id;
    await expect(
      handleOrderLabelAction({ db, admin, shop: "other-shop.myshopify.com", orderId: SWISS_ORDER, service }, formOf({ intent: "retryFulfillment", labelId })),
    ).rejects.toMatchObject({ status: 404 });
    const attempt = await db.purchaseAttempt.findFirstOrThrow();
    await expect(
      handleOrderLabelAction({ db, admin, shop: "other-shop.myshopify.com", orderId: SWISS_ORDER, service }, formOf({ intent: "releaseAttempt", attemptId: attempt.id })),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("an additional label is an explicit action: a second parcel whose number joins the order's fulfillment", async () => {
    const first = await create();
    if (first.kind !== "labelled" || first.alreadyLabelled) throw new Error(JSON.stringify(first));
    const extra = await label({ orderId: SWISS_ORDER, labelIndex: 2 });
    if (extra.kind !== "labelled" || extra.alreadyLabelled) throw new Error(JSON.stringify(extra));
    expect(extra.fulfillment?.status).toBe("created");
    expect((await boughtInSandbox()).count).toBe(2);
    const order = (await emulator.inspect("/__admin/orders/1035")).body as { fulfillments: { trackingInfo: { number: string }[] }[] };
    expect(order.fulfillments).toHaveLength(1);
    expect(order.fulfillments[0]!.trackingInfo.map((info) => info.number)).toEqual([first.label.trackingNumber, extra.label.trackingNumber]);
    expect(await db.label.count({ where: { orderId: `gid://shopify/Order/${SWISS_ORDER}` } })).toBe(2);
  });

  it("an HS code typed on the page unblocks the customs line, and other edits reach the request", async () => {
    const overrides = overridesFromForm({
      "cn23.products.0.hs_code": "0902.30",
      "cn23.products.0.description": "Black tea",
      "recipient.phone1": "+41791234567",
      weight: "900",
    });
    const outcome = await label({ orderId: "7100001015", edits: overrides });
    if (outcome.kind !== "labelled" || outcome.alreadyLabelled) throw new Error(JSON.stringify(outcome));
    const sent = openRequest(outcome.label.requestSnapshotJson) as { weight: string; recipient: { phone1?: string }; cn23_data: { products: { hs_code?: string; description: string }[] } };
    expect(sent.weight).toBe("900");
    expect(sent.recipient.phone1).toBe("+41791234567");
    expect(sent.cn23_data.products[0]).toMatchObject({ hs_code: "090230", description: "Black tea" });
  });

  it("refuses a blocked order with named problems and buys nothing", async () => {
    const outcome = await label({ orderId: "7100001015" });
    expect(outcome.kind).toBe("blocked");
    if (outcome.kind === "blocked") expect(outcome.problems.map((problem) => problem.code)).toContain("hs_code_missing");
    expect((await boughtInSandbox()).count).toBe(0);
  });
});

function formOf(values: Record<string, string>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(values)) form.set(key, value);
  return form;
}
