/**
 * The order-details action's backend: the draft's summary with its blocking problems (read only, nothing bought),
 * and "Create label" through the one labelling unit (`labelOrder`). Texts are produced here in the caller's language
 * so the extension bundle carries no message catalogue.
 */
import type { Label, PrismaClient } from "../generated/prisma/client";
import type { Locale } from "../i18n/locale";
import { shopifyTrackingInfo } from "../labels/carriers";
import { labelServiceClientFor } from "../labels/gateway.server";
import { labelEveryLocation } from "../labels/every-location.server";
import { labelOrder, type LabelContext } from "../labels/label-order.server";
import { loadOrderLabel, type ServiceLookup } from "../labels/order-label.server";
import { reasonText } from "../labels/reasons";
import { isLiveLabel } from "../labels/status";
import { countryName } from "../shipping/problem-texts";
import type { AdminGraphqlClient } from "../shopify/admin-client";
import type { CreateLabelAnswer, OrderLabelState, OrderLabelSummary } from "./order-label-api";

/** An order id as the extension sends it: Shopify's numeric id, or the full GID. */
export const ORDER_ID_PATTERN = /^(?:[0-9]{1,20}|gid:\/\/shopify\/Order\/[0-9]{1,20})$/;

const IN_FLIGHT = new Set(["PENDING", "UNKNOWN", "NEEDS_REVIEW"]);

function labelOf(label: Label): OrderLabelSummary["labels"][number] {
  return { id: label.id, trackingNumber: label.trackingNumber, trackingUrl: label.trackingUrl ?? null };
}

function pendingNote(locale: Locale, reference: string): string {
  return reasonText({ code: "purchase_unknown", params: { reference } }, locale);
}

export async function loadOrderLabelSummary(
  db: PrismaClient,
  admin: AdminGraphqlClient,
  shop: string,
  orderId: string,
  locale: Locale,
  options: { lookupServices?: ServiceLookup } = {},
): Promise<OrderLabelSummary | null> {
  const view = await loadOrderLabel(db, admin, shop, orderId, {
    lookupServices:
      options.lookupServices ??
      (async (country, environment) => {
        try {
          return await (await labelServiceClientFor(shop, environment)).carrierServices(country);
        } catch {
          return undefined;
        }
      }),
  });
  if (!view) return null;
  const blocking = view.problems.filter((problem) => problem.severity === "blocking");
  const inFlight = view.attempts.filter((attempt) => IN_FLIGHT.has(attempt.status));
  let state: OrderLabelState;
  // A void label is history (decision 0112): not the order's label, never offered to print.
  const live = view.labels.filter(isLiveLabel);
  if (!view.fulfillmentOrderId) state = live.length > 0 ? "labelled" : "nothing_to_ship";
  else if (inFlight.length > 0) state = "pending";
  else if (blocking.length > 0) state = "blocked";
  else state = "ready";

  const preview = view.preview;
  const services = view.offeredServices ?? [];
  const serviceName = (carrier: string, service: string) =>
    services.find((entry) => (entry.carrier || carrier) === carrier && entry.name === service)?.label ?? `${shopifyTrackingInfo(carrier, "", "").company} ${service}`;
  const recipient = preview?.recipient;
  const weight = preview ? Number(preview.weight) : NaN;
  return {
    orderId: view.order.id,
    orderName: view.order.name,
    environment: view.environment,
    state,
    draft: preview && recipient
      ? {
          recipient: {
            name: [recipient.firstname, recipient.lastname, recipient.company_name ? `(${recipient.company_name})` : ""].filter(Boolean).join(" "),
            lines: [recipient.address_line1, recipient.address_line2 ?? "", `${recipient.zip} ${recipient.city}`.trim()].filter(Boolean),
            country: countryName(recipient.country, locale),
          },
          parcel: { box: view.selectedBox ?? null, weightGrams: Number.isFinite(weight) ? weight : null },
          service: serviceName(preview.carrier_name, preview.carrier_service_name),
          customsRequired: view.customsRequired,
        }
      : null,
    problems: blocking.map((problem) => ({ message: problem.message[locale], fix: problem.fix[locale] })),
    note: state === "pending" ? pendingNote(locale, inFlight[0]?.customReference ?? "?") : null,
    labels: live.map(labelOf),
  };
}

/** "Create label": one call of the labelling unit; never retried here (a purchase is never retried automatically). */
export async function createOrderLabel(context: LabelContext, orderId: string, locale: Locale): Promise<CreateLabelAnswer> {
  const first = await labelOrder(context, { orderId });
  // Sender per location (decision 0115): an order shipping from several locations gets a label for each.
  const outcome = first.locations ? (await labelEveryLocation(context, orderId, first)).outcome : first;
  switch (outcome.kind) {
    case "labelled":
      return {
        outcome: "labelled",
        alreadyLabelled: outcome.alreadyLabelled,
        label: labelOf(outcome.label),
        note: outcome.fulfillment?.status === "failed" ? reasonText(outcome.fulfillment.reason, locale) : null,
      };
    case "blocked":
      return {
        outcome: "blocked",
        problems: outcome.problems.filter((problem) => problem.severity === "blocking").map((problem) => ({ message: problem.message[locale], fix: problem.fix[locale] })),
      };
    case "refused":
      return { outcome: "refused", retryable: outcome.retryable, message: reasonText(outcome.reason, locale) };
    case "pending":
      return { outcome: "pending", message: reasonText(outcome.reason, locale) };
  }
}
