/**
 * labelOrder, the one labelling unit: each typed outcome, with the app's real Admin client against the Shopify
 * emulator, the real label-service client against the label sandbox (or a double scripting its answers), on SQLite.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { fulfilTestLabelsOn } from "../../test/helpers/dev-store";
import { DEMO_SHOP, DEMO_TOKEN, startTestEmulator, type TestEmulator } from "../../emulators/shopify-admin/test-helpers";
import { DEMO_ACCOUNT, startLabelSandbox, type LabelSandbox } from "../../emulators/label-sandbox/server";
import { DEMO_SHIPPING_SETTINGS } from "../demo/seed-demo-shop.server";
import { createLabelServiceClient, type LabelServiceClient } from "../label-service";
import { labelRequestSchema } from "../label-service/contract";
import { getEnvironment } from "../settings/environment.server";
import { saveShippingSettings } from "../settings/shipping-settings.server";
import type { AdminGraphqlClient } from "../shopify/admin-client";
import { createTestDatabase } from "../../test/helpers/test-db";
import { realAdminFor } from "../../test/helpers/real-admin";
import { fetchOrderForLabel } from "../shopify/operations/order-for-label";
import { labelContextFromAdmin } from "./context.server";
import { saveCustomsDescription } from "./customs-descriptions.server";
import { LabelServiceUnavailableError } from "./gateway.server";
import { labelOrder, type LabelContext } from "./label-order.server";
import type { GenerateOutcome } from "./purchase.server";
import { reasonText } from "./reasons";

const database = createTestDatabase();
const db = database.prisma;
let emulator: TestEmulator;
let sandbox: LabelSandbox;
let admin: AdminGraphqlClient;
let client: LabelServiceClient;

const SWISS_ORDER = "7100001035";
const SWISS_GID = `gid://shopify/Order/${SWISS_ORDER}`;

beforeAll(async () => {
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
  client = createLabelServiceClient({
    shop: DEMO_SHOP,
    environment: "staging",
    account: { baseUrl: sandbox.url, ...DEMO_ACCOUNT },
    tokenCache: undefined,
    options: { generateTimeoutMs: 5_000, defaultTimeoutMs: 5_000 },
  });
  client.invalidateToken();
});

async function boughtInSandbox() {
  return ((await (await fetch(`${sandbox.url}/__admin/labels`)).json()) as { count: number }).count;
}
async function shopifyFulfillments() {
  return ((await emulator.inspect(`/__admin/orders/1035`)).body as { fulfillments: unknown[] }).fulfillments.length;
}

/** The page's context, with the service given (the sandbox client, or a double). */
function context(overrides: Partial<Pick<LabelContext, "service" | "admin" | "environment">> = {}) {
  return labelContextFromAdmin(DEMO_SHOP, overrides.admin ?? admin, {
    database: db,
    service: overrides.service ?? (async () => client),
    ...(overrides.environment ? { environment: overrides.environment } : {}),
  });
}

/** The sandbox client whose generate_label answers are scripted (then real). */
function scripted(...answers: GenerateOutcome[]): LabelContext["service"] {
  return async () => ({
    generateLabel: (request) => (answers.length ? Promise.resolve(answers.shift()!) : client.generateLabel(request)),
    lookUpLabelByReference: (reference, params) => client.lookUpLabelByReference(reference, params),
    carrierServices: (country) => client.carrierServices(country),
  });
}

/**
 * The real Admin client, except that Shopify answers THROTTLED to the operations named, and the caller may not wait:
 * the Admin layer gives up with ShopifyBusyError, as it does once the budget stays short past its wait bound.
 */
function busyFor(operation: string): AdminGraphqlClient {
  const throttled = {
    errors: [{ message: "Throttled", extensions: { code: "THROTTLED" } }],
    extensions: { cost: { requestedQueryCost: 300, throttleStatus: { maximumAvailable: 1000, currentlyAvailable: 90, restoreRate: 50 } } },
  };
  return {
    pacing: { maxWaitMs: 0 },
    graphql(query, options) {
      if (new RegExp(`(query|mutation) ${operation}\\b`).test(query)) return Promise.resolve(Response.json(throttled));
      return admin.graphql(query, options);
    },
  };
}

