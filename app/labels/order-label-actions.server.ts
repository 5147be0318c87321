/**
 * The order label page's actions: parse the form with zod, run the right operation for this shop only, and return
 * a notice (a message key, en/fr) or problems. Never buys without an explicit create / createAdditional intent.
 */
import { z } from "zod";
import type { PrismaClient } from "../generated/prisma/client";
import type { MessageKey } from "../i18n/messages";
import type { Problem } from "../shipping/problems";
import { isShopifyBusy, type AdminGraphqlClient } from "../shopify/admin-client";
import { extractServiceMessage } from "../label-service/errors";
import { labelContextFromAdmin } from "./context.server";
import { LabelServiceUnavailableError } from "./gateway.server";
import { labelOrder, type LabelContext } from "./label-order.server";
import { serviceFieldProblems } from "./order-edits.server";
import { isOutcomeOpen } from "./status";
import { retryFulfillment } from "./fulfill.server";
import { orderGid, overridesFromForm } from "./order-label.server";
import type { LabelServicePort } from "./purchase.server";
import { absenceProven, attachNow, canRelease, reconcileNow, releaseReviewedAttempt } from "./settle.server";
import { voidLabel, type VoidOutcome } from "./void.server";

/** The service's refusal in the merchant's language (the client gives English and French). */
function readableError(error: { message: string; messageFr?: string }, locale: "en" | "fr" = "en"): string {
  return locale === "fr" && error.messageFr ? error.messageFr : error.message;
}

export interface OrderActionResult {
  tone: "success" | "critical" | "warning" | "info";
  notice?: { key: MessageKey; values?: Record<string, string> };
  problems?: Problem[];
  /** The label service's own words (French), shown as a detail under the translated notice. */
  detail?: string;
}

const intentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("create"), box: z.string().optional() }),
  // The slot the page offered: a resubmitted form names a taken slot and gets that label back.
  z.object({ intent: z.literal("createAdditional"), box: z.string().optional(), labelIndex: z.coerce.number().int().min(2) }),
  z.object({ intent: z.literal("retryFulfillment"), labelId: z.string().min(1) }),
  // Confirmed in the page's dialog; never buys (app/labels/void.server.ts).
  z.object({ intent: z.literal("voidLabel"), labelId: z.string().min(1) }),
  // Sender per location (decision 0115): the label of one location of an order shipping from several.
  z.object({ intent: z.literal("createForLocation"), box: z.string().optional(), location: z.string().regex(/^gid:\/\/shopify\/Location\/\d+$/) }),
  z.object({ intent: z.literal("checkAttempt"), attemptId: z.string().min(1) }),
  z.object({ intent: z.literal("releaseAttempt"), attemptId: z.string().min(1) }),
  z.object({ intent: z.literal("attachLabel"), attemptId: z.string().min(1), serviceLabelId: z.string().trim().min(1).max(200) }),
]);

type OrderActionContext = { db: PrismaClient; admin: AdminGraphqlClient; shop: string; orderId: string; locale?: "en" | "fr"; service?: LabelServicePort };

/** The shop's labelling context for this request (environment and settings read once, here). */
function labelContextFor(context: OrderActionContext): Promise<LabelContext> {
  const { service } = context;
  return labelContextFromAdmin(context.shop, context.admin, { database: context.db, ...(service ? { service: async () => service } : {}) });
}

/** The page's action. Shopify's budget staying short past the wait bound is a notice (nothing was bought), not a 500. */
export async function handleOrderLabelAction(context: OrderActionContext, form: FormData): Promise<OrderActionResult> {
  try {
    return await runOrderLabelAction(context, form);
  } catch (error) {
    if (!isShopifyBusy(error)) throw error;
    return { tone: "warning", notice: { key: "shopify.busy.action", values: { seconds: String(Math.max(1, Math.ceil(error.retryAfterMs / 1000))) } } };
  }
}

