import { describe, expect, it } from "vitest";
import type { Label } from "../generated/prisma/client";
import { combineLocationOutcomes } from "./every-location.server";
import type { LabelOrderOutcome } from "./label-order.server";

const label = (id: string) => ({ id, trackingNumber: `6A${id}` }) as Label;
const labelled = (id: string, extra: Partial<Extract<LabelOrderOutcome, { kind: "labelled" }>> = {}): LabelOrderOutcome => ({
  kind: "labelled",
  label: label(id),
  alreadyLabelled: false,
  fulfillment: { status: "created", adopted: false },
  ...extra,
});
const blocked: LabelOrderOutcome = { kind: "blocked", problems: [] };
const pending: LabelOrderOutcome = { kind: "pending", attempt: null, reason: { code: "purchase_unknown", params: { reference: "r" } } };
const refused = (retryable: boolean): LabelOrderOutcome => ({ kind: "refused", retryable, reason: { code: retryable ? "service_rate_limited" : "service_refused" } });

describe("combineLocationOutcomes (a bulk item labelling each location of its order)", () => {
  it("is labelled only when every location is, and names the first label", () => {
    const outcome = combineLocationOutcomes([labelled("paris"), labelled("lyon")]);
    expect(outcome).toMatchObject({ kind: "labelled", label: { id: "paris" }, alreadyLabelled: false });
  });

  it("is 'already labelled' only when no location was bought now", () => {
    expect(combineLocationOutcomes([labelled("p", { alreadyLabelled: true }), labelled("l", { alreadyLabelled: true })])).toMatchObject({ alreadyLabelled: true });
    expect(combineLocationOutcomes([labelled("p", { alreadyLabelled: true }), labelled("l")])).toMatchObject({ alreadyLabelled: false });
  });

  it("reports a location's failed fulfillment even when the first location's went through", () => {
    const failed = { status: "failed" as const, reason: { code: "fulfillment_failed" } };
    expect(combineLocationOutcomes([labelled("p"), labelled("l", { fulfillment: failed })])).toMatchObject({ kind: "labelled", fulfillment: failed });
  });

  it("puts what must be acted on first: a retryable refusal, then money in doubt, then refusals, then blocks", () => {
    expect(combineLocationOutcomes([labelled("p"), blocked, pending, refused(true)])).toMatchObject({ kind: "refused", retryable: true });
    expect(combineLocationOutcomes([labelled("p"), blocked, refused(false), pending])).toMatchObject({ kind: "pending" });
    expect(combineLocationOutcomes([blocked, refused(false)])).toMatchObject({ kind: "refused", retryable: false });
    expect(combineLocationOutcomes([labelled("p"), blocked])).toMatchObject({ kind: "blocked" });
  });
});