describe("labelOrder", () => {
  it("labelled: buys once, fulfils, and carries the Shopify step's own state; a second call reports the stored label", async () => {
    const outcome = await labelOrder(await context(), { orderId: SWISS_ORDER });
    expect(outcome).toMatchObject({ kind: "labelled", alreadyLabelled: false, fulfillment: { status: "created", adopted: false } });
    const again = await labelOrder(await context(), { orderId: SWISS_ORDER });
    expect(again).toMatchObject({ kind: "labelled", alreadyLabelled: true, fulfillment: { status: "created" } });
    expect(await boughtInSandbox()).toBe(1);
    expect(await shopifyFulfillments()).toBe(1);
  });

  it("the environment comes from the context, never re-read: a frozen production context buys in production", async () => {
    expect((await getEnvironment(db, DEMO_SHOP)).environment).toBe("staging");
    const outcome = await labelOrder(await context({ environment: "production" }), { orderId: SWISS_ORDER });
    if (outcome.kind !== "labelled") throw new Error(JSON.stringify(outcome));
    expect(outcome.label.environment).toBe("production");
    expect((await db.purchaseAttempt.findFirstOrThrow()).environment).toBe("production");
  });

  it("uses the product's saved English customs description for its CN23 line, read when the order is labelled", async () => {
    const order = (await fetchOrderForLabel(admin, SWISS_GID))!;
    const productId = order.lineItems.nodes[0]!.product!.id;
    expect(await saveCustomsDescription(db, DEMO_SHOP, { productId, productTitle: order.lineItems.nodes[0]!.title, description: "Black tea, Darjeeling first flush" })).toMatchObject({ ok: true });
    const sent: { cn23_data?: { products: { description: string }[] }; description?: string }[] = [];
    const service: LabelContext["service"] = async () => ({
      generateLabel: (request) => {
        sent.push(request);
        return client.generateLabel(request);
      },
      lookUpLabelByReference: (reference, params) => client.lookUpLabelByReference(reference, params),
      carrierServices: (country) => client.carrierServices(country),
    });
    try {
      expect((await labelOrder(await context({ service }), { orderId: SWISS_ORDER })).kind).toBe("labelled");
      expect(sent).toHaveLength(1);
      expect(sent[0]!.cn23_data!.products[0]!.description).toBe("Black tea, Darjeeling first flush");
      // The parcel's contents summary (cut at the settings' length) is in English too.
      expect(sent[0]!.description).toMatch(/^10x Black tea/);
    } finally {
      await db.customsDescription.deleteMany();
    }
  });

  it("checks an unedited request against the contract once (the mapper's check), an edited one again", async () => {
    const sent: { description?: string }[] = [];
    // A double that answers like the service without its client's own check, so only labelOrder's checks count.
    const recording: LabelContext["service"] = async () => ({
      generateLabel: (request) => {
        sent.push(request);
        return Promise.resolve({ status: "created", label: { id: `label-${sent.length}`, reference: `JJD0000000${sent.length}`, labelUrl: "https://labels.test/1.pdf", trackingUrl: null } } as unknown as GenerateOutcome);
      },
      lookUpLabelByReference: (reference, params) => client.lookUpLabelByReference(reference, params),
      carrierServices: (country) => client.carrierServices(country),
    });
    const checks = vi.spyOn(labelRequestSchema, "safeParse");
    try {
      expect((await labelOrder(await context({ service: recording }), { orderId: SWISS_ORDER })).kind).toBe("labelled");
      expect(checks).toHaveBeenCalledTimes(1);
      checks.mockClear();
      // Another first label of the same order: the rows and Shopify's fulfillment of the first are gone.
      await db.purchaseAttempt.deleteMany();
      await db.label.deleteMany();
      await emulator.inspect("/__admin/reset", "POST");
      const edited = await labelOrder(await context({ service: recording }), { orderId: SWISS_ORDER, edits: { description: "Loose-leaf tea" } });
      expect(edited.kind).toBe("labelled");
      expect(checks).toHaveBeenCalledTimes(2);
      expect(sent.map((request) => request.description)).toEqual([expect.stringMatching(/^10x /), "Loose-leaf tea"]);
    } finally {
      checks.mockRestore();
    }
  });

  it("blocked: the mapper's problems, nothing sent", async () => {
    const outcome = await labelOrder(await context(), { orderId: "7100001015" });
    expect(outcome.kind).toBe("blocked");
    if (outcome.kind === "blocked") expect(outcome.problems.map((problem) => problem.code)).toContain("hs_code_missing");
    expect(await db.purchaseAttempt.count()).toBe(0);
  });

  it("refused, retryable: a 429 from generate_label charges nothing and frees the slot", async () => {
    const limited: GenerateOutcome = { status: "rejected", error: { message: "Too many requests", messageFr: "Trop de requêtes", httpStatus: 429, kind: "rate_limited" } };
    const outcome = await labelOrder(await context({ service: scripted(limited) }), { orderId: SWISS_ORDER });
    expect(outcome).toMatchObject({ kind: "refused", retryable: true, reason: { code: "service_rate_limited" } });
    expect(await boughtInSandbox()).toBe(0);
    // Trying again later, unchanged, buys the label.
    expect(await labelOrder(await context(), { orderId: SWISS_ORDER })).toMatchObject({ kind: "labelled", alreadyLabelled: false });
  });

  it("refused, not retryable: the service refuses the label (a field it does not accept)", async () => {
    await fetch(`${sandbox.url}/__admin/faults`, { method: "POST", body: JSON.stringify({ refuseLabel: { next: 1 } }) });
    const outcome = await labelOrder(await context(), { orderId: SWISS_ORDER });
    expect(outcome).toMatchObject({ kind: "refused", retryable: false, reason: { code: "service_refused" } });
    expect(await boughtInSandbox()).toBe(0);
  });

  it("refused, not retryable: no label-service account for the context's environment", async () => {
    const missing = async () => {
      throw new LabelServiceUnavailableError("account_missing", "none");
    };
    const outcome = await labelOrder(await context({ service: missing }), { orderId: SWISS_ORDER });
    expect(outcome).toMatchObject({ kind: "refused", retryable: false, reason: { code: "service_unavailable", params: { environment: "staging" } } });
  });

  it("Shopify busy before the purchase: refused, retryable, nothing attempted", async () => {
    const outcome = await labelOrder(await context({ admin: busyFor("OrderForLabel") }), { orderId: SWISS_ORDER });
    expect(outcome).toMatchObject({ kind: "refused", retryable: true, reason: { code: "shopify_busy", params: { seconds: "5" } } });
    expect(await db.purchaseAttempt.count()).toBe(0);
    expect(await boughtInSandbox()).toBe(0);
  });

  it("Shopify busy after the label is stored: labelled, its Shopify step in progress (PENDING for the background pass)", async () => {
    const outcome = await labelOrder(await context({ admin: busyFor("FulfillmentContext") }), { orderId: SWISS_ORDER });
    expect(outcome).toMatchObject({ kind: "labelled", alreadyLabelled: false, fulfillment: { status: "in_progress", reason: { code: "shopify_busy_fulfillment" } } });
    if (outcome.kind !== "labelled") throw new Error("expected a label");
    expect((await db.label.findUniqueOrThrow({ where: { id: outcome.label.id } })).fulfillmentStatus).toBe("PENDING");
    expect(await shopifyFulfillments()).toBe(0);
    expect(await boughtInSandbox()).toBe(1);
    if (outcome.fulfillment?.status === "in_progress" && outcome.fulfillment.reason) expect(reasonText(outcome.fulfillment.reason, "fr")).toMatch(/arrière-plan/);
  });

  it("labelled with a failed Shopify step: the failure is the fulfillment's state, with its reason", async () => {
    const onHold: AdminGraphqlClient = {
      async graphql(query, options) {
        if (query.includes("mutation FulfillmentCreate")) {
          return Response.json({ data: { fulfillmentCreate: { fulfillment: null, userErrors: [{ field: ["fulfillment"], message: "Fulfillment order is on hold" }] } } });
        }
        return admin.graphql(query, options);
      },
    };
    const outcome = await labelOrder(await context({ admin: onHold }), { orderId: SWISS_ORDER });
    expect(outcome).toMatchObject({ kind: "labelled", fulfillment: { status: "failed" } });
    if (outcome.kind !== "labelled" || outcome.fulfillment?.status !== "failed") throw new Error(JSON.stringify(outcome));
    expect(reasonText(outcome.fulfillment.reason, "en")).toMatch(/on hold/);
    // The stored label reports the same state to a later call.
    expect(await labelOrder(await context(), { orderId: SWISS_ORDER })).toMatchObject({ kind: "labelled", alreadyLabelled: true, fulfillment: { status: "failed" } });
  });

  it("pending: the answer was lost and the label is not (yet) in the service's list; a second call does not buy", async () => {
    const lost: GenerateOutcome = { status: "unknown", error: { message: "socket hang up", kind: "unknown_outcome" } };
    const outcome = await labelOrder(await context({ service: scripted(lost) }), { orderId: SWISS_ORDER });
    expect(outcome).toMatchObject({ kind: "pending", reason: { code: "purchase_unknown" } });
    expect(await labelOrder(await context(), { orderId: SWISS_ORDER })).toMatchObject({ kind: "pending", reason: { code: "purchase_in_progress" } });
    expect(await boughtInSandbox()).toBe(0);
    expect(await db.purchaseAttempt.count()).toBe(1);
    expect((await db.purchaseAttempt.findFirstOrThrow()).orderId).toBe(SWISS_GID);
  });
});