async function runOrderLabelAction(context: OrderActionContext, form: FormData): Promise<OrderActionResult> {
  const fields = Object.fromEntries([...form.entries()].map(([key, value]) => [key, String(value)]));
  const parsed = intentSchema.safeParse(fields);
  if (!parsed.success) throw new Response("Unknown action", { status: 400 });
  const { db, admin, shop } = context;
  const action = parsed.data;

  if (action.intent === "retryFulfillment") {
    const label = await db.label.findFirst({ where: { id: action.labelId, shop, orderId: orderGid(context.orderId) } });
    if (!label) throw new Response("Not found", { status: 404 });
    const result = await retryFulfillment({ db, admin }, shop, label.id);
    switch (result.status) {
      case "created":
        return { tone: "success", notice: { key: "order.fulfillment.created" } };
      case "failed":
        return { tone: "critical", notice: { key: "order.fulfillment.failed", values: { message: readableError(result, context.locale) } } };
      case "busy":
        return { tone: "warning", notice: { key: "shopify.busy.action", values: { seconds: String(Math.max(1, Math.ceil(result.retryAfterMs / 1000))) } } };
      case "skipped":
        return { tone: "info", notice: { key: "real.fulfillment.skippedTest" } };
      case "in_progress":
        return { tone: "info", notice: { key: "order.inProgress" } };
    }
  }
  if (action.intent === "voidLabel") return voidNotice(await voidLabel({ db, admin }, { shop, labelId: action.labelId, orderId: orderGid(context.orderId) }), context.locale);
  /** An attempt of this shop and order, or 404 (a guessed id finds nothing). */
  const ownAttempt = async (id: string) => {
    const attempt = await db.purchaseAttempt.findFirst({ where: { id, shop, orderId: orderGid(context.orderId) } });
    if (!attempt) throw new Response("Not found", { status: 404 });
    return attempt;
  };
  if (action.intent === "releaseAttempt") {
    const attempt = await ownAttempt(action.attemptId);
    const released = await releaseReviewedAttempt(db, shop, attempt.id);
    if (released) return { tone: "info", notice: { key: "order.attempt.released" } };
    // Not released: settled meanwhile, or its absence from the service's list is not proven (yet).
    const now = await db.purchaseAttempt.findUniqueOrThrow({ where: { id: attempt.id } });
    const open = now.labelId === null && isOutcomeOpen(now.status);
    return { tone: "warning", notice: { key: open ? "order.attempt.notProven" : "order.attempt.alreadySettled" } };
  }
  // Checked before the service is built, so a guessed id gets 404 whatever the shop's account.
  if (action.intent === "checkAttempt" || action.intent === "attachLabel") await ownAttempt(action.attemptId);

  const labelling = await labelContextFor(context);
  const { environment } = labelling;

  if (action.intent === "checkAttempt" || action.intent === "attachLabel") {
    let service: LabelServicePort;
    try {
      service = await labelling.service();
    } catch (error) {
      if (error instanceof LabelServiceUnavailableError) return { tone: "critical", notice: { key: "order.serviceUnavailable", values: { environment } } };
      throw error;
    }
    const deps = { db, admin, service, notifyCustomer: labelling.settings.notifyCustomer };
    if (action.intent === "checkAttempt") {
      const { result } = await reconcileNow(deps, shop, action.attemptId);
      return result.status === "created"
        ? { tone: "success", notice: { key: "order.created", values: { tracking: result.label.trackingNumber } } }
        : {
            tone: "warning",
            notice: {
              key: canRelease(result.attempt) && absenceProven(result.attempt) ? "order.attempt.absent" : result.status === "needs_review" ? "order.attempt.review" : "order.attempt.pending",
              values: { reference: result.attempt.customReference },
            },
          };
    }
    const { result } = await attachNow(deps, shop, action.attemptId, action.serviceLabelId);
    return result.status === "created"
      ? { tone: "success", notice: { key: "order.created", values: { tracking: result.label.trackingNumber } } }
      : { tone: "critical", notice: { key: "order.attach.refused", values: { message: readableError(result.reason, context.locale) } } };
  }

  const outcome = await labelOrder(labelling, {
    orderId: context.orderId,
    labelIndex: action.intent === "createAdditional" ? action.labelIndex : undefined,
    edits: { ...overridesFromForm(fields), box: action.box || undefined },
    ...(action.intent === "createForLocation" ? { location: action.location } : {}),
  });
  switch (outcome.kind) {
    case "blocked":
      return { tone: "critical", problems: outcome.problems };
    case "labelled":
      return { tone: outcome.alreadyLabelled ? "info" : "success", notice: { key: "order.created", values: { tracking: outcome.label.trackingNumber } } };
    case "pending":
      return outcome.reason.code === "purchase_unknown" && outcome.attempt
        ? { tone: "warning", notice: { key: "order.attempt.pending", values: { reference: outcome.attempt.customReference } } }
        : { tone: "info", notice: { key: "order.inProgress" } };
    case "refused": {
      if (outcome.reason.code === "service_unavailable") return { tone: "critical", notice: { key: "order.serviceUnavailable", values: { environment } } };
      if (outcome.reason.code === "shopify_busy") return { tone: "warning", notice: { key: "shopify.busy.action", values: { seconds: outcome.reason.params?.seconds ?? "1" } } };
      const error = outcome.error ?? { message: "", messageFr: "" };
      const said = error.body ? extractServiceMessage(error.body) : {};
      if (!said.text) return { tone: "critical", notice: { key: "order.rejected", values: { message: readableError(error, context.locale) } } };
      const problems = serviceFieldProblems(said.fieldErrors, outcome.attempt?.orderName ?? context.orderId);
      return { tone: "critical", notice: { key: "order.rejected.summary" }, detail: said.text, ...(problems.length ? { problems } : {}) };
    }
  }
}

/** A void's outcome as the page's notice: the label id and reference to quote for a refund are always named. */
export function voidNotice(outcome: VoidOutcome, locale: "en" | "fr" = "en"): OrderActionResult {
  if (outcome.kind === "not_found") throw new Response("Not found", { status: 404 });
  const { label } = outcome;
  const values = { tracking: label.trackingNumber, order: label.orderName, labelId: label.serviceLabelId, reference: label.customReference };
  switch (outcome.kind) {
    case "voided": {
      if (outcome.alreadyVoid) return { tone: "info", notice: { key: "void.already", values } };
      const key = outcome.shopify === "tracking_removed" ? "void.done.trackingRemoved" : outcome.shopify === "none" ? "void.done.notInShopify" : "void.done";
      return { tone: "success", notice: { key, values } };
    }
    case "in_progress":
      return { tone: "info", notice: { key: "void.inProgress", values } };
    case "pushing":
      return { tone: "warning", notice: { key: "void.pushing", values } };
    case "busy":
      return { tone: "warning", notice: { key: "void.busy", values: { ...values, seconds: String(Math.max(1, Math.ceil(outcome.retryAfterMs / 1000))) } } };
    case "failed":
      return { tone: "critical", notice: { key: "void.failed", values: { ...values, message: readableError({ message: outcome.message }, locale) } } };
  }
}
