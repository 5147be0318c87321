/**
 * Void and relabel end to end (issue 15): labelOrder buys a label and fulfils the order in the Shopify emulator;
 * voidLabel cancels that fulfillment and marks the label void, buying nothing; labelOrder then labels the order
 * again, and the new fulfillment notifies the customer exactly once, with the new tracking number. Counted from the
 * emulator's and the sandbox's inspection endpoints, with the app's real Admin and label-service clients.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_SHOP, DEMO_TOKEN, startTestEmulator, type TestEmulator } from "../../emulators/shopify-admin/test-helpers";
import { DEMO_ACCOUNT, startLabelSandbox, type LabelSandbox } from "../../emulators/label-sandbox/server";
import { DEMO_SHIPPING_SETTINGS } from "../../app/demo/seed-demo-shop.server";
import { createLabelServiceClient } from "../../app/label-service";
import { labelContextFromAdmin } from "../../app/labels/context.server";
import { labelOrder } from "../../app/labels/label-order.server";
import { handleOrderLabelAction } from "../../app/labels/order-label-actions.server";
import { voidLabel } from "../../app/labels/void.server";
import { saveShippingSettings } from "../../app/settings/shipping-settings.server";
import type { AdminGraphqlClient } from "../../app/shopify/admin-client";
import { fulfilTestLabelsOn } from "../helpers/dev-store";
import { realAdminFor } from "../helpers/real-admin";
import { createTestDatabase } from "../helpers/test-db";

const database = createTestDatabase();
const db = database.prisma;
let emulator: TestEmulator;
let sandbox: LabelSandbox;
let admin: AdminGraphqlClient;

const ORDER_NUMBER = "1035";
const ORDER_GID = "gid://shopify/Order/7100001035";

interface OrderReport {
  order: { displayFulfillmentStatus: string };
  fulfillmentOrders: { id: string; status: string; lineItems: { remainingQuantity: number }[] }[];
  fulfillments: { id: string; status: string; trackingInfo: { number: string | null }[] }[];
  notifications: { kind: string; fulfillmentId: string; trackingNumbers: string[] }[];
  metafields: { key: string; value: string }[];
}

async function shopifyOrder(): Promise<OrderReport> {
  return (await emulator.inspect(`/__admin/orders/${ORDER_NUMBER}`)).body as OrderReport;
}
async function boughtInSandbox(): Promise<number> {
  return ((await (await fetch(`${sandbox.url}/__admin/labels`)).json()) as { count: number }).count;
}

function context() {
  const client = createLabelServiceClient({
    shop: DEMO_SHOP,
    environment: "staging",
    account: { baseUrl: sandbox.url, ...DEMO_ACCOUNT },
    tokenCache: undefined,
    options: { generateTimeoutMs: 5_000, defaultTimeoutMs: 5_000 },
  });
  return labelContextFromAdmin(DEMO_SHOP, admin, { database: db, service: async () => client });
}

beforeAll(async () => {
  [emulator, sandbox] = await Promise.all([startTestEmulator(), startLabelSandbox({ port: 0 })]);
  admin = await realAdminFor(emulator.emulator.url, db, DEMO_SHOP, DEMO_TOKEN);
  await saveShippingSettings(db, DEMO_SHOP, { ...DEMO_SHIPPING_SETTINGS, notifyCustomer: true });
  // The emulated demo shop is a development store: its test labels reach Shopify once turned on (decision 0170).
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
});

describe("void and relabel against the emulator", () => {
  it("cancels the fulfillment, voids the label without buying, and a new label notifies the customer once with its number", async () => {
    const first = await labelOrder(await context(), { orderId: ORDER_GID });
    expect(first).toMatchObject({ kind: "labelled", fulfillment: { status: "created" } });
    if (first.kind !== "labelled") throw new Error("not labelled");
    const before = await shopifyOrder();
    expect(before.order.displayFulfillmentStatus).toBe("FULFILLED");
    expect(before.notifications).toHaveLength(1);
    expect(await boughtInSandbox()).toBe(1);

    const voided = await voidLabel({ db, admin }, { shop: DEMO_SHOP, labelId: first.label.id, orderId: ORDER_GID });
    expect(voided).toMatchObject({ kind: "voided", alreadyVoid: false, shopify: "cancelled", summaryWritten: true });

    const afterVoid = await shopifyOrder();
    expect(afterVoid.fulfillments.map((fulfillment) => [fulfillment.trackingInfo[0]?.number, fulfillment.status])).toEqual([[first.label.trackingNumber, "CANCELLED"]]);
    expect(afterVoid.order.displayFulfillmentStatus).toBe("UNFULFILLED");
    // The items can be fulfilled again (a new open fulfillment order, as the schema documents), and nobody was told.
    expect(afterVoid.fulfillmentOrders.some((fo) => fo.status === "OPEN" && fo.lineItems.every((line) => line.remainingQuantity > 0))).toBe(true);
    expect(afterVoid.notifications).toHaveLength(1);
    const summary = JSON.parse(afterVoid.metafields.find((metafield) => metafield.key === "etiquette_label")!.value);
    expect(summary).toEqual({ count: 0, labels: [] });
    expect(await db.label.findUniqueOrThrow({ where: { id: first.label.id } })).toMatchObject({ voidState: "VOID" });
    expect(await boughtInSandbox()).toBe(1);

    // A second void (a double click, a retry) changes nothing anywhere.
    expect(await voidLabel({ db, admin }, { shop: DEMO_SHOP, labelId: first.label.id, orderId: ORDER_GID })).toMatchObject({ kind: "voided", alreadyVoid: true });
    expect((await shopifyOrder()).fulfillments).toHaveLength(1);

    // Labelled again, through the one labelling unit: the released slot does not block it.
    const second = await labelOrder(await context(), { orderId: ORDER_GID });
    expect(second).toMatchObject({ kind: "labelled", alreadyLabelled: false, fulfillment: { status: "created", adopted: false } });
    if (second.kind !== "labelled") throw new Error("not labelled again");
    expect(second.label.trackingNumber).not.toBe(first.label.trackingNumber);
    expect(await boughtInSandbox()).toBe(2);

    const after = await shopifyOrder();
    expect(after.order.displayFulfillmentStatus).toBe("FULFILLED");
    const live = after.fulfillments.filter((fulfillment) => fulfillment.status !== "CANCELLED");
    expect(live.map((fulfillment) => fulfillment.trackingInfo.map((tracking) => tracking.number))).toEqual([[second.label.trackingNumber]]);
    const fresh = after.notifications.slice(before.notifications.length);
    expect(fresh).toEqual([expect.objectContaining({ kind: "fulfillment_created", fulfillmentId: live[0]!.id, trackingNumbers: [second.label.trackingNumber] })]);
    const rewritten = JSON.parse(after.metafields.find((metafield) => metafield.key === "etiquette_label")!.value);
    expect(rewritten).toMatchObject({ count: 1, labels: [{ trackingNumber: second.label.trackingNumber }] });

    // The same labelling call again (a resubmitted form) finds the new label: nothing bought, nobody told again.
    expect(await labelOrder(await context(), { orderId: ORDER_GID })).toMatchObject({ kind: "labelled", alreadyLabelled: true });
    expect(await boughtInSandbox()).toBe(2);
    expect((await shopifyOrder()).notifications).toHaveLength(2);
  });

  it("the page's action refuses another shop's label with 404 and changes nothing", async () => {
    const first = await labelOrder(await context(), { orderId: ORDER_GID });
    if (first.kind !== "labelled") throw new Error("not labelled");
    const form = new FormData();
    form.set("intent", "voidLabel");
    form.set("labelId", first.label.id);
    const thrown = await handleOrderLabelAction({ db, admin, shop: "other-shop.myshopify.com", orderId: "7100001035" }, form).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(404);
    expect((await shopifyOrder()).fulfillments.map((fulfillment) => fulfillment.status)).toEqual(["SUCCESS"]);
    expect((await db.label.findUniqueOrThrow({ where: { id: first.label.id } })).voidState).toBeNull();

    // The owner's page voids it, in French as in English the notice names the label id and reference.
    const done = await handleOrderLabelAction({ db, admin, shop: DEMO_SHOP, orderId: "7100001035", locale: "fr" }, form);
    expect(done).toMatchObject({
      tone: "success",
      notice: { key: "void.done", values: { labelId: first.label.serviceLabelId, reference: first.label.customReference } },
    });
  });
});
