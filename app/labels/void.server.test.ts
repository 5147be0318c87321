import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { mockAdmin } from "../../test/helpers/mock-admin";
import { createTestDatabase } from "../../test/helpers/test-db";
import { DEFAULT_RECONCILE_TIMINGS } from "../config.server";
import { pushLabelToShopify } from "./fulfill.server";
import { voidNotice } from "./order-label-actions.server";
import { orderSlot, slotHolder } from "./purchase.server";
import { planShopifyStep, voidLabel } from "./void.server";

const database = createTestDatabase();
const db = database.prisma;
afterAll(() => database.close());

const SHOP = "shop-a.myshopify.com";
const OTHER_SHOP = "shop-b.myshopify.com";
const ORDER = "gid://shopify/Order/1001";
// The clock of the rows Prisma stamps (updatedAt), so a fresh push claim is fresh to the void.
const NOW = new Date();
const timings = DEFAULT_RECONCILE_TIMINGS;

type Tracking = { company: string; number: string; url: string };
type Fulfillment = { id: string; status: string; trackingInfo: Tracking[] };

/** The order in Shopify: its fulfillments (cancelled ones stay, as on Shopify), the calls and the summaries written. */
function shopifyOrder(fulfillments: Fulfillment[], options: { cancel?: "busy" | "refuse" } = {}) {
  const state = { fulfillments, cancels: [] as string[], trackingUpdates: [] as Record<string, unknown>[], summaries: [] as { count: number; labels: { labelId: string }[] }[], cancel: options.cancel };
  const base = mockAdmin({
    FulfillmentContext: () => ({
      data: {
        order: {
          id: ORDER,
          name: "#1001",
          fulfillmentsCount: { count: state.fulfillments.length },
          fulfillments: state.fulfillments.slice(0, 2),
          fulfillmentOrders: { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } },
        },
      },
    }),
    FulfillmentContextFulfillments: () => ({ data: { order: { fulfillments: state.fulfillments } } }),
    FulfillmentContextTracking: (variables) => ({ data: { fulfillment: state.fulfillments.find((fulfillment) => fulfillment.id === variables.id) ?? null } }),
    FulfillmentCancel: (variables) => {
      const id = String(variables.id);
      // Shopify refuses to run it (THROTTLED, no data) and the caller may not wait: the Admin layer gives up busy.
      if (state.cancel === "busy") {
        return {
          errors: [{ message: "Throttled", extensions: { code: "THROTTLED" } }],
          extensions: { cost: { requestedQueryCost: 10, throttleStatus: { maximumAvailable: 1000, currentlyAvailable: 0, restoreRate: 5 } } },
        };
      }
      if (state.cancel === "refuse") return { data: { fulfillmentCancel: { fulfillment: null, userErrors: [{ field: ["id"], message: "Fulfillment cannot be cancelled." }] } } };
      state.cancels.push(id);
      const fulfillment = state.fulfillments.find((candidate) => candidate.id === id);
      if (!fulfillment || fulfillment.status === "CANCELLED") {
        return { data: { fulfillmentCancel: { fulfillment: null, userErrors: [{ field: ["id"], message: "Fulfillment has already been cancelled." }] } } };
      }
      fulfillment.status = "CANCELLED";
      return { data: { fulfillmentCancel: { fulfillment: { id, status: "CANCELLED" }, userErrors: [] } } };
    },
    FulfillmentTrackingUpdate: (variables) => {
      state.trackingUpdates.push(variables);
      const fulfillment = state.fulfillments.find((candidate) => candidate.id === variables.fulfillmentId)!;
      const input = variables.trackingInfoInput as { company: string; numbers: string[]; urls: string[] };
      fulfillment.trackingInfo = input.numbers.map((number, index) => ({ company: input.company, number, url: input.urls[index] ?? "" }));
      return { data: { fulfillmentTrackingInfoUpdate: { fulfillment: { id: fulfillment.id }, userErrors: [] } } };
    },
    OrderLabelMetafieldSet: (variables) => {
      const { metafields } = variables as { metafields: { value: string }[] };
      state.summaries.push(JSON.parse(metafields[0]!.value));
      return { data: { metafieldsSet: { metafields: [{ id: "gid://shopify/Metafield/1" }], userErrors: [] } } };
    },
  });
  // The caller never waits for Shopify's budget here: a THROTTLED answer is "busy" at once.
  const admin = { ...base, pacing: { maxWaitMs: 0 } };
  return { admin, state };
}

