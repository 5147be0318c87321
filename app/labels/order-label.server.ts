/**
 * The order label page's server side: read the order, map it to a label request (app/shipping), let the merchant
 * adjust the request before purchase. The purchase itself is labelOrder (label-order.server.ts); the page's other
 * actions are the flow's own: retry the Shopify step (fulfill.server.ts), check, attach or release an unresolved
 * purchase (settle.server.ts).
 */
import { locationOfFulfillmentOrder, settingsForLocation } from "../shipping/location-sender";
import { pageLocations, type PageLocation } from "./location-label.server";
import { z } from "zod";
import type { PrismaClient, Label, PurchaseAttempt } from "../generated/prisma/client";
import type { LabelRequest } from "../label-service/contract";
import { isParcelFulfillmentOrder, mapOrderToLabelRequest, type OfferedService, type Problem, type ServiceChoice } from "../shipping";
import type { AdminGraphqlClient } from "../shopify/admin-client";
import { fetchOrderForLabel, type OrderForLabel } from "../shopify/operations/order-for-label";
import { getEnvironment } from "../settings/environment.server";
import { loadShippingSettings } from "../settings/shipping-settings.server";
import type { LabelEnvironment } from "./environments";
import { toE164 } from "../shipping/phone";
import { firstPerPath } from "./order-edit-fields";
import { checkOrderEdits, previewAsEdits, toCommaAmount } from "./order-edits.server";
import { nextLabelIndex } from "./purchase.server";
import { isLiveLabel } from "./status";
import { customsDescriptionsForOrder } from "./customs-descriptions.server";

/** A placeholder reference for previews; the real one is allocated at purchase time. */
export const PREVIEW_REFERENCE = "00000000-000";

export function orderGid(id: string): string {
  return /^[0-9]+$/.test(id) ? `gid://shopify/Order/${id}` : id;
}

export interface OrderLabelView {
  order: OrderForLabel;
  environment: LabelEnvironment;
  request: LabelRequest | undefined;
  /** The request as it would be sent, shown even when a problem blocks it. */
  preview: LabelRequest | undefined;
  problems: Problem[];
  labels: Label[];
  attempts: PurchaseAttempt[];
  notifyCustomer: boolean;
  boxes: string[];
  selectedBox: string | undefined;
  /** False inside one customs territory (domestic, EU to EU): the CN23 lines are informative only. */
  customsRequired: boolean;
  fulfillmentOrderId: string | undefined;
  /** The label slot an "additional label" form on this page would take; sent back so a resubmit is recognised. */
  nextLabelIndex: number;
  /** What the carrier-service lookup lists for the destination country; undefined when it could not be read. */
  offeredServices: OfferedService[] | undefined;
  /** Who chose the service shown: a shipping rule, the zone's default, or the merchant's pick in the URL. */
  serviceChoice: ServiceChoice | undefined;
  /** An order shipping from several locations: each with its sender and labels (decision 0115); else undefined. */
  locations: PageLocation[] | undefined;
  /** The location of the fulfillment order the preview ships (its sender is the preview's). */
  previewLocation: string | null;
  customsLines: { productId: string | null; title: string; saved: boolean }[];
}

/** The carrier-service lookup for one destination country; undefined (or a throw) when it cannot be read. */
export type ServiceLookup = (country: string, environment: LabelEnvironment) => Promise<OfferedService[] | undefined>;

/** The lookup's answer for the order's destination country, or undefined when there is none to check against. */
export async function offeredFor(order: OrderForLabel, environment: LabelEnvironment, lookup: ServiceLookup | undefined) {
  const country = order.shippingAddress?.countryCodeV2?.trim().toUpperCase();
  if (!country || !lookup) return undefined;
  try {
    return await lookup(country, environment);
  } catch {
    return undefined;
  }
}

