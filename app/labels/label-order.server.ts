/**
 * One labelling unit: `labelOrder(context, { orderId, labelIndex?, edits? })`. The order page, a bulk job's item and
 * the admin extensions all call it, so one order bought from a job has exactly the single-order guarantees (the
 * order's label slot, the reference written before the call, no retry of a purchase, the unknown reconciled).
 *
 * The outcome is typed and its reasons are data (a code plus parameters, translated at display):
 *  - labelled: a label is stored for the slot (bought now, or already there), with the Shopify step's own state;
 *  - blocked: the order cannot be labelled as it is (the mapper's problems); nothing was sent;
 *  - refused: the service refused or could not be asked; nothing was charged. `retryable` when trying again later
 *    may work unchanged (a 429, Shopify busy, the service down before the call);
 *  - pending: the outcome is unknown (or another caller holds the slot); the reconciler settles it.
 */
import type { Label, PrismaClient, PurchaseAttempt } from "../generated/prisma/client";
import type { OfferedService, Problem } from "../shipping";
import type { ShippingSettings } from "../shipping/settings";
import { isShopifyBusy, type AdminGraphqlClient } from "../shopify/admin-client";
import type { LabelEnvironment } from "./environments";
import type { FulfillResult } from "./fulfill.server";
import { createLabelForOrder, type RequestOverrides } from "./order-label.server";
import type { LabelServicePort, OutcomeError } from "./purchase.server";
import type { Reason } from "./reasons";

export type { Reason };

/** Everything one shop's labelling needs, built once per request, per job or per reconciler pass. */
export interface LabelContext {
  shop: string;
  db: PrismaClient;
  admin: AdminGraphqlClient;
  /** Frozen for a bulk job at its creation; the shop's current one for a page. */
  environment: LabelEnvironment;
  /** The settings snapshot the labels are mapped with. */
  settings: ShippingSettings;
  /** The label-service client for this shop and environment (built lazily: blocked orders never need it). */
  service: () => Promise<LabelServicePort & { carrierServices?: (country: string) => Promise<OfferedService[]> }>;
}

export type FulfillmentState =
  | { status: "created"; adopted: boolean }
  | { status: "in_progress" }
  | { status: "failed"; reason: Reason }
  /** A test label kept out of Shopify (decision 0170). */
  | { status: "skipped"; reason: Reason };

export type LabelOrderOutcome =
  | { kind: "labelled"; label: Label; alreadyLabelled: boolean; fulfillment: FulfillmentState | null }
  | { kind: "blocked"; problems: Problem[] }
  | { kind: "refused"; retryable: boolean; reason: Reason; attempt?: PurchaseAttempt; error?: OutcomeError }
  | { kind: "pending"; attempt: PurchaseAttempt | null; reason: Reason };

export interface LabelOrderInput {
  orderId: string;
  /** An additional label: the slot the caller expects (a resubmit naming a taken slot gets that label back). */
  labelIndex?: number;
  /** The merchant's edits from the order page; a job sends none. */
  edits?: RequestOverrides & { box?: string };
}

function fulfillmentState(result: FulfillResult | undefined): FulfillmentState | null {
  if (!result) return null;
  if (result.status === "created") return { status: "created", adopted: result.adopted };
  if (result.status === "in_progress") return { status: "in_progress" };
  if (result.status === "skipped") return { status: "skipped", reason: { code: "test_label_not_fulfilled", params: {} } };
  return { status: "failed", reason: { code: "fulfillment_failed", params: { message: result.message, messageFr: result.messageFr } } };
}

/** A refusal that may pass unchanged later: rate limited, or the service answered it could not process now. */
function retryableRefusal(error: OutcomeError): boolean {
  return error.httpStatus === 429 || error.kind === "rate_limited";
}

export async function labelOrder(context: LabelContext, input: LabelOrderInput): Promise<LabelOrderOutcome> {
  let service: Awaited<ReturnType<LabelContext["service"]>>;
  try {
    service = await context.service();
  } catch (error) {
    const code = (error as { code?: string }).code;
    return { kind: "refused", retryable: false, reason: { code: "service_unavailable", params: { environment: context.environment, ...(code ? { cause: code } : {}) } } };
  }
  const { box, ...overrides } = input.edits ?? {};
  const additional = input.labelIndex !== undefined && input.labelIndex > 1;
  try {
    const outcome = await createLabelForOrder(
      { db: context.db, admin: context.admin, service, environment: context.environment, settings: context.settings },
      { shop: context.shop, orderId: input.orderId, boxName: box || undefined, overrides, additional, labelIndex: additional ? input.labelIndex : undefined },
    );
    if (outcome.status === "problems") return { kind: "blocked", problems: outcome.problems };
    const purchase = outcome.purchase;
    switch (purchase.status) {
      case "created":
        return { kind: "labelled", label: purchase.label, alreadyLabelled: false, fulfillment: fulfillmentState(outcome.fulfillment) };
      case "already_labelled":
        return { kind: "labelled", label: purchase.label, alreadyLabelled: true, fulfillment: null };
      case "in_progress":
        return { kind: "pending", attempt: purchase.attempt, reason: { code: "purchase_in_progress", params: { reference: purchase.attempt.customReference } } };
      case "unknown":
        return { kind: "pending", attempt: purchase.attempt, reason: { code: "purchase_unknown", params: { reference: purchase.attempt.customReference } } };
      case "rejected":
        return {
          kind: "refused",
          retryable: retryableRefusal(purchase.error),
          attempt: purchase.attempt,
          error: purchase.error,
          reason: { code: "service_refused", params: { message: purchase.error.message, messageFr: purchase.error.messageFr ?? purchase.error.message } },
        };
    }
  } catch (error) {
    // Shopify's budget stayed short past the wait bound. Before the purchase nothing was bought; after it the label
    // is stored and its Shopify step is picked up by the background pass. Either way: try again later.
    if (isShopifyBusy(error)) {
      return { kind: "refused", retryable: true, reason: { code: "shopify_busy", params: { seconds: String(Math.max(1, Math.ceil(error.retryAfterMs / 1000))) } } };
    }
    throw error;
  }
}