const tracking = (index: number) => `6A0000000000${index}`;
const fulfillmentOf = (index: number, status = "SUCCESS"): Fulfillment => ({
  id: `gid://shopify/Fulfillment/${index}`,
  status,
  trackingInfo: [{ company: "Colissimo", number: tracking(index), url: `https://track.test/${tracking(index)}` }],
});

/** A label bought through an attempt that holds the order's slot `index`, as purchaseLabel leaves it. */
async function boughtLabel(index = 1, data: { shop?: string; fulfillmentStatus?: string; voidState?: string; voidRequestedAt?: Date; updatedAt?: Date } = {}) {
  const shop = data.shop ?? SHOP;
  const label = await db.label.create({
    data: {
      shop, orderId: ORDER, orderName: "#1001", environment: "production", customReference: `20261126-00${index}`,
      serviceLabelId: `L${index}`, trackingNumber: tracking(index), trackingUrl: `https://track.test/${tracking(index)}`,
      labelUrl: `https://sandbox.test/labels/L${index}.pdf`, carrierName: "Colissimo", carrierServiceName: "DOM", labelFormat: "PDF_A4_300dpi",
      requestSnapshotJson: "{}", fulfillmentStatus: data.fulfillmentStatus ?? "CREATED", metafieldWritten: true,
      ...(data.voidState ? { voidState: data.voidState, voidRequestedAt: data.voidRequestedAt ?? NOW } : {}),
      ...(data.updatedAt ? { updatedAt: data.updatedAt } : {}),
    },
  });
  await db.purchaseAttempt.create({
    data: {
      shop, orderId: ORDER, orderName: "#1001", environment: "production", customReference: label.customReference,
      orderSlot: orderSlot(shop, ORDER, index), labelIndex: index, status: "CREATED", requestJson: "{}", labelId: label.id,
    },
  });
  return label;
}

const run = (admin: ReturnType<typeof shopifyOrder>["admin"], labelId: string, shop = SHOP, at = NOW) => voidLabel({ db, admin, now: () => at, timings }, { shop, labelId, orderId: ORDER });

beforeEach(async () => {
  await db.purchaseAttempt.deleteMany();
  await db.label.deleteMany();
});