/** Everything the page shows, for one order of this shop. Null when Shopify does not know the order. */
export async function loadOrderLabel(
  db: PrismaClient,
  admin: AdminGraphqlClient,
  shop: string,
  orderId: string,
  options: { boxName?: string; carrierName?: string; serviceName?: string; lookupServices?: ServiceLookup } = {},
): Promise<OrderLabelView | null> {
  const id = orderGid(orderId);
  const [order, settings, { environment }, labels, attempts, nextIndex] = await Promise.all([
    fetchOrderForLabel(admin, id),
    loadShippingSettings(db, shop),
    getEnvironment(db, shop),
    db.label.findMany({ where: { shop, orderId: id }, orderBy: { createdAt: "asc" } }),
    db.purchaseAttempt.findMany({ where: { shop, orderId: id }, orderBy: { createdAt: "asc" } }),
    nextLabelIndex(db, shop, id),
  ]);
  if (!order) return null;
  const fulfillmentOrderId = openFulfillmentOrderId(order);
  const carrier =
    options.carrierName && options.serviceName ? { carrierName: options.carrierName, serviceName: options.serviceName } : undefined;
  const [offeredServices, customsDescriptions] = await Promise.all([
    offeredFor(order, environment, options.lookupServices),
    customsDescriptionsForOrder(db, shop, order),
  ]);
  const mapped = mapOrderToLabelRequest({
    order,
    settings: settingsForLocation(settings, locationOfFulfillmentOrder(order, fulfillmentOrderId)),
    fulfillmentOrderId,
    // Labelled and nothing left to ship: the draft of an explicit additional parcel (whole order).
    wholeOrder: labels.some(isLiveLabel) && !fulfillmentOrderId,
    boxName: options.boxName,
    carrier,
    customReference: PREVIEW_REFERENCE,
    offeredServices,
    customsDescriptions,
  });
  return {
    order,
    environment,
    request: mapped.request,
    preview: mapped.preview,
    // What a purchase would refuse, shown before the click: the mapper's problems, then the carrier limits that the
    // order's own values break (a 50-character street from Shopify, an item weighing 0 g).
    problems: [
      ...firstPerPath([
        ...mapped.problems.filter((problem) => problem.severity === "blocking"),
        ...(mapped.preview ? checkOrderEdits(mapped.preview, previewAsEdits(mapped.preview, { customsRequired: mapped.draft?.customsRequired ?? true }), order.name) : []),
      ]),
      ...mapped.problems.filter((problem) => problem.severity === "warning"),
    ],
    labels,
    attempts,
    notifyCustomer: settings.notifyCustomer,
    boxes: settings.boxes.map((box) => box.name),
    // An unknown box in the URL is not offered as selected: the mapper used (and named) the default one.
    selectedBox: mapped.draft?.box.name ?? settings.boxes.find((box) => box.isDefault)?.name,
    customsRequired: mapped.draft?.customsRequired ?? false,
    serviceChoice: mapped.draft?.serviceChoice,
    // The product behind each CN23 line (in the request's order), for the line's "Save for this product".
    customsLines: (mapped.draft?.lines ?? []).map((line) => ({ productId: line.productId ?? null, title: line.title, saved: line.customsDescription !== undefined })),
    fulfillmentOrderId,
    nextLabelIndex: nextIndex,
    offeredServices,
    locations: pageLocations(order, settings, labels),
    previewLocation: locationOfFulfillmentOrder(order, fulfillmentOrderId),
  };
}

/** The first fulfillment order that can still be fulfilled (the parcel this label ships). */
export function openFulfillmentOrderId(order: OrderForLabel): string | undefined {
  return order.fulfillmentOrders.nodes.find(isParcelFulfillmentOrder)?.id;
}

/** Fields the merchant may change on the page before buying. Empty values keep the mapped ones. */
export const requestOverridesSchema = z.object({
  weight: z.string().optional(),
  width: z.string().optional(),
  height: z.string().optional(),
  length: z.string().optional(),
  description: z.string().optional(),
  carrier_name: z.string().optional(),
  carrier_service_name: z.string().optional(),
  "recipient.firstname": z.string().optional(),
  "recipient.lastname": z.string().optional(),
  "recipient.company_name": z.string().optional(),
  "recipient.address_line1": z.string().optional(),
  "recipient.address_line2": z.string().optional(),
  "recipient.zip": z.string().optional(),
  "recipient.city": z.string().optional(),
  "recipient.phone1": z.string().optional(),
  "recipient.email": z.string().optional(),
  "cn23.category": z.string().optional(),
  "cn23.shipping_price": z.string().optional(),
  /** `cn23.products.<index>.<field>` for the editable product fields. */
  products: z
    .record(z.string(), z.partialRecord(z.enum(["description", "unit_price", "weight", "country_code", "hs_code"]), z.string()))
    .optional(),
});
export type RequestOverrides = z.infer<typeof requestOverridesSchema>;

const PRODUCT_FIELD = /^cn23\.products\.([0-9]{1,3})\.(description|unit_price|weight|country_code|hs_code)$/;

/** Form fields -> overrides (flat fields, and the CN23 product fields grouped by line). */
export function overridesFromForm(fields: Record<string, string>): RequestOverrides {
  const products: Record<string, Record<string, string>> = {};
  for (const [key, value] of Object.entries(fields)) {
    const match = PRODUCT_FIELD.exec(key);
    if (match) (products[match[1]!] ??= {})[match[2]!] = value;
  }
  return requestOverridesSchema.parse({ ...fields, products });
}

