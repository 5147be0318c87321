import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mockAdmin } from "../../test/helpers/mock-admin";
import { developmentStorePlan, fulfilTestLabelsOn } from "../../test/helpers/dev-store";
import { createTestDatabase } from "../../test/helpers/test-db";
import { exampleLabelRequest } from "../label-service/__fixtures__/example-request";
import type { LabelRequest } from "../label-service/contract";
import { purchaseLabel, type LabelServicePort, type RemoteLabel } from "./purchase.server";
import { FULFILLMENT_CLAIM_TIMEOUT_MS } from "./fulfill.server";
import { runDueReconciliations } from "./reconcile.server";

const database = createTestDatabase();
const db = database.prisma;
afterAll(() => database.close());
// The staging labels below are on development stores that fulfil test labels (the default skips; decision 0170).
beforeAll(() => fulfilTestLabelsOn(db, "a.myshopify.com", "d.myshopify.com", "e.myshopify.com", "f.myshopify.com", "g.myshopify.com"));

const request = (reference: string): LabelRequest => exampleLabelRequest({ custom_reference: reference });

describe("background reconciliation", () => {
  it("adopts a label bought behind a lost response and pushes it to Shopify, once", async () => {
    const listed = new Map<string, RemoteLabel>();
    const service: LabelServicePort = {
      async generateLabel(req) {
        listed.set(req.custom_reference, { id: "L1", reference: "1234567890", label_url: "https://s/l.pdf", tracking_url: "https://s/t", custom_reference: req.custom_reference });
        return { status: "unknown", error: { message: "socket hang up" } };
      },
      async lookUpLabelByReference(reference) {
        const label = listed.get(reference);
        return label ? { status: "found", label } : { status: "absent" };
      },
    };
    const first = await purchaseLabel({ db, service }, { shop: "a.myshopify.com", environment: "staging", orderId: "gid://shopify/Order/1", orderName: "#1", buildRequest: request });
    expect(first.status).toBe("unknown");
    const creates: unknown[] = [];
    const admin = mockAdmin({
      ...developmentStorePlan,
      FulfillmentContext: () => ({
        data: { order: { id: "gid://shopify/Order/1", name: "#1", fulfillments: [], fulfillmentOrders: { nodes: [{ id: "gid://shopify/FulfillmentOrder/1", status: "OPEN", supportedActions: [{ action: "CREATE_FULFILLMENT" }], lineItems: { nodes: [{ id: "x", remainingQuantity: 1 }], pageInfo: { hasNextPage: false } } }], pageInfo: { hasNextPage: false } } } },
      }),
      FulfillmentCreate: (variables) => {
        creates.push(variables);
        return { data: { fulfillmentCreate: { fulfillment: { id: "gid://shopify/Fulfillment/1", status: "SUCCESS" }, userErrors: [] } } };
      },
      OrderLabelMetafieldSet: () => ({ data: { metafieldsSet: { metafields: [], userErrors: [] } } }),
    });
    const deps = { db, serviceFor: async () => service, adminFor: async () => admin, notifyCustomerFor: async () => true };
    const outcomes = await runDueReconciliations(deps);
    expect(Object.values(outcomes)).toEqual(["created, fulfillment created"]);
    expect(await runDueReconciliations(deps)).toEqual({});
    expect(creates).toHaveLength(1);
    expect(await db.label.count()).toBe(1);
  });

  it("an attempt whose shop has no usable client still backs off to needs review, never loops every pass", async () => {
    const service: LabelServicePort = {
      generateLabel: async () => ({ status: "unknown", error: { message: "timeout" } }),
      lookUpLabelByReference: async () => ({ status: "absent" }),
    };
    const first = await purchaseLabel({ db, service }, { shop: "c.myshopify.com", environment: "production", orderId: "gid://shopify/Order/3", orderName: "#3", buildRequest: request });
    if (first.status !== "unknown") throw new Error("expected unknown");
    const deps = {
      db,
      serviceFor: async () => {
        throw new Error("no production label-service account saved");
      },
      adminFor: async () => mockAdmin({}),
      notifyCustomerFor: async () => true,
    };
    expect(await runDueReconciliations(deps)).toEqual({ [first.attempt.id]: "pending" });
    const attempt = await db.purchaseAttempt.findUniqueOrThrow({ where: { id: first.attempt.id } });
    expect(attempt).toMatchObject({ status: "UNKNOWN", reconcileCount: 1 });
    expect(attempt.errorJson).toContain("no production label-service account saved");
    // Not due again on the next pass: the backoff moved its next try.
    expect(await runDueReconciliations(deps)).toEqual({});
  });

  it("writes an order summary that failed after the fulfillment, once, without touching the fulfillment", async () => {
    const label = await db.label.create({
      data: {
        shop: "d.myshopify.com", orderId: "gid://shopify/Order/4", orderName: "#4", environment: "staging", customReference: "20261123-004",
        serviceLabelId: "S4", trackingNumber: "T4", trackingUrl: "", labelUrl: "", carrierName: "Colissimo", carrierServiceName: "DOM",
        labelFormat: "PDF_A4_300dpi", requestSnapshotJson: "{}", fulfillmentStatus: "CREATED", fulfillmentId: "gid://shopify/Fulfillment/4",
      },
    });
    const written: unknown[] = [];
    const admin = mockAdmin({
      ...developmentStorePlan,
      OrderLabelMetafieldSet: (variables) => {
        written.push(variables);
        return { data: { metafieldsSet: { metafields: [{ id: "gid://shopify/Metafield/1" }], userErrors: [] } } };
      },
    });
    const service: LabelServicePort = { generateLabel: async () => ({ status: "unknown", error: { message: "unused" } }), lookUpLabelByReference: async () => ({ status: "absent" }) };
    const later = () => new Date(Date.now() + 5 * 60_000);
    const deps = { db, serviceFor: async () => service, adminFor: async () => admin, notifyCustomerFor: async () => true, now: later };
    expect(await runDueReconciliations(deps)).toMatchObject({ [label.id]: "summary written" });
    expect(written).toHaveLength(1);
    expect(admin.calls.map((call) => call.operationName)).toEqual(["OrderLabelMetafieldSet"]);
    expect(await runDueReconciliations(deps)).not.toHaveProperty(label.id);
  });
});


