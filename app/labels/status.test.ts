import { describe, expect, it } from "vitest";
import {
  ATTEMPT,
  ATTEMPT_STATUSES,
  attemptHistoryStatus,
  attemptStatus,
  deriveOrderLabelView,
  FULFILLMENT,
  HISTORY_STATUSES,
  historySelection,
  isAttemptInFlight,
  isAttemptRejected,
  isFulfilled,
  isFulfillmentFailed,
  isOutcomeOpen,
  isPushing,
  isUnsettledAttempt,
  LABEL_FULFILLMENT_STATUSES,
  labelFulfillmentStatus,
  labelHistoryStatus,
  labelStatusGroup,
  ORDER_LABEL_STATUSES,
  rowBlockers,
  type OrderLabelFacts,
} from "./status";

const facts = (over: Partial<OrderLabelFacts> = {}): OrderLabelFacts => ({ attempts: [], labels: [], blockers: [], ...over });

describe("deriveOrderLabelView", () => {
  it("offers the first label, emphasised, for an order with nothing recorded", () => {
    expect(deriveOrderLabelView(facts())).toEqual({
      status: "none",
      tone: undefined,
      primaryAction: "create",
      emphasised: true,
      purchase: "first",
      canPurchase: true,
    });
  });

  it("a void label is history: the order is offered a first label again; one being voided blocks a purchase", () => {
    const voided = deriveOrderLabelView(facts({ attempts: [{ status: "CREATED" }], labels: [{ fulfillmentStatus: "CREATED", voidState: "VOID" }] }));
    expect(voided).toMatchObject({ status: "none", primaryAction: "create", purchase: "first", canPurchase: true });
    const voiding = deriveOrderLabelView(facts({ attempts: [{ status: "CREATED" }], labels: [{ fulfillmentStatus: "CREATED", voidState: "VOIDING" }] }));
    expect(voiding).toMatchObject({ purchase: "none", canPurchase: false });
    const relabelled = deriveOrderLabelView(
      facts({ attempts: [{ status: "CREATED" }, { status: "CREATED" }], labels: [{ fulfillmentStatus: "CREATED", voidState: "VOID" }, { fulfillmentStatus: "CREATED", voidState: null }] }),
    );
    expect(relabelled).toMatchObject({ status: "fulfilled", purchase: "additional" });
  });

  it("#1051: a refused purchase shows as such, and the order can be bought again (nothing was charged)", () => {
    const view = deriveOrderLabelView(facts({ attempts: [{ status: "REJECTED" }] }));
    expect(view).toMatchObject({ status: "rejected", primaryAction: "create", purchase: "first", canPurchase: true });
  });

  it("#1049: nothing that ships as a parcel is not shippable, and no purchase is offered", () => {
    const view = deriveOrderLabelView(facts({ blockers: [{ code: "no_physical_items" }] }));
    expect(view).toMatchObject({ status: "not_shippable", primaryAction: "view", emphasised: false, purchase: "none", canPurchase: false });
  });

  it("a problem the merchant can fix on the page (a missing HS code) still offers the purchase", () => {
    const view = deriveOrderLabelView(facts({ blockers: [{ code: "hs_code_missing", editable: true }] }));
    expect(view).toMatchObject({ status: "none", purchase: "first", canPurchase: true });
  });

  it("a purchase in flight or awaiting review blocks another one, review first", () => {
    expect(deriveOrderLabelView(facts({ attempts: [{ status: "UNKNOWN" }] }))).toMatchObject({ status: "pending", primaryAction: "check", canPurchase: false });
    expect(deriveOrderLabelView(facts({ attempts: [{ status: "PENDING" }, { status: "NEEDS_REVIEW" }] }))).toMatchObject({
      status: "needs_review",
      primaryAction: "review",
      canPurchase: false,
    });
  });

  it("a labelled order offers only an explicit additional label, even with nothing left to ship", () => {
    const view = deriveOrderLabelView(
      facts({ attempts: [{ status: "CREATED" }], labels: [{ fulfillmentStatus: "CREATED" }], blockers: [{ code: "nothing_to_ship" }] }),
    );
    expect(view).toMatchObject({ status: "fulfilled", primaryAction: "openLabel", emphasised: false, purchase: "additional", canPurchase: true });
    expect(deriveOrderLabelView(facts({ labels: [{ fulfillmentStatus: "PENDING" }] })).status).toBe("created");
  });

  it("a Shopify step that failed wins over the labels held", () => {
    const view = deriveOrderLabelView(facts({ labels: [{ fulfillmentStatus: "CREATED" }, { fulfillmentStatus: "FAILED" }] }));
    expect(view).toMatchObject({ status: "fulfillment_failed", tone: "critical", primaryAction: "retryFulfillment" });
  });

  it("puts every status in exactly one tab of the list", () => {
    expect(ORDER_LABEL_STATUSES.map(labelStatusGroup)).toEqual([
      "unlabelled",
      "unlabelled",
      "attention",
      "attention",
      "unlabelled",
      "attention",
      "labelled",
      "labelled",
      "unlabelled",
    ]);
  });

  it("an order labelled at some of its locations, another still to label: partly labelled, its next label a first one", () => {
    const labels = [{ fulfillmentStatus: "CREATED" as const }];
    const partly = deriveOrderLabelView(facts({ labels, locations: { labelled: 1, total: 2, toLabel: 1 } }));
    expect(partly).toEqual({ status: "partly_labelled", tone: "attention", primaryAction: "create", emphasised: true, purchase: "first", canPurchase: true, progress: { labelled: 1, total: 2 } });
    // Every location labelled (or the rest shipped without a label): labelled as before.
    expect(deriveOrderLabelView(facts({ labels, locations: { labelled: 2, total: 2, toLabel: 0 } })).status).toBe("fulfilled");
    // What needs the merchant still wins: a Shopify step that failed at the labelled location.
    expect(deriveOrderLabelView(facts({ labels: [{ fulfillmentStatus: "FAILED" }], locations: { labelled: 1, total: 2, toLabel: 1 } })).status).toBe("fulfillment_failed");
    // A label being pushed: nothing to buy now.
    expect(deriveOrderLabelView(facts({ labels: [{ fulfillmentStatus: "IN_PROGRESS" }], locations: { labelled: 1, total: 2, toLabel: 1 } }))).toMatchObject({ status: "partly_labelled", purchase: "none", emphasised: false });
  });
});

