/**
 * Order (as read by ORDER_FOR_LABEL_QUERY) -> shipment draft -> label request. Pure: no I/O, no clock. Bad data
 * never throws: it becomes a named problem (blocking or warning) with a fix, in English and French, from the catalogue
 * of problem texts (./problem-texts.ts) so it can be stored as a code plus parameters and shown again later.
 */
import { z } from "zod";
import type { Cn23Product, LabelRequest } from "../label-service/contract";
import { CARRIERS_REQUIRING_DIMENSIONS, labelRequestSchema } from "../label-service/contract";
import type { OrderForLabel, OrderLineItem } from "../shopify/operations/order-for-label";
import { checkPostcode, isKnownCountry } from "./address";
import { recipientAddressProblems } from "./address-problems";
import { customsRequired, destinationZone } from "./customs";
import { isParcelFulfillmentOrder } from "./fulfillment-orders";
import { divideHalfUp, formatComma, toCents } from "./money";
import { toE164 } from "./phone";
import { hasBlocking, type Problem } from "./problems";
import type { Box, CarrierChoice, ShippingSettings } from "./settings";
import { problem, type ProblemCode, type ProblemParams } from "./problem-texts";
import { chooseService } from "./rules";
import { isOffered, serviceNotOfferedProblem, type OfferedService } from "./services";
import { toGrams } from "./units";
import { carrierDisplayName, wantsEnglishCustomsDescriptions } from "./carriers";
import type { ServiceChoice } from "./service-choice";

export interface DraftLine {
  lineItemId: string;
  title: string;
  quantity: number;
  unitPriceCents: bigint;
  currency: string;
  unitWeightGrams: number;
  originCountry?: string;
  hsCode?: string;
  /** The line's product (absent for a custom item or a deleted product). */
  productId?: string;
  /** The merchant's saved English description of that product: the CN23 line's description instead of the title. */
  customsDescription?: string;
}

export type { ServiceChoice };

export interface ShipmentDraft {
  orderId: string;
  orderName: string;
  /** Undefined for a replacement parcel of an order that has nothing left to ship. */
  fulfillmentOrderId?: string;
  carrier: CarrierChoice;
  serviceChoice: ServiceChoice;
  /** From a shipping rule: the insured value, in cents, sent as the service's insured value. */
  insuredValueCents?: number;
  box: Box;
  weightGrams: number;
  description: string;
  customsRequired: boolean;
  shippingPriceCents: bigint;
  shippingCurrency: string;
  lines: DraftLine[];
  sender: LabelRequest["sender"];
  recipient: LabelRequest["recipient"];
}

export interface MapInput {
  order: OrderForLabel;
  settings: ShippingSettings;
  /** The fulfillment order this parcel ships; the first one with something left to ship when omitted. */
  fulfillmentOrderId?: string;
  /**
   * A replacement or extra parcel for an order with nothing left to ship: every shippable line at its current
   * quantity. Only for the merchant's explicit "additional label" action.
   */
  wholeOrder?: boolean;
  boxName?: string;
  carrier?: CarrierChoice;
  /**
   * What the label service's carrier-service lookup lists for the destination country. When given, a carrier choice
   * (the zone's default or the merchant's) outside it blocks before purchase; unknown (lookup failed) checks nothing.
   */
  offeredServices?: readonly OfferedService[];
  /**
   * The merchant's English customs descriptions by product id (app/labels/customs-descriptions.server.ts). When given,
   * a customs line of a carrier that wants English (DHL) without one is a warning; undefined (not read) checks nothing.
   */
  customsDescriptions?: ReadonlyMap<string, string>;
}

/** Built once: a zod schema costs more to build than to run. */
const EMAIL = z.email();

/** Country codes whose postcodes are written in capitals (letters in them). */
const UPPERCASE_ZIP = new Set(["GB", "CA", "NL", "IE", "JE", "GG", "IM", "MT", "AR", "BN", "KZ", "PE", "SZ", "SO"]);

function normaliseZip(zip: string, country: string): string {
  const trimmed = zip.trim().replace(/\s+/g, " ");
  return UPPERCASE_ZIP.has(country) ? trimmed.toUpperCase() : trimmed;
}