const EDITABLE_PROBLEM_PATH = /^cn23_data\.products\[([0-9]+)\]\.(hs_code|country_code)$/;
/** Mapper problems about a field the merchant can type on the page (the fix says "type it here"). */
const TYPED_FIELD_PROBLEM: Record<string, keyof RequestOverrides> = {
  "recipient.lastname": "recipient.lastname",
  "recipient.address_line1": "recipient.address_line1",
  "recipient.city": "recipient.city",
  "recipient.zip": "recipient.zip",
  "recipient.email": "recipient.email",
  weight: "weight",
};

/**
 * A problem the merchant can resolve by typing in the page's form instead of fixing the order in Shopify; a service
 * not sold to the destination is replaced by choosing another in the page's service list (checked again at purchase).
 */
export function isEditableProblem(problem: Problem): boolean {
  return (
    problem.code.startsWith("edit_") ||
    problem.code === "service_not_offered" ||
    EDITABLE_PROBLEM_PATH.test(problem.path) ||
    problem.path === "cn23_data.shipping_price" ||
    problem.path in TYPED_FIELD_PROBLEM
  );
}

/** True when the merchant typed a value for the problem's field (the edit checks then judge that value). */
export function resolvedByEdit(problem: Problem, overrides: RequestOverrides): boolean {
  if (problem.path === "cn23_data.shipping_price") return Boolean(overrides["cn23.shipping_price"]?.trim());
  const typedField = TYPED_FIELD_PROBLEM[problem.path];
  if (typedField) return Boolean((overrides[typedField] as string | undefined)?.trim());
  const match = EDITABLE_PROBLEM_PATH.exec(problem.path);
  if (!match) return false;
  const value = overrides.products?.[match[1]!]?.[match[2] as "hs_code" | "country_code"];
  return Boolean(value?.trim());
}

/** Applies the merchant's edits to a mapped request. Blank fields keep the mapped value; line 2 may be cleared. */
export function applyOverrides(request: LabelRequest, overrides: RequestOverrides): LabelRequest {
  const next: LabelRequest = { ...request, recipient: { ...request.recipient } };
  const set = (value: string | undefined, apply: (trimmed: string) => void, allowEmpty = false) => {
    if (value === undefined) return;
    const trimmed = value.trim();
    if (trimmed || allowEmpty) apply(trimmed);
  };
  set(overrides.weight, (value) => (next.weight = value));
  set(overrides.width, (value) => (next.width = value));
  set(overrides.height, (value) => (next.height = value));
  set(overrides.length, (value) => (next.length = value));
  set(overrides.description, (value) => (next.description = value));
  set(overrides.carrier_name, (value) => (next.carrier_name = value));
  set(overrides.carrier_service_name, (value) => (next.carrier_service_name = value));
  const recipient = next.recipient;
  set(overrides["recipient.firstname"], (value) => (recipient.firstname = value), true);
  set(overrides["recipient.lastname"], (value) => (recipient.lastname = value));
  set(overrides["recipient.company_name"], (value) => (recipient.company_name = value || undefined), true);
  set(overrides["recipient.address_line1"], (value) => (recipient.address_line1 = value));
  set(overrides["recipient.address_line2"], (value) => (recipient.address_line2 = value || undefined), true);
  set(overrides["recipient.zip"], (value) => (recipient.zip = value));
  set(overrides["recipient.city"], (value) => (recipient.city = value));
  set(overrides["recipient.phone1"], (value) => (recipient.phone1 = value ? (toE164(value, recipient.country) ?? value) : undefined), true);
  set(overrides["recipient.email"], (value) => (recipient.email = value));
  if (next.cn23_data) {
    const cn23 = { ...next.cn23_data, products: next.cn23_data.products.map((product) => ({ ...product })) };
    set(overrides["cn23.category"], (value) => (cn23.category = value as typeof cn23.category));
    set(overrides["cn23.shipping_price"], (value) => (cn23.shipping_price = toCommaAmount(value) ?? value));
    for (const [index, edits] of Object.entries(overrides.products ?? {})) {
      const product = cn23.products[Number(index)];
      if (!product) continue;
      set(edits.description, (value) => (product.description = value));
      set(edits.unit_price, (value) => (product.unit_price = toCommaAmount(value) ?? value));
      set(edits.weight, (value) => (product.weight = value));
      set(edits.country_code, (value) => (product.country_code = value.toUpperCase()));
      set(edits.hs_code, (value) => (product.hs_code = value.replace(/[^0-9]/g, "") || undefined), true);
    }
    next.cn23_data = cn23;
  }
  return next;
}