describe("labels stored but never pushed to Shopify (the process died in between)", () => {
  const openOrder = (orderId: string, fulfillments: unknown[] = []) => ({
    data: { order: { id: orderId, name: "#9", fulfillments, fulfillmentOrders: { nodes: [{ id: "gid://shopify/FulfillmentOrder/9", status: "OPEN", supportedActions: [{ action: "CREATE_FULFILLMENT" }], lineItems: { nodes: [{ id: "x", remainingQuantity: 1 }], pageInfo: { hasNextPage: false } } }], pageInfo: { hasNextPage: false } } } },
  });
  async function storedLabel(shop: string, orderId: string, fulfillmentStatus: "PENDING" | "IN_PROGRESS") {
    return db.label.create({
      data: {
        shop, orderId, orderName: "#9", environment: "staging", customReference: `20261123-9${orderId.slice(-2)}`, serviceLabelId: `S${orderId.slice(-2)}`,
        trackingNumber: `T${orderId.slice(-2)}`, trackingUrl: "", labelUrl: "", carrierName: "Colissimo", carrierServiceName: "DOM",
        labelFormat: "PDF_A4_300dpi", requestSnapshotJson: "{}", fulfillmentStatus,
      },
    });
  }
  const unused: LabelServicePort = { generateLabel: async () => ({ status: "unknown", error: { message: "unused" } }), lookUpLabelByReference: async () => ({ status: "absent" }) };

  it("are pushed by the background pass once their claim is stale (PENDING and IN_PROGRESS), once, customer notified per setting", async () => {
    const pending = await storedLabel("e.myshopify.com", "gid://shopify/Order/91", "PENDING");
    const claimed = await storedLabel("e.myshopify.com", "gid://shopify/Order/92", "IN_PROGRESS");
    const creates: { notifyCustomer?: unknown }[] = [];
    const admin = mockAdmin({
      ...developmentStorePlan,
      FulfillmentContext: (variables) => openOrder(String((variables as { id: string }).id)),
      FulfillmentCreate: (variables) => {
        creates.push((variables as { fulfillment: { notifyCustomer?: unknown } }).fulfillment);
        return { data: { fulfillmentCreate: { fulfillment: { id: `gid://shopify/Fulfillment/${creates.length}`, status: "SUCCESS" }, userErrors: [] } } };
      },
      OrderLabelMetafieldSet: () => ({ data: { metafieldsSet: { metafields: [], userErrors: [] } } }),
    });
    const deps = { db, serviceFor: async () => unused, adminFor: async () => admin, notifyCustomerFor: async () => true };
    // Fresh: another request may be pushing them right now.
    expect(await runDueReconciliations(deps)).toEqual({});
    const later = () => new Date(Date.now() + FULFILLMENT_CLAIM_TIMEOUT_MS + 1_000);
    expect(await runDueReconciliations({ ...deps, now: later })).toEqual({ [pending.id]: "fulfillment created", [claimed.id]: "fulfillment created" });
    expect(creates).toHaveLength(2);
    expect(creates.every((fulfillment) => fulfillment.notifyCustomer === true)).toBe(true);
    expect(await runDueReconciliations({ ...deps, now: later })).toEqual({});
    expect(await db.label.findMany({ where: { id: { in: [pending.id, claimed.id] } }, select: { fulfillmentStatus: true } })).toEqual([
      { fulfillmentStatus: "CREATED" },
      { fulfillmentStatus: "CREATED" },
    ]);
  });

  it("adopt the fulfillment Shopify already has for the tracking number instead of creating another", async () => {
    const label = await storedLabel("f.myshopify.com", "gid://shopify/Order/93", "IN_PROGRESS");
    const admin = mockAdmin({
      ...developmentStorePlan,
      FulfillmentContext: () => openOrder("gid://shopify/Order/93", [{ id: "gid://shopify/Fulfillment/77", status: "SUCCESS", trackingInfo: [{ number: "T93", url: null, company: "Colissimo" }] }]),
      OrderLabelMetafieldSet: () => ({ data: { metafieldsSet: { metafields: [], userErrors: [] } } }),
    });
    const later = () => new Date(Date.now() + FULFILLMENT_CLAIM_TIMEOUT_MS + 1_000);
    const deps = { db, serviceFor: async () => unused, adminFor: async () => admin, notifyCustomerFor: async () => true, now: later };
    expect(await runDueReconciliations(deps)).toEqual({ [label.id]: "fulfillment created (adopted)" });
    expect(admin.calls.map((call) => call.operationName)).not.toContain("FulfillmentCreate");
    expect(await db.label.findUniqueOrThrow({ where: { id: label.id } })).toMatchObject({ fulfillmentStatus: "CREATED", fulfillmentId: "gid://shopify/Fulfillment/77" });
  });

  it("build each shop's clients and read its setting once per pass, not once per label", async () => {
    const labels = await Promise.all(["94", "95", "96"].map((n) => storedLabel("g.myshopify.com", `gid://shopify/Order/${n}`, "PENDING")));
    const admin = mockAdmin({
      ...developmentStorePlan,
      FulfillmentContext: (variables) => openOrder(String((variables as { id: string }).id)),
      FulfillmentCreate: () => ({ data: { fulfillmentCreate: { fulfillment: { id: "gid://shopify/Fulfillment/9", status: "SUCCESS" }, userErrors: [] } } }),
      OrderLabelMetafieldSet: () => ({ data: { metafieldsSet: { metafields: [], userErrors: [] } } }),
    });
    const built = { admin: 0, notify: 0 };
    const deps = {
      db,
      serviceFor: async () => unused,
      adminFor: async () => ((built.admin += 1), admin),
      notifyCustomerFor: async () => ((built.notify += 1), false),
      now: () => new Date(Date.now() + FULFILLMENT_CLAIM_TIMEOUT_MS + 1_000),
    };
    const outcomes = await runDueReconciliations(deps);
    expect(labels.map((label) => outcomes[label.id])).toEqual(["fulfillment created", "fulfillment created", "fulfillment created"]);
    expect(built).toEqual({ admin: 1, notify: 1 });
  });
});