/** Two-word split of a full name: everything but the last word is the first name. */
export function splitName(name: string): { firstname: string; lastname: string } {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length <= 1) return { firstname: "", lastname: words[0] ?? "" };
  return { firstname: words.slice(0, -1).join(" "), lastname: words.at(-1)! };
}

/** An English summary of the contents, e.g. "2x Tea, 1x Mug", cut at a word boundary. */
export function describeContents(lines: readonly { title: string; quantity: number }[], maxLength: number): string {
  const full = lines.map((line) => `${line.quantity}x ${line.title.trim()}`).join(", ");
  if (full.length <= maxLength) return full;
  const cut = full.slice(0, maxLength - 1);
  const atBoundary = /[ ,]/.test(full[maxLength - 1] ?? "");
  const space = cut.lastIndexOf(" ");
  const kept = atBoundary || space <= maxLength / 2 ? cut : cut.slice(0, space);
  return `${kept.replace(/[ ,]+$/, "")}…`;
}

class Collector {
  readonly problems: Problem[] = [];
  constructor(private readonly orderName: string) {}

  /** A problem from the catalogue (./problem-texts.ts): its severity and sentences come from its code and params. */
  add(code: ProblemCode, path: string, params?: ProblemParams): void {
    this.problems.push(problem(code, { path, orderName: this.orderName, ...(params ? { params } : {}) }));
  }
}

function pickFulfillmentOrder(order: OrderForLabel, wanted: string | undefined) {
  const open = order.fulfillmentOrders.nodes.filter(isParcelFulfillmentOrder);
  return wanted ? open.find((fulfillmentOrder) => fulfillmentOrder.id === wanted) : open[0];
}