describe("rowBlockers", () => {
  const ticket = { requiresShipping: false, isGiftCard: false };
  const giftCard = { requiresShipping: true, isGiftCard: true };
  const book = { requiresShipping: true, isGiftCard: false };

  it("#1049: a ticket and a gift card only: nothing ships as a parcel", () => {
    expect(rowBlockers({ hasShippingAddress: true, lineItems: [ticket, giftCard], lineItemsComplete: true })).toEqual([{ code: "no_physical_items" }]);
  });

  it("one physical line is enough, and an incomplete list of lines never blocks", () => {
    expect(rowBlockers({ hasShippingAddress: true, lineItems: [ticket, book], lineItemsComplete: true })).toEqual([]);
    expect(rowBlockers({ hasShippingAddress: true, lineItems: [ticket], lineItemsComplete: false })).toEqual([]);
  });

  it("an order without a shipping address is blocked", () => {
    expect(rowBlockers({ hasShippingAddress: false, lineItems: [book], lineItemsComplete: true })).toEqual([{ code: "no_shipping_address" }]);
  });
});

describe("stored statuses", () => {
  it("read a status this code does not know on the safe side: an unsettled purchase, a label not yet pushed", () => {
    expect(attemptStatus("REJECTED")).toBe("REJECTED");
    expect(attemptStatus("SOMETHING_NEW")).toBe("UNKNOWN");
    expect(deriveOrderLabelView(facts({ attempts: [{ status: attemptStatus("SOMETHING_NEW") }] })).canPurchase).toBe(false);
    expect(labelFulfillmentStatus("FAILED")).toBe("FAILED");
    expect(labelFulfillmentStatus("SOMETHING_NEW")).toBe("PENDING");
  });
});

describe("status views", () => {
  it("names every stored status, typed", () => {
    expect(Object.values(ATTEMPT)).toEqual([...ATTEMPT_STATUSES]);
    expect(Object.values(FULFILLMENT)).toEqual([...LABEL_FULFILLMENT_STATUSES]);
  });

  it("tells open, unsettled, in-flight and rejected attempts apart", () => {
    expect(ATTEMPT_STATUSES.filter(isOutcomeOpen)).toEqual(["UNKNOWN", "NEEDS_REVIEW"]);
    expect(ATTEMPT_STATUSES.filter(isUnsettledAttempt)).toEqual(["PENDING", "UNKNOWN", "NEEDS_REVIEW"]);
    expect(ATTEMPT_STATUSES.filter(isAttemptInFlight)).toEqual(["PENDING", "UNKNOWN"]);
    expect(ATTEMPT_STATUSES.filter(isAttemptRejected)).toEqual(["REJECTED"]);
    expect(isOutcomeOpen("SOMETHING_NEW")).toBe(false);
  });

  it("tells a Shopify step being pushed, done or failed", () => {
    expect(LABEL_FULFILLMENT_STATUSES.filter(isPushing)).toEqual(["PENDING", "IN_PROGRESS"]);
    expect(LABEL_FULFILLMENT_STATUSES.filter(isFulfilled)).toEqual(["CREATED"]);
    expect(LABEL_FULFILLMENT_STATUSES.filter(isFulfillmentFailed)).toEqual(["FAILED"]);
  });

  it("each history filter selects exactly the rows whose status it names", () => {
    for (const status of HISTORY_STATUSES) {
      const { fulfillment = [], attempts = [], voided } = historySelection(status);
      const shownLabel = (fulfillmentStatus: string) => labelHistoryStatus(fulfillmentStatus, voided ? "VOID" : null);
      expect([...fulfillment.map(shownLabel), ...attempts.map(attemptHistoryStatus)].every((shown) => shown === status)).toBe(true);
      expect(fulfillment.length + attempts.length).toBeGreaterThan(0);
    }
    // No filter: every label, and every attempt that is not a label's (CREATED attempts are shown as their label).
    expect(historySelection(undefined)).toEqual({ fulfillment: LABEL_FULFILLMENT_STATUSES, attempts: ["PENDING", "UNKNOWN", "NEEDS_REVIEW", "REJECTED"] });
  });
});
