import { describe, expect, it } from "vitest";
import { countCampaign, failures, orderEnd, type AttemptRow, type CampaignEvidence, type LabelRow } from "./count";

const A = "gid://shopify/Order/1";
const B = "gid://shopify/Order/2";

function attempt(id: string, orderId: string, customReference: string, status: string, extra: Partial<AttemptRow> = {}): AttemptRow {
  return { id, orderId, labelIndex: 1, customReference, status, labelId: null, ...extra };
}

function label(id: string, orderId: string, serviceLabelId: string, trackingNumber: string, fulfillmentStatus = "CREATED"): LabelRow {
  return { id, orderId, serviceLabelId, trackingNumber, fulfillmentStatus };
}

/** Order A labelled and fulfilled once; order B refused by the mapper (no row). Nothing duplicated. */
function clean(): CampaignEvidence {
  return {
    attempted: [A, B],
    paidLabels: [{ id: "s1", customReference: "20261123-001" }],
    attempts: [attempt("a1", A, "20261123-001", "CREATED", { labelId: "l1" })],
    labels: [label("l1", A, "s1", "T1")],
    shopify: [
      { orderId: A, fulfillments: [{ id: "f1", status: "SUCCESS", trackingNumbers: ["T1"] }], notifications: [{ fulfillmentId: "f1", trackingNumbers: ["T1"] }] },
      { orderId: B, fulfillments: [], notifications: [] },
    ],
    preexistingFulfillments: [],
    answers: { [A]: "labelled", [B]: "problems" },
  };
}

describe("countCampaign", () => {
  it("counts nothing wrong in a clean campaign, with one order labelled and one refused", () => {
    const verdict = countCampaign(clean());
    expect(failures(verdict)).toEqual([]);
    expect(verdict.ends).toEqual({ labelled: 1, refused: 1, review: 0, pending: 0, lost: 0 });
    expect(verdict.labelledNotFulfilled).toBe(0);
  });

  it("counts a second paid label in one order slot as a duplicate, even under a second attempt", () => {
    const evidence = clean();
    evidence.paidLabels.push({ id: "s2", customReference: "20261123-002" });
    evidence.attempts.push(attempt("a2", A, "20261123-002", "NEEDS_REVIEW"));
    const verdict = countCampaign(evidence);
    expect(verdict.duplicateLabels).toBe(1);
    expect(verdict.details.duplicateLabels).toEqual([A]);
    expect(failures(verdict)).toContain("duplicateLabels=1");
  });

  it("does not count a label the merchant asked for in a second slot", () => {
    const evidence = clean();
    evidence.paidLabels.push({ id: "s2", customReference: "20261123-002" });
    evidence.attempts.push(attempt("a2", A, "20261123-002", "CREATED", { labelIndex: 2, labelId: "l2" }));
    evidence.labels.push(label("l2", A, "s2", "T2"));
    evidence.shopify[0]!.fulfillments.push({ id: "f2", status: "SUCCESS", trackingNumbers: ["T2"] });
    expect(failures(countCampaign(evidence))).toEqual([]);
  });

  it("counts a paid label no attempt knows, and one behind a refused attempt", () => {
    const evidence = clean();
    evidence.paidLabels.push({ id: "s9", customReference: "20261123-099" });
    evidence.paidLabels.push({ id: "s3", customReference: "20261123-003" });
    evidence.attempts.push(attempt("a3", B, "20261123-003", "REJECTED"));
    const verdict = countCampaign(evidence);
    expect(verdict.orphanPaidLabels).toBe(1);
    expect(verdict.paidButRefused).toBe(1);
    expect(verdict.details.paidButRefused).toEqual([B]);
  });

  it("counts two live fulfillments and two notifications for one tracking number, but not a cancelled or seeded one", () => {
    const evidence = clean();
    evidence.shopify[0]!.fulfillments.push({ id: "f2", status: "SUCCESS", trackingNumbers: ["T1"] });
    evidence.shopify[0]!.fulfillments.push({ id: "f3", status: "CANCELLED", trackingNumbers: ["T1"] });
    evidence.shopify[0]!.fulfillments.push({ id: "seeded", status: "SUCCESS", trackingNumbers: ["T1"] });
    evidence.shopify[0]!.notifications.push({ fulfillmentId: "f2", trackingNumbers: ["T1"] });
    evidence.preexistingFulfillments = ["seeded"];
    const verdict = countCampaign(evidence);
    expect(verdict.duplicateFulfillments).toBe(1);
    expect(verdict.duplicateNotifications).toBe(1);
    expect(failures(verdict)).toEqual(["duplicateFulfillments=1", "duplicateNotifications=1"]);
  });

  it("does not count the tracking update of an additional parcel, which names the first number again, as a second notice", () => {
    const evidence = clean();
    evidence.paidLabels.push({ id: "s2", customReference: "20261123-002" });
    evidence.attempts.push(attempt("a2", A, "20261123-002", "CREATED", { labelIndex: 2, labelId: "l2" }));
    evidence.labels.push(label("l2", A, "s2", "T2"));
    evidence.shopify[0]!.fulfillments[0]!.trackingNumbers.push("T2");
    evidence.shopify[0]!.notifications.push({ fulfillmentId: "f1", trackingNumbers: ["T1", "T2"] });
    expect(countCampaign(evidence).duplicateNotifications).toBe(0);
    evidence.shopify[0]!.notifications.push({ fulfillmentId: "f1", trackingNumbers: ["T1", "T2"] });
    expect(countCampaign(evidence).duplicateNotifications).toBe(1);
  });

  it("counts an attempted order with no label, no attempt and no refusal as lost", () => {
    const evidence = clean();
    evidence.answers[B] = undefined;
    const verdict = countCampaign(evidence);
    expect(verdict.lostOrders).toBe(1);
    expect(verdict.details.lostOrders).toEqual([B]);
  });

  it("reports a labelled order whose fulfillment is not in Shopify yet", () => {
    const evidence = clean();
    evidence.labels[0]!.fulfillmentStatus = "PENDING";
    expect(countCampaign(evidence).labelledNotFulfilled).toBe(1);
  });
});

describe("orderEnd", () => {
  it("puts a label first, then review, then an open purchase, then a refusal with its reason", () => {
    expect(orderEnd([attempt("a", A, "r", "NEEDS_REVIEW")], [label("l", A, "s", "T")], undefined)).toBe("labelled");
    expect(orderEnd([attempt("a", A, "r", "REJECTED"), attempt("b", A, "q", "NEEDS_REVIEW")], [], undefined)).toBe("review");
    expect(orderEnd([attempt("a", A, "r", "PENDING")], [], undefined)).toBe("pending");
    expect(orderEnd([attempt("a", A, "r", "UNKNOWN")], [], "rejected")).toBe("pending");
    expect(orderEnd([attempt("a", A, "r", "REJECTED")], [], undefined)).toBe("refused");
    expect(orderEnd([], [], "problems")).toBe("refused");
    expect(orderEnd([], [], "pending")).toBe("lost");
    expect(orderEnd([attempt("a", A, "r", "CREATED")], [], "labelled")).toBe("lost");
  });
});
