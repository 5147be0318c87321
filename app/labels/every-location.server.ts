/**
 * Every location of an order shipping from several (decision 0115): one `labelOrder` call per location, each in its
 * own slot, so a bulk job's item labels the whole order. The item's outcome is the one the merchant must act on
 * first; a location already labelled answers from its slot and is never bought again on a retry.
 */
import type { OrderForLabel } from "../shopify/operations/order-for-label";
import { labelOrder, type LabelContext, type LabelOrderOutcome, type LabelOrderResult } from "./label-order.server";

/** What to report for an order labelled per location: the outcome that needs acting on first, else the labels. */
export function combineLocationOutcomes(outcomes: readonly LabelOrderOutcome[]): LabelOrderOutcome {
  if (outcomes.length === 0) throw new Error("no outcome to combine");
  const first = <K extends LabelOrderOutcome["kind"]>(kind: K, test: (outcome: Extract<LabelOrderOutcome, { kind: K }>) => boolean = () => true) =>
    outcomes.find((outcome): outcome is Extract<LabelOrderOutcome, { kind: K }> => outcome.kind === kind && test(outcome as Extract<LabelOrderOutcome, { kind: K }>));
  // A retryable refusal first (the item is run again; labelled locations answer from their slots), then money in
  // doubt, then refusals and blocks that need the merchant.
  const chosen = first("refused", (outcome) => outcome.retryable) ?? first("pending") ?? first("refused") ?? first("blocked");
  if (chosen) return chosen;
  const labelled = outcomes.filter((outcome): outcome is Extract<LabelOrderOutcome, { kind: "labelled" }> => outcome.kind === "labelled");
  const failed = labelled.find((outcome) => outcome.fulfillment?.status === "failed");
  return { ...labelled[0]!, alreadyLabelled: labelled.every((outcome) => outcome.alreadyLabelled), fulfillment: (failed ?? labelled[0]!).fulfillment };
}

/**
 * After a first `labelOrder(context, { orderId })` that listed the order's locations: labels each location not yet
 * labelled by that call, and returns the combined outcome (with every label bought, in location order). `order`: the
 * fresh read the first call was given (a bulk item's, decision 0184), so no location reads the order again.
 */
export async function labelEveryLocation(
  context: LabelContext,
  orderId: string,
  firstCall: LabelOrderResult,
  order?: OrderForLabel,
): Promise<{ outcome: LabelOrderOutcome; labels: string[] }> {
  const outcomes: LabelOrderOutcome[] = [firstCall];
  const done = firstCall.kind === "labelled" ? firstCall.label.fulfillmentOrderId : null;
  for (const location of firstCall.locations ?? []) {
    if (!location.locationId || (done && location.fulfillmentOrderIds.includes(done))) continue;
    outcomes.push(await labelOrder(context, { orderId, location: location.locationId, order }));
  }
  const labels = outcomes.flatMap((outcome) => (outcome.kind === "labelled" ? [outcome.label.id] : []));
  return { outcome: combineLocationOutcomes(outcomes), labels };
}
