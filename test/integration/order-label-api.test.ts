/**
 * The order action's backend (app/extensions/order-label-api.server.ts) end to end: the app's real Admin client
 * against the Shopify emulator, the real label-service client against the label sandbox, labelOrder on SQLite.
 * What the extension shows (summary, problems in the caller's language) and what Create label answers.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fulfilTestLabelsOn } from "../helpers/dev-store";
import { DEMO_SHOP, DEMO_TOKEN, startTestEmulator, type TestEmulator } from "../../emulators/shopify-admin/test-helpers";
import { DEMO_ACCOUNT, startLabelSandbox, type LabelSandbox } from "../../emulators/label-sandbox/server";
import { DEMO_SHIPPING_SETTINGS } from "../../app/demo/seed-demo-shop.server";
import { createLabelServiceClient, type LabelServiceClient } from "../../app/label-service";
import { createOrderLabel, loadOrderLabelSummary } from "../../app/extensions/order-label-api.server";
import { voidLabel } from "../../app/labels/void.server";
import type * as Context from "../../app/labels/context.server";
import { appTestEnv } from "../helpers/app-env";
import { saveShippingSettings } from "../../app/settings/shipping-settings.server";
import { createTestDatabase } from "../helpers/test-db";
import { realAdminFor } from "../helpers/real-admin";

const database = createTestDatabase();
const db = database.prisma;
let emulator: TestEmulator;
let sandbox: LabelSandbox;
let admin: Awaited<ReturnType<typeof realAdminFor>>;
let service: LabelServiceClient;
let labelContextFromAdmin: typeof Context.labelContextFromAdmin;

const SWISS_ORDER = "7100001035";
const CANARY = "7100001029";

beforeAll(async () => {
  // labelContextFromAdmin's module reads the app's configuration when imported.
  Object.assign(process.env, appTestEnv(database.url));
  ({ labelContextFromAdmin } = await import("../../app/labels/context.server"));
  [emulator, sandbox] = await Promise.all([startTestEmulator(), startLabelSandbox({ port: 0 })]);
  admin = await realAdminFor(emulator.emulator.url, db, DEMO_SHOP, DEMO_TOKEN);
  await saveShippingSettings(db, DEMO_SHOP, DEMO_SHIPPING_SETTINGS);
  // The Shopify step is under test: test labels reach the (development) store (decision 0170).
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
});

const lookup = { lookupServices: (country: string) => service.carrierServices(country) };
const context = () => labelContextFromAdmin(DEMO_SHOP, admin, { database: db, environment: "staging", service: async () => service });
const bought = async () => ((await (await fetch(`${sandbox.url}/__admin/labels`)).json()) as { count: number }).count;

describe("the order action's summary", () => {
  it("a Swiss order: ready, with recipient, parcel, service and the CN23 need, country named in French", async () => {
    const summary = await loadOrderLabelSummary(db, admin, DEMO_SHOP, SWISS_ORDER, "fr", lookup);
    expect(summary).toMatchObject({ orderName: "#1035", state: "ready", environment: "staging", problems: [], labels: [] });
    expect(summary?.draft?.recipient.country).toBe("Suisse");
    expect(summary?.draft?.recipient.lines.length).toBeGreaterThan(0);
    expect(summary?.draft?.parcel.weightGrams).toBeGreaterThan(0);
    expect(summary?.draft?.service).toBeTruthy();
    expect(summary?.draft?.customsRequired).toBe(true);
  });

  it("a Canary Islands order: blocked, the problem and its fix in the caller's language", async () => {
    const en = await loadOrderLabelSummary(db, admin, DEMO_SHOP, CANARY, "en", lookup);
    const fr = await loadOrderLabelSummary(db, admin, DEMO_SHOP, CANARY, "fr", lookup);
    expect(en?.state).toBe("blocked");
    expect(en?.problems.length).toBeGreaterThan(0);
    expect(en?.problems[0]?.fix).toBeTruthy();
    expect(fr?.problems[0]?.message).not.toBe(en?.problems[0]?.message);
  });

  it("an order of no shop: null (the route answers 404)", async () => {
    expect(await loadOrderLabelSummary(db, admin, DEMO_SHOP, "999999999", "en", lookup)).toBeNull();
  });
});

describe("Create label from the order action", () => {
  it("buys one label through labelOrder, then answers the same label without buying again; the order is then labelled", async () => {
    const first = await createOrderLabel(await context(), SWISS_ORDER, "en");
    if (first.outcome !== "labelled") throw new Error(JSON.stringify(first));
    expect(first.alreadyLabelled).toBe(false);
    expect(first.label.trackingNumber).toBeTruthy();
    const again = await createOrderLabel(await context(), SWISS_ORDER, "en");
    expect(again).toMatchObject({ outcome: "labelled", alreadyLabelled: true, label: { id: first.label.id } });
    expect(await bought()).toBe(1);
    const summary = await loadOrderLabelSummary(db, admin, DEMO_SHOP, SWISS_ORDER, "en", lookup);
    expect(summary).toMatchObject({ state: "labelled", labels: [{ id: first.label.id, trackingNumber: first.label.trackingNumber }] });
  });

  it("a void label is not the order's label any more: the action offers Create label again (decision 0112)", async () => {
    const first = await createOrderLabel(await context(), SWISS_ORDER, "en");
    if (first.outcome !== "labelled") throw new Error(JSON.stringify(first));
    expect(await voidLabel({ db, admin }, { shop: DEMO_SHOP, labelId: first.label.id })).toMatchObject({ kind: "voided", shopify: "cancelled" });
    const summary = await loadOrderLabelSummary(db, admin, DEMO_SHOP, SWISS_ORDER, "en", lookup);
    expect(summary).toMatchObject({ state: "ready", labels: [] });
    const again = await createOrderLabel(await context(), SWISS_ORDER, "en");
    expect(again).toMatchObject({ outcome: "labelled", alreadyLabelled: false });
    expect(await bought()).toBe(2);
  });

  it("a blocked order answers its problems and buys nothing", async () => {
    const answer = await createOrderLabel(await context(), CANARY, "fr");
    expect(answer.outcome).toBe("blocked");
    if (answer.outcome === "blocked") expect(answer.problems[0]?.fix).toBeTruthy();
    expect(await bought()).toBe(0);
  });
});