export function buildShipmentDraft(input: MapInput): { draft?: ShipmentDraft; problems: Problem[] } {
  const { order, settings } = input;
  const found = new Collector(order.name);
  const name = order.name;

  if (order.cancelledAt) {
    found.add("order_cancelled", "order");
  }
  const fulfillmentOrder = pickFulfillmentOrder(order, input.fulfillmentOrderId);
  const wholeOrder = !fulfillmentOrder && input.wholeOrder === true;
  if (!fulfillmentOrder && !wholeOrder) {
    found.add("nothing_to_ship", "fulfillmentOrders");
  }

  // Recipient.
  const address = order.shippingAddress;
  const country = address?.countryCodeV2?.trim().toUpperCase() ?? "";
  if (!address || !country) {
    found.add("no_shipping_address", "recipient");
  }
  let firstname = address?.firstName?.trim() ?? "";
  let lastname = address?.lastName?.trim() ?? "";
  if (!lastname && address?.name?.trim()) ({ firstname, lastname } = splitName(address.name));
  const company = address?.company?.trim() || undefined;
  if (!lastname && company) {
    lastname = company;
    firstname = "";
  }
  if (address && !lastname) {
    found.add("recipient_name_missing", "recipient.lastname");
  }
  let line1 = address?.address1?.trim() ?? "";
  let line2 = address?.address2?.trim() || undefined;
  if (address && !line1 && line2) {
    line1 = line2;
    line2 = undefined;
  }
  if (address && !line1) {
    found.add("address_line1_missing", "recipient.address_line1");
  }
  if (line2 && settings.foldAddressLine2) {
    line1 = `${line1}, ${line2}`;
    line2 = undefined;
  }
  if (line1.length > 35) {
    found.add("address_line_long", "recipient.address_line1", { length: String(line1.length) });
  }
  const city = address?.city?.trim() ?? "";
  if (address && !city) {
    found.add("city_missing", "recipient.city");
  }
  const zip = normaliseZip(address?.zip ?? "", country);
  if (address && country) found.problems.push(...recipientAddressProblems({ orderName: name, country, zip, city: address.city ?? "" }));
  const email = order.email?.trim() ?? "";
  if (!email) {
    found.add("email_missing", "recipient.email");
  }
  if (email && !EMAIL.safeParse(email).success) {
    found.add("email_invalid", "recipient.email", { value: email });
  }
  const rawPhone = address?.phone?.trim() || order.phone?.trim() || "";
  const phone = country ? toE164(rawPhone, { country, zip }) : undefined;
  if (rawPhone && !phone) {
    found.add("recipient_phone_invalid", "recipient.phone1", { value: rawPhone, country });
  }

  // Sender, from settings (saved before Settings checked them, they may still be wrong).
  const sender = settings.sender;
  if (!isKnownCountry(sender.countryCode)) {
    found.add("sender_country_unknown", "sender.country", { value: sender.countryCode });
  } else if (checkPostcode(sender.zip, { country: sender.countryCode, city: sender.city }) !== "ok") {
    found.add("sender_zip_invalid", "sender.zip", { value: sender.zip, country: sender.countryCode });
  }
  const senderPhone = toE164(settings.sender.phone, { country: settings.sender.countryCode, zip: settings.sender.zip });
  if (!senderPhone) {
    found.add("sender_phone_invalid", "sender.phone1", { value: settings.sender.phone, country: settings.sender.countryCode });
  }

  const origin = { country: settings.sender.countryCode, zip: settings.sender.zip };
  const destination = { country: country || settings.sender.countryCode, zip };
  const zone = destinationZone(origin, destination);
  const customs = country ? customsRequired(origin, destination) : false;

  // Lines of the chosen fulfillment order.
  const byId = new Map(order.lineItems.nodes.map((lineItem) => [lineItem.id, lineItem]));
  const lines: DraftLine[] = [];
  let itemsGrams = 0;
  const entries = wholeOrder
    ? order.lineItems.nodes.map((lineItem) => ({ remainingQuantity: lineItem.currentQuantity, lineItem: { id: lineItem.id } }))
    : (fulfillmentOrder?.lineItems.nodes ?? []);
  for (const [index, entry] of entries.entries()) {
    if (entry.remainingQuantity <= 0) continue;
    const lineItem: OrderLineItem | undefined = byId.get(entry.lineItem.id);
    if (!lineItem) {
      found.add("line_item_unreadable", `fulfillmentOrders.lineItems[${index}]`);
      continue;
    }
    const inventory = lineItem.variant?.inventoryItem;
    if (lineItem.isGiftCard || !lineItem.requiresShipping || inventory?.requiresShipping === false) continue;
    const title = lineItem.title.trim() || lineItem.name.trim() || lineItem.sku?.trim() || `line item ${lineItem.id.split("/").pop()}`;
    const weight = inventory?.measurement.weight;
    const unitGrams = weight ? toGrams(weight.value, weight.unit) : undefined;
    if (unitGrams === undefined) {
      found.add("item_weight_unreadable", `lineItems.${lineItem.id}.weight`, { title });
    }
    const lineGrams = weight ? (toGrams(weight.value, weight.unit, entry.remainingQuantity) ?? 0) : 0;
    itemsGrams += lineGrams;
    const total = toCents(lineItem.priceAfterAllDiscountsBeforeTaxesSet.presentmentMoney.amount);
    const unitPriceCents = total !== undefined && lineItem.currentQuantity > 0 ? divideHalfUp(total, lineItem.currentQuantity) : 0n;
    if (total === undefined) {
      found.add("item_price_unreadable", `lineItems.${lineItem.id}.price`, { title });
    }
    const rawOrigin = inventory?.countryCodeOfOrigin?.trim().toUpperCase() || undefined;
    if (rawOrigin && !/^[A-Z]{2}$/.test(rawOrigin)) {
      found.add("origin_invalid", `lineItems.${lineItem.id}.countryCodeOfOrigin`, { title, value: rawOrigin });
    }
    const originCountry = (rawOrigin && /^[A-Z]{2}$/.test(rawOrigin) ? rawOrigin : undefined) ?? settings.cn23.fallbackOriginCountry;
    // HS codes have 6 to 13 digits; anything shorter is as good as missing for customs.
    const hsDigits = inventory?.harmonizedSystemCode?.replace(/[^0-9]/g, "") ?? "";
    const hsCode = /^[0-9]{6,13}$/.test(hsDigits) ? hsDigits : undefined;
    if (customs && !hsCode) {
      found.add("hs_code_missing", `cn23_data.products[${lines.length}].hs_code`, { title, country });
    }
    if (customs && !originCountry) {
      found.add("origin_missing", `cn23_data.products[${lines.length}].country_code`, { title, country });
    }
    const productId = lineItem.product?.id ?? undefined;
    const customsDescription = productId ? input.customsDescriptions?.get(productId) : undefined;
    lines.push({
      lineItemId: lineItem.id,
      title,
      quantity: entry.remainingQuantity,
      unitPriceCents,
      currency: lineItem.priceAfterAllDiscountsBeforeTaxesSet.presentmentMoney.currencyCode,
      unitWeightGrams: unitGrams ?? 0,
      originCountry,
      hsCode,
      ...(productId ? { productId } : {}),
      ...(customsDescription ? { customsDescription } : {}),
    });
  }
  if ((fulfillmentOrder || wholeOrder) && lines.length === 0) {
    found.add("no_physical_items", "lineItems");
  }

  // Carrier service, box and insurance: the merchant's choice on the page, else the first shipping rule that matches
  // (rules.ts; its weight band reads the items' weight, before the box), else the zone's default.
  const choice = chooseService(
    input.carrier ? [] : settings.rules,
    {
      checkoutRateTitle: order.shippingLine?.title,
      checkoutRateCode: order.shippingLine?.code,
      country: destination.country,
      postcode: zip,
      weightGrams: itemsGrams,
      orderValue: order.currentSubtotalPriceSet?.shopMoney.amount,
      tags: order.tags ?? [],
    },
    { zone, carrier: settings.carriers[zone] },
  );
  const carrier = input.carrier ?? choice.carrier;
  const ruleBox = choice.source === "rule" ? choice.box : undefined;
  const boxName = input.boxName ?? ruleBox;
  const box = (boxName ? settings.boxes.find((candidate) => candidate.name === boxName) : undefined) ??
    settings.boxes.find((candidate) => candidate.isDefault) ??
    settings.boxes[0]!;
  if (boxName && box.name !== boxName) {
    found.add("box_unknown", "box", { box: boxName, used: box.name });
  }
  if (country && input.offeredServices && !isOffered(carrier, input.offeredServices)) {
    found.problems.push(
      serviceNotOfferedProblem({ orderName: name, choice: carrier, country, offered: input.offeredServices, ...(input.carrier || choice.source === "rule" ? {} : { zone }) }),
    );
  }
  if (customs && input.customsDescriptions && wantsEnglishCustomsDescriptions(carrier.carrierName)) {
    for (const [index, line] of lines.entries()) {
      if (line.customsDescription) continue;
      found.add("customs_description_missing", `cn23_data.products[${index}].description`, { title: line.title, carrier: carrierDisplayName(carrier.carrierName) });
    }
  }
  const serviceChoice: ServiceChoice = input.carrier
    ? { source: "merchant" }
    : choice.source === "rule"
      ? { source: "rule", position: choice.position, name: choice.rule.name }
      : { source: "zone_default", zone };

  let weightGrams = itemsGrams + box.packagingWeightGrams;
  if (itemsGrams === 0 && lines.length > 0) {
    if (settings.defaultWeightGrams) {
      weightGrams = settings.defaultWeightGrams + box.packagingWeightGrams;
      found.add("weight_defaulted", "weight", { grams: String(settings.defaultWeightGrams) });
    } else {
      found.add("weight_zero", "weight");
    }
  }

  const shippingTotal = toCents(order.totalShippingPriceSet.presentmentMoney.amount);
  if (shippingTotal === undefined) {
    found.add("shipping_price_unreadable", "cn23_data.shipping_price", { customs: customs ? "yes" : "no" });
  }
  const description = describeContents(
    lines.map((line) => ({ title: line.customsDescription ?? line.title, quantity: line.quantity })),
    settings.descriptionMaxLength,
  );
  // With blocking problems a draft is still returned (for display), as long as there is something to show.
  if ((!fulfillmentOrder && !wholeOrder) || !address) return { problems: found.problems };

  return {
    problems: found.problems,
    draft: {
      orderId: order.id,
      orderName: name,
      fulfillmentOrderId: fulfillmentOrder?.id,
      carrier,
      serviceChoice,
      ...(choice.source === "rule" && choice.insuredValueCents !== undefined && !input.carrier ? { insuredValueCents: choice.insuredValueCents } : {}),
      box,
      weightGrams,
      description,
      customsRequired: customs,
      shippingPriceCents: shippingTotal ?? 0n,
      shippingCurrency: order.totalShippingPriceSet.presentmentMoney.currencyCode,
      lines,
      sender: {
        lastname: settings.sender.lastName,
        firstname: settings.sender.firstName,
        address_line1: settings.sender.address1,
        address_line2: settings.sender.address2,
        country: settings.sender.countryCode,
        city: settings.sender.city,
        zip: settings.sender.zip,
        phone1: senderPhone ?? settings.sender.phone,
        email: settings.sender.email,
        company_name: settings.sender.company,
        labelType: settings.labelFormat,
      },
      recipient: {
        lastname,
        firstname,
        address_line1: line1,
        country,
        city,
        zip,
        email,
        ...(line2 ? { address_line2: line2 } : {}),
        ...(phone ? { phone1: phone } : {}),
        ...(company && company !== lastname ? { company_name: company } : {}),
      },
    },
  };
}

