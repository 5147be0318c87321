/**
 * Special territories (issue 11 item 1): the service proposed for an order must be one the label service sells to
 * the destination country. The app's real clients against the Shopify emulator's seeded shop and the label sandbox.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_SHOP, DEMO_TOKEN, startTestEmulator, type TestEmulator } from "../../emulators/shopify-admin/test-helpers";
import { DEMO_ACCOUNT, startLabelSandbox, type LabelSandbox } from "../../emulators/label-sandbox/server";
import { DEMO_SHIPPING_SETTINGS } from "../../app/demo/seed-demo-shop.server";
import { createLabelServiceClient, type LabelServiceClient } from "../../app/label-service";
import { labelContextFromAdmin } from "../../app/labels/context.server";
import { labelOrder, type LabelOrderInput } from "../../app/labels/label-order.server";
import { isEditableProblem, loadOrderLabel, overridesFromForm } from "../../app/labels/order-label.server";
import { saveShippingSettings } from "../../app/settings/shipping-settings.server";
import { createTestDatabase } from "../helpers/test-db";
import { realAdminFor } from "../helpers/real-admin";

const database = createTestDatabase();
const db = database.prisma;
let emulator: TestEmulator;
let sandbox: LabelSandbox;
let admin: Awaited<ReturnType<typeof realAdminFor>>;
let service: LabelServiceClient;

/** Seeded orders: Canary Islands (ES 35002) and Réunion recorded as FR (97400). */
const CANARY = "7100001029";
const REUNION_AS_FR = "7100001027";

beforeAll(async () => {
  [emulator, sandbox] = await Promise.all([startTestEmulator(), startLabelSandbox({ port: 0 })]);
  admin = await realAdminFor(emulator.emulator.url, db, DEMO_SHOP, DEMO_TOKEN);
  await saveShippingSettings(db, DEMO_SHOP, DEMO_SHIPPING_SETTINGS);
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

const bought = async () => ((await (await fetch(`${sandbox.url}/__admin/labels`)).json()) as { count: number }).count;

/** The one labelling unit, with this request's context. */
async function label(input: LabelOrderInput) {
  return labelOrder(await labelContextFromAdmin(DEMO_SHOP, admin, { database: db, service: async () => service }), input);
}

describe("a service the label service does not sell to the destination", () => {
  it.each([
    ["Canary Islands", CANARY, "ES"],
    ["Réunion recorded as FR", REUNION_AS_FR, "FR"],
  ])("%s: the order page names the problem and offers only the country's services", async (_place, orderId, country) => {
    const view = await loadOrderLabel(db, admin, DEMO_SHOP, orderId, { lookupServices: (code) => service.carrierServices(code) });
    const problem = view?.problems.find((candidate) => candidate.code === "service_not_offered");
    expect(problem).toMatchObject({ severity: "blocking", params: { carrier: "Dhl", service: "P", country } });
    expect(isEditableProblem(problem!)).toBe(true);
    const offered = (await service.carrierServices(country)).map((entry) => entry.name);
    expect(view?.offeredServices?.map((entry) => entry.name)).toEqual(offered);
    expect(offered).not.toContain("P");
  });

  it("Create label with the default refuses before any call to the service: nothing bought, nothing attempted", async () => {
    const outcome = await label({ orderId: CANARY });
    expect(outcome.kind).toBe("blocked");
    if (outcome.kind === "blocked") expect(outcome.problems.map((problem) => problem.code)).toContain("service_not_offered");
    expect(await bought()).toBe(0);
    expect(await db.purchaseAttempt.count()).toBe(0);
  });

  it("choosing a service sold to the country buys the label", async () => {
    const overrides = overridesFromForm({ carrier_name: "Colissimo", carrier_service_name: "DOM" });
    const outcome = await label({ orderId: REUNION_AS_FR, edits: overrides });
    if (outcome.kind !== "labelled" || outcome.alreadyLabelled) throw new Error(JSON.stringify(outcome));
    expect(await bought()).toBe(1);
  });
});
