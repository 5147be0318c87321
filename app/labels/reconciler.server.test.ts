import { afterAll, describe, expect, it } from "vitest";
import { mockAdmin } from "../../test/helpers/mock-admin";
import { createTestDatabase } from "../../test/helpers/test-db";
import { exampleLabelRequest } from "../label-service/__fixtures__/example-request";
import type { LabelRequest } from "../label-service/contract";
import { purchaseLabel, type LabelServicePort, type RemoteLabel } from "./purchase.server";
import { runDueReconciliations } from "./reconciler.server";

const database = createTestDatabase();
const db = database.prisma;
afterAll(() => database.close());

const request = (reference: string): LabelRequest => exampleLabelRequest({ custom_reference: reference });

describe("background reconciliation", () => {
  it("adopts a label bought behind a lost response and pushes it to Shopify, once", async () => {
    const listed = new Map<string, RemoteLabel>();
    const service: LabelServicePort = {
      async generateLabel(req) {
        listed.set(req.custom_reference, { id: "L1", reference: "1234567890", label_url: "https://s/l.pdf", tracking_url: "https://s/t", custom_reference: req.custom_reference });
        return { status: "unknown", error: { message: "socket hang up" } };
      },
      async findLabelByReference(reference) {
        return listed.get(reference) ?? null;
      },
    };
    const first = await purchaseLabel({ db, service }, { shop: "a.myshopify.com", environment: "staging", orderId: "gid://shopify/Order/1", orderName: "#1", buildRequest: request });
    expect(first.status).toBe("unknown");
    const creates: unknown[] = [];
    const admin = mockAdmin({
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
      findLabelByReference: async () => null,
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
      OrderLabelMetafieldSet: (variables) => {
        written.push(variables);
        return { data: { metafieldsSet: { metafields: [{ id: "gid://shopify/Metafield/1" }], userErrors: [] } } };
      },
    });
    const service: LabelServicePort = { generateLabel: async () => ({ status: "unknown", error: { message: "unused" } }), findLabelByReference: async () => null };
    const later = () => new Date(Date.now() + 5 * 60_000);
    const deps = { db, serviceFor: async () => service, adminFor: async () => admin, notifyCustomerFor: async () => true, now: later };
    expect(await runDueReconciliations(deps)).toMatchObject({ [label.id]: "summary written" });
    expect(written).toHaveLength(1);
    expect(admin.calls.map((call) => call.operationName)).toEqual(["OrderLabelMetafieldSet"]);
    expect(await runDueReconciliations(deps)).not.toHaveProperty(label.id);
  });
});