export function toLabelRequest(draft: ShipmentDraft, customReference: string, settings: Pick<ShippingSettings, "cn23" | "includeHsCode">): LabelRequest {
  const products: Cn23Product[] = draft.lines.map((line) => ({
    unit_price: formatComma(line.unitPriceCents),
    quantity: line.quantity,
    description: (line.customsDescription ?? line.title).slice(0, 100) || "Item",
    weight: String(line.unitWeightGrams),
    country_code: line.originCountry ?? draft.sender.country,
    currency_code: line.currency,
    ...(settings.includeHsCode && line.hsCode && /^[0-9]{6,13}$/.test(line.hsCode) ? { hs_code: line.hsCode } : {}),
  }));
  const needsDimensions = CARRIERS_REQUIRING_DIMENSIONS.includes(draft.carrier.carrierName);
  return {
    weight: String(draft.weightGrams),
    width: String(draft.box.widthCm),
    height: String(draft.box.heightCm),
    length: String(draft.box.lengthCm),
    carrier_name: draft.carrier.carrierName,
    carrier_service_name: draft.carrier.serviceName,
    custom_reference: customReference,
    ...(draft.insuredValueCents !== undefined ? { insured_value: draft.insuredValueCents } : {}),
    ...(draft.description || needsDimensions ? { description: draft.description || "Goods" } : {}),
    ...(draft.customsRequired || products.length > 0
      ? { cn23_data: { category: settings.cn23.category, shipping_price: formatComma(draft.shippingPriceCents), products } }
      : {}),
    sender: draft.sender,
    recipient: draft.recipient,
  };
}

/** The whole mapping. A request is returned only when nothing blocks, and it always passes labelRequestSchema. */
export function mapOrderToLabelRequest(input: MapInput & { customReference: string }): {
  request?: LabelRequest;
  /** What the request looks like so far, also when something blocks (for display only, never sent). */
  preview?: LabelRequest;
  draft?: ShipmentDraft;
  problems: Problem[];
} {
  const { draft, problems } = buildShipmentDraft(input);
  if (!draft) return { problems };
  const request = toLabelRequest(draft, input.customReference, input.settings);
  if (hasBlocking(problems)) return { preview: request, draft, problems };
  const checked = labelRequestSchema.safeParse(request);
  if (!checked.success) {
    return {
      preview: request,
      draft,
      problems: [
        ...problems,
        ...checked.error.issues.map((issue) =>
          problem("request_field_invalid", { path: issue.path.join("."), orderName: input.order.name, params: { detail: issue.message } }),
        ),
      ],
    };
  }
  return { request: checked.data, preview: checked.data, draft, problems };
}
