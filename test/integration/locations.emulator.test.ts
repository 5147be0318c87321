/**
 * Sender per location (decision 0115), end to end against the Shopify emulator and the label sandbox: an order whose
 * fulfillment orders sit at two locations (the demo's Paris workshop and Lyon warehouse) gets two labels and two
 * fulfillments, each with only its own fulfillment order's lines and its location's sender; asking again buys nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SHOP, DEMO_TOKEN, startTestEmulator, type TestEmulator } from "../../emulators/shopify-admin/test-helpers";
import { DEMO_ACCOUNT, startLabelSandbox, type LabelSandbox } from "../../emulators/label-sandbox/server";
import { DEMO_SHIPPING_SETTINGS } from "../../app/demo/seed-demo-shop.server";
import { createLabelServiceClient } from "../../app/label-service";
import { runPreflight } from "../../app/bulk/preflight.server";
import { bulkReasonText } from "../../app/bulk/reasons";
import { bulkJobLabelIds } from "../../app/bulk/ui-pages.server";
import { labelContextFromAdmin } from "../../app/labels/context.server";
import { labelEveryLocation } from "../../app/labels/every-location.server";
import { labelOrder, type LabelContext } from "../../app/labels/label-order.server";
import { orderSlot } from "../../app/labels/purchase.server";
import { listParamsSchema, loadOrdersList } from "../../app/labels/orders-list.server";
import { openRequest } from "../../app/privacy/snapshot-seal.server";
import { saveShippingSettings } from "../../app/settings/shipping-settings.server";
import { shippingSettingsSchema } from "../../app/shipping/settings";
import { fulfilTestLabelsOn } from "../helpers/dev-store";
import { realAdminFor } from "../helpers/real-admin";
import { createTestDatabase } from "../helpers/test-db";

const LYON = "gid://shopify/Location/71000002";
const PARIS = "gid://shopify/Location/71000001";
const LYON_SENDER = {
  firstName: "",
  lastName: "Quai 4",
  company: "Maison Étiquette Lyon",
  address1: "15 rue de la Villette",
  address2: "",
  city: "Lyon",
  zip: "69003",
  countryCode: "FR",
  phone: "+33472000000",
  email: "lyon@example.fr",
};

const database = createTestDatabase();
const db = database.prisma;
let emulator: TestEmulator;
let sandbox: LabelSandbox;
let context: LabelContext;

interface Inspected {
  fulfillmentOrders: { id: string; locationId: string; lineItems: { lineItemId: string }[] }[];
  fulfillments: { trackingInfo: { number: string }[]; lineItems: { lineItemId: string; fulfillmentOrderId: string }[] }[];
  notifications: unknown[];
}

async function inspect(number: number): Promise<Inspected> {
  return (await emulator.inspect(`/__admin/orders/${number}`)).body as Inspected;
}

async function boughtLabels(): Promise<number> {
  return ((await (await fetch(`${sandbox.url}/__admin/labels`)).json()) as { count: number }).count;
}

beforeAll(async () => {
  [emulator, sandbox] = await Promise.all([startTestEmulator({ plan: "plus" }), startLabelSandbox({ port: 0 })]);
  const settings = shippingSettingsSchema.parse({ ...DEMO_SHIPPING_SETTINGS, locationSenders: [{ locationId: LYON, locationName: "Entrepôt Lyon", sender: LYON_SENDER }] });
  await saveShippingSettings(db, DEMO_SHOP, settings);
  await fulfilTestLabelsOn(db, DEMO_SHOP);
  const admin = await realAdminFor(emulator.emulator.url, db, DEMO_SHOP, DEMO_TOKEN);
  const service = createLabelServiceClient({
    shop: DEMO_SHOP,
    environment: "staging",
    account: { baseUrl: sandbox.url, ...DEMO_ACCOUNT },
    tokenCache: undefined,
    options: { generateTimeoutMs: 10_000, defaultTimeoutMs: 10_000 },
  });
  context = await labelContextFromAdmin(DEMO_SHOP, admin, { database: db, service: async () => service });
});
afterAll(async () => {
  await Promise.all([emulator.emulator.close(), sandbox.close()]);
  await database.close();
});

type Sent = { sender: { city: string; zip: string; company_name: string } };

describe("an order shipping from two locations", () => {
  it("counts as two charged labels in a production bulk job's preflight", async () => {
    const production = { ...context, environment: "production" as const };
    const preflight = await runPreflight(production, ["gid://shopify/Order/7100001062"]);
    expect(preflight.ready.map((entry) => entry.orderName)).toEqual(["#1062"]);
    expect(preflight.chargedLabels).toBe(2);
  });

  it("is blocked in a bulk job's preflight when a location other than the first cannot be labelled, naming it (en/fr)", async () => {
    // Lyon's own sender has no street address: Lyon's parcel cannot be labelled, though Paris's (the first) can.
    const noStreet = { ...context.settings, locationSenders: [{ locationId: LYON, locationName: "Entrepôt Lyon", sender: { ...LYON_SENDER, address1: "" } }] };
    const preflight = await runPreflight({ ...context, settings: noStreet }, ["gid://shopify/Order/7100001062"]);
    expect(preflight.ready).toEqual([]);
    expect(preflight.blocked.map((entry) => entry.orderName)).toEqual(["#1062"]);
    const reason = preflight.blocked[0]!.reasons[0]!;
    expect(reason).toEqual({ code: "location_sender_incomplete", params: { location: "Entrepôt Lyon", fields: "address1" } });
    expect(bulkReasonText(reason, "en")).toBe(
      `The sender of parcels shipped from Entrepôt Lyon is incomplete (missing or invalid: street address). Complete it in Settings > Sender by location, or choose "Use the shop's sender" there, then retry.`,
    );
    expect(bulkReasonText(reason, "fr")).toContain("L'expéditeur des colis expédiés depuis Entrepôt Lyon est incomplet (manquant ou non valide : adresse)");
    expect(preflight.groups.map((group) => group.orderNames)).toEqual([["#1062"]]);

    // Lyon's parcel cannot be mapped: its sender's postcode is not one of its country.
    const badZip = { ...context.settings, locationSenders: [{ locationId: LYON, locationName: "Entrepôt Lyon", sender: { ...LYON_SENDER, zip: "99999" } }] };
    const second = await runPreflight({ ...context, settings: badZip }, ["gid://shopify/Order/7100001062"]);
    const zipReason = second.blocked[0]!.reasons[0]!;
    expect(zipReason).toMatchObject({ params: { problem: "sender_zip_invalid", location: "Entrepôt Lyon" } });
    expect(bulkReasonText(zipReason, "en")).toMatch(/^Parcel shipped from Entrepôt Lyon: The sender postcode "99999" is not a valid postcode/);
    expect(bulkReasonText(zipReason, "fr")).toMatch(/^Colis expédié depuis Entrepôt Lyon : /);

    // With Lyon's sender as saved, both locations pass.
    expect((await runPreflight(context, ["gid://shopify/Order/7100001062"])).ready.map((entry) => entry.orderName)).toEqual(["#1062"]);
  });

  it("lets the purchase read its own slot when the slot read first was not the one bought in (a slot taken meanwhile draws no reference)", async () => {
    const references = async () => (await db.referenceCounter.findMany({ where: { shop: DEMO_SHOP } })).reduce((sum, row) => sum + row.value, 0);
    let taken = 0;
    /** The context, except that looking up the destination's services (after the order is read and its location
     * chosen, before the purchase) first makes other attempts hold the slots named, and that nothing is bought. */
    const takingSlots = async (slots: string[]): Promise<LabelContext> => {
      const service = await context.service();
      const taking: LabelContext["service"] = async () => ({
        generateLabel: () => Promise.reject(new Error("this test buys nothing: the slot was taken")),
        lookUpLabelByReference: (reference, params) => service.lookUpLabelByReference(reference, params),
        carrierServices: async (country) => {
          for (const [k, slot] of slots.entries()) {
            const orderId = slot.split("|")[1]!;
            const customReference = `OTHER-${orderId.slice(-4)}-${k}`;
            await db.purchaseAttempt.create({ data: { shop: DEMO_SHOP, orderId, orderName: "#other", environment: "staging", customReference, orderSlot: slot, status: "PENDING", requestJson: "{}" } });
            taken += 1;
          }
          return service.carrierServices!(country);
        },
      });
      return { ...context, service: taking };
    };
    const [single, split] = ["gid://shopify/Order/7100001002", "gid://shopify/Order/7100001062"];
    try {
      // One location: the slot read first is the one bought in, so the purchase skips its own read; the slot's unique
      // index answers instead, after a reference was drawn.
      const before = await references();
      const one = await labelOrder(await takingSlots([orderSlot(DEMO_SHOP, single, 1)]), { orderId: "7100001002" });
      expect(taken).toBe(1);
      expect(one).toMatchObject({ kind: "pending", reason: { code: "purchase_in_progress", params: { reference: "OTHER-1002-0" } } });
      expect(await references()).toBe(before + 1);

      // Two locations, none named: the slot read first is the order's, the one bought in is Paris's. The purchase reads
      // that one itself and finds the other attempt before drawing a reference.
      const both = await labelOrder(await takingSlots([orderSlot(DEMO_SHOP, split, 1, PARIS), orderSlot(DEMO_SHOP, split, 1, LYON)]), { orderId: "7100001062" });
      expect(taken).toBe(3);
      expect(both).toMatchObject({ kind: "pending", reason: { code: "purchase_in_progress", params: { reference: "OTHER-1062-0" } } });
      expect(await references()).toBe(before + 1);
    } finally {
      // Whatever happened, the later tests find both orders as they were.
      await db.purchaseAttempt.deleteMany({ where: { shop: DEMO_SHOP, orderId: { in: [single, split] } } });
      await db.label.deleteMany({ where: { shop: DEMO_SHOP, orderId: { in: [single, split] } } });
    }
  });

  it("gets one label per location (page: one location at a time), each fulfilling only its fulfillment order's lines, with its sender", async () => {
    const before = await inspect(1062);
    const foAt = (location: string) => before.fulfillmentOrders.find((fo) => fo.locationId === location)!;
    expect(before.fulfillmentOrders.map((fo) => fo.locationId)).toEqual([PARIS, LYON]);

    const lyon = await labelOrder(context, { orderId: "7100001062", location: LYON });
    if (lyon.kind !== "labelled") throw new Error(JSON.stringify(lyon).slice(0, 1500));
    expect(lyon.locations?.map((location) => location.locationId)).toEqual([PARIS, LYON]);
    expect(lyon.label.fulfillmentOrderId).toBe(foAt(LYON).id);
    expect((openRequest(lyon.label.requestSnapshotJson) as Sent).sender).toMatchObject({ city: "Lyon", zip: "69003", company_name: "Maison Étiquette Lyon" });

    // The orders list, between the two: partly labelled, still to label, its action creating Paris's label.
    const row = async () => (await loadOrdersList({ db, admin: context.admin }, DEMO_SHOP, listParamsSchema.parse({ q: "1062" }))).rows.find((entry) => entry.name === "#1062");
    expect((await row())?.view).toMatchObject({ status: "partly_labelled", primaryAction: "create", purchase: "first", progress: { labelled: 1, total: 2 } });
    expect((await row())?.fulfillment).toBe("PARTIALLY_FULFILLED");

    const paris = await labelOrder(context, { orderId: "7100001062", location: PARIS });
    if (paris.kind !== "labelled") throw new Error(JSON.stringify(paris).slice(0, 1500));
    expect(paris.label.fulfillmentOrderId).toBe(foAt(PARIS).id);
    // Paris has no sender of its own: the shop's.
    expect((openRequest(paris.label.requestSnapshotJson) as Sent).sender).toMatchObject({ city: DEMO_SHIPPING_SETTINGS.sender.city, zip: DEMO_SHIPPING_SETTINGS.sender.zip });
    expect(paris.label.trackingNumber).not.toBe(lyon.label.trackingNumber);

    const after = await inspect(1062);
    expect(after.fulfillments).toHaveLength(2);
    for (const [outcome, location] of [[lyon, LYON], [paris, PARIS]] as const) {
      const fulfillment = after.fulfillments.find((entry) => entry.trackingInfo.some((tracking) => tracking.number === outcome.label.trackingNumber))!;
      expect(new Set(fulfillment.lineItems.map((line) => line.fulfillmentOrderId))).toEqual(new Set([foAt(location).id]));
      expect(fulfillment.lineItems.map((line) => line.lineItemId).sort()).toEqual(foAt(location).lineItems.map((line) => line.lineItemId).sort());
    }
    expect(after.notifications).toHaveLength(2);
    // Both labelled and shipped: labelled, in the Labelled tab (no longer one to ship).
    const labelledTab = await loadOrdersList({ db, admin: context.admin }, DEMO_SHOP, listParamsSchema.parse({ q: "1062", tab: "labelled" }));
    expect(labelledTab.rows.map((entry) => [entry.name, entry.view.status])).toEqual([["#1062", "fulfilled"]]);

    // Asked again, per location or for the whole order: each location's label is reported, nothing is bought.
    // A bulk job's preflight sees it as already labelled (nothing left to ship from either location).
    const preflight = await runPreflight(context, ["gid://shopify/Order/7100001062"]);
    expect(preflight.alreadyLabelled.map((entry) => entry.orderName)).toEqual(["#1062"]);

    const bought = await boughtLabels();
    for (const input of [{ location: LYON }, { location: PARIS }, {}]) {
      const again = await labelOrder(context, { orderId: "7100001062", ...input });
      expect(again.kind === "labelled" && again.alreadyLabelled, JSON.stringify(input)).toBe(true);
    }
    expect(await boughtLabels()).toBe(bought);
    expect((await inspect(1062)).fulfillments).toHaveLength(2);
  });

  it("is labelled whole by a bulk job's item: every location, once, even when the item runs twice", async () => {
    const before = await inspect(1044);
    const run = async () => {
      const first = await labelOrder(context, { orderId: "7100001044" });
      return first.locations ? labelEveryLocation(context, "7100001044", first) : { outcome: first, labels: [] };
    };
    const { outcome, labels } = await run();
    expect(outcome.kind).toBe("labelled");
    expect(labels).toHaveLength(2);
    const after = await inspect(1044);
    expect(after.fulfillments).toHaveLength(2);
    const lyonFo = before.fulfillmentOrders.find((fo) => fo.locationId === LYON)!;
    const lyonFulfillment = after.fulfillments.find((entry) => entry.lineItems.some((line) => line.fulfillmentOrderId === lyonFo.id))!;
    expect(lyonFulfillment.lineItems.every((line) => line.fulfillmentOrderId === lyonFo.id)).toBe(true);
    const lyonLabel = await db.label.findFirstOrThrow({ where: { fulfillmentOrderId: lyonFo.id } });
    expect((openRequest(lyonLabel.requestSnapshotJson) as Sent).sender.city).toBe("Lyon");
    // Each parcel's attempt names its location in its own column.
    const attempts = await db.purchaseAttempt.findMany({ where: { labelId: { in: labels } }, select: { labelId: true, locationId: true } });
    expect(attempts.map((attempt) => attempt.locationId).sort()).toEqual([PARIS, LYON].sort());
    expect(attempts.find((attempt) => attempt.labelId === lyonLabel.id)?.locationId).toBe(LYON);

    // The job's print holds both parcels, though the item names only the first label.
    const job = await db.bulkJob.create({ data: { shop: DEMO_SHOP, environment: "staging", settingsJson: "{}" } });
    const first = outcome.kind === "labelled" ? outcome.label.id : "";
    await db.bulkJobItem.create({ data: { jobId: job.id, shop: DEMO_SHOP, orderId: "gid://shopify/Order/7100001044", orderName: "#1044", position: 0, status: "LABELLED", labelId: first } });
    expect(await bulkJobLabelIds(db, DEMO_SHOP, job.id)).toEqual([first, ...labels.filter((id) => id !== first)]);

    const bought = await boughtLabels();
    const rerun = await run();
    expect(rerun.outcome.kind === "labelled" && rerun.outcome.alreadyLabelled).toBe(true);
    expect(await boughtLabels()).toBe(bought);
    expect((await inspect(1044)).fulfillments).toHaveLength(2);
  });
});