describe("voidLabel", () => {
  it("cancels the fulfillment carrying the label's number, marks it void, frees its slot and rewrites the summary without it", async () => {
    const label = await boughtLabel(1);
    const { admin, state } = shopifyOrder([fulfillmentOf(1)]);
    const outcome = await run(admin, label.id);
    expect(outcome).toMatchObject({ kind: "voided", alreadyVoid: false, shopify: "cancelled", summaryWritten: true });
    expect(state.cancels).toEqual(["gid://shopify/Fulfillment/1"]);
    expect(state.fulfillments[0]!.status).toBe("CANCELLED");
    expect(await db.label.findUniqueOrThrow({ where: { id: label.id } })).toMatchObject({ voidState: "VOID", voidedAt: NOW, voidError: null, labelUrl: label.labelUrl });
    // Kept in the history (the attempt still points at it), but the slot no longer blocks a new label.
    expect(await db.purchaseAttempt.findFirstOrThrow({ where: { labelId: label.id } })).toMatchObject({ status: "CREATED", orderSlot: null });
    expect(await slotHolder(db, SHOP, ORDER, 1)).toBeNull();
    expect(state.summaries).toEqual([{ count: 0, labels: [] }]);
    // Only Shopify was called: reading the order, the cancel, the summary (the label service is not even a dependency).
    expect(admin.calls.map((call) => call.operationName)).toEqual(["FulfillmentContext", "FulfillmentCancel", "OrderLabelMetafieldSet"]);
  });

  it("keeps the order's other labels in the summary", async () => {
    await boughtLabel(1);
    const second = await boughtLabel(2);
    const { admin, state } = shopifyOrder([fulfillmentOf(1), fulfillmentOf(2)]);
    await run(admin, second.id);
    expect(state.cancels).toEqual(["gid://shopify/Fulfillment/2"]);
    expect(state.summaries.at(-1)).toMatchObject({ count: 1, labels: [{ labelId: "L1" }] });
  });

  it("a second click is told the label is void, and nothing is sent to Shopify again", async () => {
    const label = await boughtLabel(1);
    const { admin, state } = shopifyOrder([fulfillmentOf(1)]);
    await run(admin, label.id);
    const calls = admin.calls.length;
    const again = await run(admin, label.id);
    expect(again).toMatchObject({ kind: "voided", alreadyVoid: true });
    expect(admin.calls).toHaveLength(calls);
    expect(state.cancels).toHaveLength(1);
  });

  it("two voids at once cancel the fulfillment once; the other is told it is in progress or done", async () => {
    const label = await boughtLabel(1);
    const { admin, state } = shopifyOrder([fulfillmentOf(1)]);
    const outcomes = await Promise.all([run(admin, label.id), run(admin, label.id)]);
    expect(state.cancels).toEqual(["gid://shopify/Fulfillment/1"]);
    expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(outcomes.some((outcome) => outcome.kind === "in_progress") ? ["in_progress", "voided"] : ["voided", "voided"]);
    expect((await db.label.findUniqueOrThrow({ where: { id: label.id } })).voidState).toBe("VOID");
  });

  it("a void interrupted after Shopify cancelled resumes without cancelling again", async () => {
    // The process died between the cancel and the VOID write: the intent is there, stale; the fulfillment cancelled.
    const label = await boughtLabel(1, { voidState: "VOIDING", voidRequestedAt: new Date(NOW.getTime() - timings.claimTimeoutMs - 1) });
    const { admin, state } = shopifyOrder([fulfillmentOf(1, "CANCELLED")]);
    const outcome = await run(admin, label.id);
    expect(outcome).toMatchObject({ kind: "voided", shopify: "already_cancelled" });
    expect(state.cancels).toEqual([]);
    expect(await slotHolder(db, SHOP, ORDER, 1)).toBeNull();
  });

  it("a void under way elsewhere (fresh intent) is reported in progress, and nothing is sent", async () => {
    const label = await boughtLabel(1, { voidState: "VOIDING", voidRequestedAt: new Date(NOW.getTime() - 1_000) });
    const { admin } = shopifyOrder([fulfillmentOf(1)]);
    expect(await run(admin, label.id)).toMatchObject({ kind: "in_progress" });
    expect(admin.calls).toEqual([]);
    expect(await slotHolder(db, SHOP, ORDER, 1)).not.toBeNull();
  });

  it("Shopify refusing keeps the intent with its reason; voiding again retries at once and finishes", async () => {
    const label = await boughtLabel(1);
    const { admin, state } = shopifyOrder([fulfillmentOf(1)], { cancel: "refuse" });
    const refused = await run(admin, label.id);
    expect(refused).toMatchObject({ kind: "failed", message: "FulfillmentCancel: id: Fulfillment cannot be cancelled." });
    const kept = await db.label.findUniqueOrThrow({ where: { id: label.id } });
    expect(kept.voidState).toBe("VOIDING");
    expect(kept.voidError).toContain("cannot be cancelled");
    // Not void: the slot is still the label's.
    expect(await slotHolder(db, SHOP, ORDER, 1)).toMatchObject({ status: "already_labelled" });

    state.cancel = undefined;
    expect(await run(admin, label.id)).toMatchObject({ kind: "voided", shopify: "cancelled" });
    expect(state.cancels).toHaveLength(1);
  });

  it("Shopify busy keeps the intent; the notice gives the wait", async () => {
    const label = await boughtLabel(1);
    const { admin } = shopifyOrder([fulfillmentOf(1)], { cancel: "busy" });
    const outcome = await run(admin, label.id);
    expect(outcome).toMatchObject({ kind: "busy" });
    const seconds = outcome.kind === "busy" ? String(Math.ceil(outcome.retryAfterMs / 1000)) : "";
    expect(Number(seconds)).toBeGreaterThan(0);
    expect(voidNotice(outcome)).toMatchObject({ tone: "warning", notice: { key: "void.busy", values: { seconds, labelId: "L1", reference: "20261126-001" } } });
    expect((await db.label.findUniqueOrThrow({ where: { id: label.id } })).voidState).toBe("VOIDING");
  });

  it("a fulfillment that also carries another parcel keeps it: only this number is removed, without a notice", async () => {
    await boughtLabel(1);
    const second = await boughtLabel(2);
    const shared = { ...fulfillmentOf(1), trackingInfo: [...fulfillmentOf(1).trackingInfo, ...fulfillmentOf(2).trackingInfo] };
    const { admin, state } = shopifyOrder([shared]);
    expect(await run(admin, second.id)).toMatchObject({ kind: "voided", shopify: "tracking_removed" });
    expect(state.cancels).toEqual([]);
    expect(state.trackingUpdates).toEqual([
      { fulfillmentId: shared.id, trackingInfoInput: { company: "Colissimo", numbers: [tracking(1)], urls: [`https://track.test/${tracking(1)}`] }, notifyCustomer: false },
    ]);
  });

  it("a test label kept out of Shopify is voided without any Shopify call", async () => {
    const label = await boughtLabel(1, { fulfillmentStatus: "SKIPPED_TEST" });
    const { admin } = shopifyOrder([]);
    expect(await run(admin, label.id)).toMatchObject({ kind: "voided", shopify: "none", summaryWritten: false });
    expect(admin.calls).toEqual([]);
  });

  it("waits while the label is being pushed to Shopify (its fulfillment would escape the void)", async () => {
    const label = await boughtLabel(1, { fulfillmentStatus: "IN_PROGRESS" });
    const { admin } = shopifyOrder([]);
    expect(await run(admin, label.id)).toMatchObject({ kind: "pushing" });
    expect(admin.calls).toEqual([]);
    expect((await db.label.findUniqueOrThrow({ where: { id: label.id } })).voidState).toBeNull();
  });

  it("another shop's label is not found, and is left as it was (the page answers 404)", async () => {
    const label = await boughtLabel(1, { shop: OTHER_SHOP });
    const { admin } = shopifyOrder([fulfillmentOf(1)]);
    const outcome = await run(admin, label.id, SHOP);
    expect(outcome).toEqual({ kind: "not_found" });
    expect(admin.calls).toEqual([]);
    expect((await db.label.findUniqueOrThrow({ where: { id: label.id } })).voidState).toBeNull();
    const thrown = (() => {
      try {
        voidNotice(outcome);
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(404);
  });

  it("a void label is never pushed to Shopify again", async () => {
    const label = await boughtLabel(1, { fulfillmentStatus: "PENDING" });
    const { admin } = shopifyOrder([]);
    await run(admin, label.id);
    const calls = admin.calls.length;
    expect(await pushLabelToShopify({ db, admin, timings }, { shop: SHOP, labelId: label.id, notifyCustomer: true })).toEqual({ status: "in_progress" });
    expect(admin.calls).toHaveLength(calls);
  });

  it("the notice names the label id and reference to quote for a refund", async () => {
    const label = await boughtLabel(1);
    const { admin } = shopifyOrder([fulfillmentOf(1)]);
    expect(voidNotice(await run(admin, label.id))).toEqual({
      tone: "success",
      notice: { key: "void.done", values: { tracking: tracking(1), order: "#1001", labelId: "L1", reference: "20261126-001" } },
    });
  });
});

describe("planShopifyStep", () => {
  it("cancels only live fulfillments carrying the number, and says when they are all cancelled already", () => {
    expect(planShopifyStep({ fulfillments: [fulfillmentOf(2)] }, tracking(1))).toEqual({ alreadyCancelled: false, actions: [] });
    expect(planShopifyStep({ fulfillments: [fulfillmentOf(1, "CANCELLED")] }, tracking(1))).toEqual({ alreadyCancelled: true, actions: [] });
    expect(planShopifyStep({ fulfillments: [fulfillmentOf(1, "CANCELLED"), fulfillmentOf(1)] }, tracking(1))).toEqual({
      alreadyCancelled: false,
      actions: [{ kind: "cancel", fulfillmentId: "gid://shopify/Fulfillment/1" }],
    });
  });
});
