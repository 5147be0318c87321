/**
 * The orders list against the Shopify emulator's seeded shop (the app's real Admin client) and a test database: the
 * list and the order page derive the same label view; search, tabs and the destination filter.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_SHOP, DEMO_TOKEN, startTestEmulator, type TestEmulator } from "../../emulators/shopify-admin/test-helpers";
import { DEMO_SHIPPING_SETTINGS } from "../demo/seed-demo-shop.server";
import { saveShippingSettings } from "../settings/shipping-settings.server";
import { createTestDatabase } from "../../test/helpers/test-db";
import { realAdminFor } from "../../test/helpers/real-admin";
import { isEditableProblem, loadOrderLabel } from "./order-label.server";
import { translator } from "../i18n/translate.server";
import { listMatchingOrderIds, listParamsSchema, loadOrdersList, locationProgress } from "./orders-list.server";
import { deriveOrderLabelView, pageLabelFacts } from "./status";

const database = createTestDatabase();
const db = database.prisma;
let emulator: TestEmulator;
let admin: Awaited<ReturnType<typeof realAdminFor>>;

beforeAll(async () => {
  emulator = await startTestEmulator();
  admin = await realAdminFor(emulator.emulator.url, db, DEMO_SHOP, DEMO_TOKEN);
  await saveShippingSettings(db, DEMO_SHOP, DEMO_SHIPPING_SETTINGS);
});
afterAll(async () => {
  await emulator.emulator.close();
  await database.close();
});
beforeEach(async () => {
  await db.purchaseAttempt.deleteMany();
  await db.label.deleteMany();
});

const list = (params: Record<string, string> = {}) => loadOrdersList({ db, admin }, DEMO_SHOP, listParamsSchema.parse(params));
const gid = (number: number) => `gid://shopify/Order/${7100000000 + number}`;

async function pageView(number: number) {
  const view = await loadOrderLabel(db, admin, DEMO_SHOP, String(7100000000 + number));
  if (!view) throw new Error(`order ${number} not found`);
  return deriveOrderLabelView(pageLabelFacts({ ...view, problems: view.problems.map((problem) => ({ ...problem, editable: isEditableProblem(problem) })) }));
}

async function listView(number: number) {
  const { rows } = await list({ q: `#${number}` });
  const row = rows.find((candidate) => candidate.id === gid(number));
  if (!row) throw new Error(`order ${number} not listed: ${rows.map((r) => r.name).join(", ")}`);
  return row.view;
}

async function rejectedAttempt(number: number) {
  await db.purchaseAttempt.create({
    data: {
      shop: DEMO_SHOP,
      orderId: gid(number),
      orderName: `#${number}`,
      environment: "staging",
      customReference: `20261105-${number}`,
      status: "REJECTED",
      requestJson: "{}",
      errorJson: JSON.stringify({ message: "The service refused the postcode.", messageFr: "Le service a refusé le code postal." }),
    },
  });
}

describe("the list and the order page agree", () => {
  it("#1049 (a ticket and a gift card): neither offers a purchase", async () => {
    const [onList, onPage] = await Promise.all([listView(1049), pageView(1049)]);
    expect(onList).toEqual(onPage);
    expect(onList).toMatchObject({ status: "not_shippable", canPurchase: false, emphasised: false });
  });

  it("#1051 after a refused purchase: both say so and offer to buy again", async () => {
    await rejectedAttempt(1051);
    const [onList, onPage] = await Promise.all([listView(1051), pageView(1051)]);
    expect(onList).toEqual(onPage);
    expect(onList).toMatchObject({ status: "rejected", primaryAction: "create", canPurchase: true });
  });

  it("an ordinary order: both offer the first label", async () => {
    const [onList, onPage] = await Promise.all([listView(1035), pageView(1035)]);
    expect(onList).toEqual(onPage);
    expect(onList.purchase).toBe("first");
  });
});

describe("search", () => {
  const names = async (params: Record<string, string>) => (await list(params)).rows.map((row) => row.name);

  it("finds an order by its name, with or without #", async () => {
    expect(await names({ q: "#1051" })).toEqual(["#1051"]);
    expect(await names({ q: "1051" })).toEqual(["#1051"]);
  });

  it("finds orders by customer name, city and country", async () => {
    const byCustomer = await names({ q: "Núñez" });
    expect(byCustomer).toContain("#1051");
    expect((await list({ q: "Madrid" })).rows.every((row) => row.city === "Madrid")).toBe(true);
    expect(await names({ q: "Madrid" })).toEqual(byCustomer);
    const spain = (await list({ q: "Spain" })).rows;
    expect(spain.length).toBeGreaterThan(0);
    expect(spain.every((row) => row.country === "ES")).toBe(true);
  });

  it("finds nothing for words no order has", async () => {
    expect(await names({ q: "Zanzibar" })).toEqual([]);
  });
});

describe("tabs and filters", () => {
  it("keeps labelled orders reachable in the Labelled tab, and out of No label", async () => {
    await db.label.create({
      data: {
        shop: DEMO_SHOP,
        orderId: gid(1040),
        orderName: "#1040",
        environment: "staging",
        customReference: "20261029-001",
        serviceLabelId: "L1",
        trackingNumber: "T1",
        trackingUrl: "",
        labelUrl: "https://labels.test/1.pdf",
        carrierName: "Colissimo",
        carrierServiceName: "EXPERT",
        labelFormat: "PDF_A4_300dpi",
        requestSnapshotJson: "{}",
        fulfillmentStatus: "CREATED",
      },
    });
    const labelled = await list({ tab: "labelled" });
    expect(labelled.rows.map((row) => row.name)).toEqual(["#1040"]);
    expect(labelled.rows[0]?.view.status).toBe("fulfilled");
    const unlabelled = (await list({ tab: "unlabelled", q: "1040" })).rows.map((row) => row.name);
    expect(unlabelled).not.toContain("#1040");
    expect((await list({ q: "1040" })).rows.map((row) => row.name)).toContain("#1040");
  });

  it("the Needs attention tab holds what waits for the merchant, not a refused purchase", async () => {
    await rejectedAttempt(1051);
    await db.purchaseAttempt.create({
      data: { shop: DEMO_SHOP, orderId: gid(1050), orderName: "#1050", environment: "staging", customReference: "20261105-777", status: "NEEDS_REVIEW", requestJson: "{}" },
    });
    expect((await list({ tab: "attention" })).rows.map((row) => row.name)).toEqual(["#1050"]);
  });

  it("filters by destination zone (sender in France)", async () => {
    const zones = async (zone: string) => new Set((await list({ zone })).rows.map((row) => row.zone));
    expect(await zones("domestic")).toEqual(new Set(["domestic"]));
    expect(await zones("eu")).toEqual(new Set(["eu"]));
    expect(await zones("world,eu")).toEqual(new Set(["world", "eu"]));
    const domestic = (await list({ zone: "domestic" })).rows;
    expect(domestic.every((row) => row.country === "FR")).toBe(true);
  });

  it("pages through every order to ship once, forward and back", async () => {
    const first = await list();
    expect(first.rows).toHaveLength(25);
    expect(first.previous).toBeNull();
    const second = await list({ after: first.next ?? "" });
    expect(second.rows[0]?.name).not.toBe(first.rows[0]?.name);
    const back = await list({ before: second.previous ?? "" });
    expect(back.rows.map((row) => row.name)).toEqual(first.rows.map((row) => row.name));
  });
});

describe("a filter Shopify cannot apply", () => {
  it("reads at most 4 pages of 50, then says it stopped and continues from the last order read", async () => {
    const { mockAdmin } = await import("../../test/helpers/mock-admin");
    let served = 0;
    const fake = mockAdmin({
      OrdersToShip: (variables) => {
        served += 1;
        const start = served * 100;
        return {
          data: {
            orders: {
              edges: Array.from({ length: Number(variables.first) }, (_, index) => ({
                cursor: `c${start + index}`,
                node: {
                  id: `gid://shopify/Order/${start + index}`,
                  name: `#${start + index}`,
                  createdAt: "2026-11-05T17:57:08Z",
                  displayFulfillmentStatus: "UNFULFILLED",
                  totalWeight: 100,
                  shippingAddress: { name: "A", city: "Paris", zip: "75012", countryCodeV2: "FR" },
                },
              })),
              pageInfo: { hasNextPage: true, hasPreviousPage: served > 1, startCursor: `c${start}`, endCursor: `c${start + 49}` },
            },
          },
        };
      },
      OrderRowLines: () => ({ data: { nodes: [] } }),
    });
    const result = await loadOrdersList({ db, admin: fake }, DEMO_SHOP, listParamsSchema.parse({ zone: "world" }));
    expect(result.rows).toEqual([]);
    expect(result).toMatchObject({ scanned: 200, partial: true, next: "c449" });
    expect(fake.calls.filter((call) => call.operationName === "OrdersToShip").map((call) => call.variables.first)).toEqual([50, 50, 50, 50]);
  });
});

describe("an order shipping from two locations (decision 0115)", () => {
  const PARIS = "gid://shopify/Location/71000001";
  const LYON = "gid://shopify/Location/71000002";
  let made = 0;

  /** A live first label of `location`, in that location's own slot (as labelOrder stores it). */
  async function locationLabel(number: number, location: string, extra: { voidState?: string } = {}) {
    made += 1;
    const label = await db.label.create({
      data: {
        shop: DEMO_SHOP, orderId: gid(number), orderName: `#${number}`, environment: "staging", customReference: `20261126-${made}`,
        serviceLabelId: `LOC${made}`, trackingNumber: `TLOC${made}`, trackingUrl: "", labelUrl: `https://labels.test/loc${made}.pdf`,
        carrierName: "Colissimo", carrierServiceName: "DOM", labelFormat: "PDF_A4_300dpi", requestSnapshotJson: "{}",
        fulfillmentStatus: "SKIPPED_TEST", ...extra,
      },
    });
    await db.purchaseAttempt.create({
      data: {
        shop: DEMO_SHOP, orderId: gid(number), orderName: `#${number}`, environment: "staging", customReference: `20261126-${made}`, status: "CREATED",
        requestJson: "{}", labelId: label.id, orderSlot: extra.voidState ? null : `${DEMO_SHOP}|${gid(number)}|1|${location}`, locationId: location,
      },
    });
    return label;
  }

  it("labelled at one location: '1 of 2 parcels labelled', kept with the orders to label, its action creates the next label", async () => {
    await locationLabel(1062, LYON);
    const view = await listView(1062);
    expect(view).toMatchObject({ status: "partly_labelled", primaryAction: "create", emphasised: true, purchase: "first", progress: { labelled: 1, total: 2 } });
    expect(translator("en")(`label.status.${view.status}`, view.progress)).toBe("1 of 2 parcels labelled");
    expect(translator("fr")(`label.status.${view.status}`, view.progress)).toBe("1 colis sur 2 étiquetés");
    expect((await list({ tab: "unlabelled", q: "1062" })).rows.map((row) => row.name)).toEqual(["#1062"]);
    expect((await list({ tab: "labelled", q: "1062" })).rows.map((row) => row.name)).toEqual([]);
    // "All N matching" on the tab selects it for a bulk job, which labels the location left.
    expect((await listMatchingOrderIds({ db, admin }, DEMO_SHOP, { q: "1062", tab: "unlabelled", zone: [] }, 10)).ids).toEqual([gid(1062)]);
  });

  it("labelled at both locations: labelled, in the Labelled tab; a void location's label counts for nothing", async () => {
    await locationLabel(1062, LYON);
    const paris = await locationLabel(1062, PARIS);
    expect((await listView(1062)).status).toBe("created");
    expect((await list({ tab: "labelled", q: "1062" })).rows.map((row) => row.name)).toEqual(["#1062"]);

    await db.label.update({ where: { id: paris.id }, data: { voidState: "VOID" } });
    await db.purchaseAttempt.updateMany({ where: { labelId: paris.id }, data: { orderSlot: null } });
    expect(await listView(1062)).toMatchObject({ status: "partly_labelled", progress: { labelled: 1, total: 2 } });
  });

  it("counts locations from the fulfillment orders: cancelled and local-delivery ones never count, one shipped without a label is not waited for", () => {
    const fo = (location: string, over: { status?: string; methodType?: string; fulfillable?: boolean } = {}) => ({
      status: over.status ?? "OPEN",
      deliveryMethod: { methodType: over.methodType ?? "SHIPPING" },
      supportedActions: over.fulfillable === false ? [] : [{ action: "CREATE_FULFILLMENT" }],
      assignedLocation: { name: location, location: { id: location } },
    });
    expect(locationProgress([fo(PARIS), fo(LYON)], [LYON])).toEqual({ labelled: 1, total: 2, toLabel: 1 });
    expect(locationProgress([fo(PARIS, { status: "CLOSED", fulfillable: false }), fo(LYON)], [LYON])).toEqual({ labelled: 1, total: 2, toLabel: 0 });
    expect(locationProgress([fo(PARIS, { status: "CANCELLED" }), fo(LYON)], [LYON])).toBeUndefined();
    expect(locationProgress([fo(PARIS, { methodType: "LOCAL" }), fo(LYON)], [LYON])).toBeUndefined();
    expect(locationProgress([fo(PARIS), fo(PARIS)], [PARIS])).toBeUndefined();
  });

  it("an order shipping from one location keeps its plain label view", async () => {
    await db.label.create({
      data: {
        shop: DEMO_SHOP, orderId: gid(1040), orderName: "#1040", environment: "staging", customReference: "20261126-one", serviceLabelId: "ONE",
        trackingNumber: "TONE", trackingUrl: "", labelUrl: "https://labels.test/one.pdf", carrierName: "Colissimo", carrierServiceName: "DOM",
        labelFormat: "PDF_A4_300dpi", requestSnapshotJson: "{}", fulfillmentStatus: "SKIPPED_TEST",
      },
    });
    expect(await listView(1040)).toMatchObject({ status: "created", primaryAction: "openLabel" });
  });
});
