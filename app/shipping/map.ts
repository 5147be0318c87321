/**
 * Order (as read by ORDER_FOR_LABEL_QUERY) -> shipment draft -> label request. Pure: no I/O, no clock. Bad data
 * never throws: it becomes a named problem (blocking or warning) with a fix, in English and French.
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
import { countryName, isOffered, serviceNotOfferedProblem, type OfferedService } from "./services";
import { toGrams } from "./units";

export interface DraftLine {
  lineItemId: string;
  title: string;
  quantity: number;
  unitPriceCents: bigint;
  currency: string;
  unitWeightGrams: number;
  originCountry?: string;
  hsCode?: string;
}

export interface ShipmentDraft {
  orderId: string;
  orderName: string;
  /** Undefined for a replacement parcel of an order that has nothing left to ship. */
  fulfillmentOrderId?: string;
  carrier: CarrierChoice;
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
}

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

  add(severity: Problem["severity"], code: string, path: string, message: Problem["message"], fix: Problem["fix"], params?: Problem["params"]): void {
    this.problems.push({ code, path, orderName: this.orderName, severity, message, fix, ...(params ? { params } : {}) });
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
    found.add("blocking", "order_cancelled", "order", { en: `Order ${name} is cancelled.`, fr: `La commande ${name} est annulée.` }, {
      en: "Cancelled orders are not shipped. Pick another order.",
      fr: "Les commandes annulées ne sont pas expédiées. Choisissez une autre commande.",
    });
  }
  const fulfillmentOrder = pickFulfillmentOrder(order, input.fulfillmentOrderId);
  const wholeOrder = !fulfillmentOrder && input.wholeOrder === true;
  if (!fulfillmentOrder && !wholeOrder) {
    found.add("blocking", "nothing_to_ship", "fulfillmentOrders", { en: `Order ${name} has nothing left to ship.`, fr: `La commande ${name} n'a plus rien à expédier.` }, {
      en: "Check the order in Shopify: it may be fulfilled already, on hold or handled by another location or app.",
      fr: "Vérifiez la commande dans Shopify : elle est peut-être déjà traitée, en attente ou gérée par un autre lieu ou une autre application.",
    });
  }

  // Recipient.
  const address = order.shippingAddress;
  const country = address?.countryCodeV2?.trim().toUpperCase() ?? "";
  if (!address || !country) {
    found.add("blocking", "no_shipping_address", "recipient", { en: `Order ${name} has no shipping address.`, fr: `La commande ${name} n'a pas d'adresse de livraison.` }, {
      en: "Add a shipping address to the order in Shopify (Orders > the order > Shipping address > Edit).",
      fr: "Ajoutez une adresse de livraison à la commande dans Shopify (Commandes > la commande > Adresse de livraison > Modifier).",
    });
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
    found.add("blocking", "recipient_name_missing", "recipient.lastname", { en: `Order ${name}: the shipping address has no name or company.`, fr: `Commande ${name} : l'adresse de livraison n'a ni nom ni société.` }, {
      en: "Add the recipient's name to the shipping address in Shopify, or type it in the recipient form here.",
      fr: "Ajoutez le nom du destinataire à l'adresse de livraison dans Shopify, ou saisissez-le ici dans le formulaire destinataire.",
    });
  }
  let line1 = address?.address1?.trim() ?? "";
  let line2 = address?.address2?.trim() || undefined;
  if (address && !line1 && line2) {
    line1 = line2;
    line2 = undefined;
  }
  if (address && !line1) {
    found.add("blocking", "address_line1_missing", "recipient.address_line1", { en: `Order ${name}: the shipping address has no street line.`, fr: `Commande ${name} : l'adresse de livraison n'a pas de rue.` }, {
      en: "Complete the shipping address in Shopify (Orders > the order > Shipping address > Edit).",
      fr: "Complétez l'adresse de livraison dans Shopify (Commandes > la commande > Adresse de livraison > Modifier).",
    });
  }
  if (line2 && settings.foldAddressLine2) {
    line1 = `${line1}, ${line2}`;
    line2 = undefined;
  }
  if (line1.length > 35) {
    found.add("warning", "address_line_long", "recipient.address_line1", { en: `Order ${name}: address line 1 is ${line1.length} characters long; some carriers print only 35.`, fr: `Commande ${name} : la ligne d'adresse 1 compte ${line1.length} caractères ; certains transporteurs n'en impriment que 35.` }, {
      en: "Check the printed label, or shorten the line in the recipient form.",
      fr: "Vérifiez l'étiquette imprimée, ou raccourcissez la ligne dans le formulaire destinataire.",
    });
  }
  const city = address?.city?.trim() ?? "";
  if (address && !city) {
    found.add("blocking", "city_missing", "recipient.city", { en: `Order ${name}: the shipping address has no city.`, fr: `Commande ${name} : l'adresse de livraison n'a pas de ville.` }, {
      en: "Add the city to the shipping address in Shopify.",
      fr: "Ajoutez la ville à l'adresse de livraison dans Shopify.",
    });
  }
  const zip = normaliseZip(address?.zip ?? "", country);
  if (address && country) found.problems.push(...recipientAddressProblems({ orderName: name, country, zip, city: address.city ?? "" }));
  const email = order.email?.trim() ?? "";
  if (!email) {
    found.add("blocking", "email_missing", "recipient.email", { en: `Order ${name} has no customer e-mail.`, fr: `La commande ${name} n'a pas d'e-mail client.` }, {
      en: "Add the customer's e-mail to the order in Shopify, or type it in the recipient form here.",
      fr: "Ajoutez l'e-mail du client à la commande dans Shopify, ou saisissez-le ici dans le formulaire destinataire.",
    });
  }
  if (email && !z.email().safeParse(email).success) {
    found.add("blocking", "email_invalid", "recipient.email", { en: `Order ${name}: the customer e-mail "${email}" is not a valid address.`, fr: `Commande ${name} : l'e-mail client « ${email} » n'est pas une adresse valide.` }, {
      en: "Correct the customer's e-mail on the order in Shopify, or type a valid one in the recipient form here.",
      fr: "Corrigez l'e-mail du client sur la commande dans Shopify, ou saisissez-en un valide ici dans le formulaire destinataire.",
    });
  }
  const rawPhone = address?.phone?.trim() || order.phone?.trim() || "";
  const phone = country ? toE164(rawPhone, { country, zip }) : undefined;
  if (rawPhone && !phone) {
    found.add("warning", "recipient_phone_invalid", "recipient.phone1", { en: `Order ${name}: the phone number "${rawPhone}" is not a valid number for ${country}; it is not sent.`, fr: `Commande ${name} : le numéro « ${rawPhone} » n'est pas valide pour ${country} ; il n'est pas envoyé.` }, {
      en: "Correct the phone in the shipping address, or type it in international form (+41...) here.",
      fr: "Corrigez le téléphone de l'adresse de livraison, ou saisissez-le au format international (+41...) ici.",
    });
  }

  // Sender, from settings (saved before Settings checked them, they may still be wrong).
  const sender = settings.sender;
  if (!isKnownCountry(sender.countryCode)) {
    found.add("blocking", "sender_country_unknown", "sender.country", { en: `The sender country "${sender.countryCode}" is not a country code carriers know.`, fr: `Le pays de l'expéditeur « ${sender.countryCode} » n'est pas un code pays connu des transporteurs.` }, {
      en: "Correct the sender's country code in Etiquette's Settings > Shipping (two letters, like FR).",
      fr: "Corrigez le code pays de l'expéditeur dans Paramètres > Expédition d'Etiquette (deux lettres, par exemple FR).",
    }, { value: sender.countryCode });
  } else if (checkPostcode(sender.zip, { country: sender.countryCode, city: sender.city }) !== "ok") {
    found.add("blocking", "sender_zip_invalid", "sender.zip", { en: `The sender postcode "${sender.zip}" is not a valid postcode of ${countryName(sender.countryCode, "en")}.`, fr: `Le code postal de l'expéditeur « ${sender.zip} » n'est pas un code postal valide de ${countryName(sender.countryCode, "fr")}.` }, {
      en: "Correct the sender's postcode in Etiquette's Settings > Shipping.",
      fr: "Corrigez le code postal de l'expéditeur dans Paramètres > Expédition d'Etiquette.",
    }, { value: sender.zip, country: sender.countryCode });
  }
  const senderPhone = toE164(settings.sender.phone, { country: settings.sender.countryCode, zip: settings.sender.zip });
  if (!senderPhone) {
    found.add("blocking", "sender_phone_invalid", "sender.phone1", { en: `The sender phone "${settings.sender.phone}" is not a valid ${settings.sender.countryCode} number.`, fr: `Le téléphone de l'expéditeur « ${settings.sender.phone} » n'est pas un numéro ${settings.sender.countryCode} valide.` }, {
      en: "Correct the sender phone in Etiquette's Settings (international form, like +33142000000).",
      fr: "Corrigez le téléphone de l'expéditeur dans les Paramètres d'Etiquette (format international, par exemple +33142000000).",
    });
  }

  // Box, carrier.
  const box = (input.boxName ? settings.boxes.find((candidate) => candidate.name === input.boxName) : undefined) ??
    settings.boxes.find((candidate) => candidate.isDefault) ??
    settings.boxes[0]!;
  if (input.boxName && box.name !== input.boxName) {
    found.add("warning", "box_unknown", "box", { en: `Box "${input.boxName}" does not exist; "${box.name}" is used.`, fr: `Le carton « ${input.boxName} » n'existe pas ; « ${box.name} » est utilisé.` }, {
      en: "Pick one of the boxes defined in Settings.",
      fr: "Choisissez un des cartons définis dans les Paramètres.",
    });
  }
  const origin = { country: settings.sender.countryCode, zip: settings.sender.zip };
  const destination = { country: country || settings.sender.countryCode, zip };
  const zone = destinationZone(origin, destination);
  const carrier = input.carrier ?? settings.carriers[zone];
  if (country && input.offeredServices && !isOffered(carrier, input.offeredServices)) {
    found.problems.push(
      serviceNotOfferedProblem({ orderName: name, choice: carrier, country, offered: input.offeredServices, ...(input.carrier ? {} : { zone }) }),
    );
  }
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
      found.add("blocking", "line_item_unreadable", `fulfillmentOrders.lineItems[${index}]`, { en: `Order ${name}: an item to ship is not among the first 50 lines read.`, fr: `Commande ${name} : un article à expédier ne figure pas parmi les 50 premières lignes lues.` }, {
        en: "Split this shipment in Shopify, or ship the order without Etiquette.",
        fr: "Divisez cet envoi dans Shopify, ou expédiez la commande sans Etiquette.",
      });
      continue;
    }
    const inventory = lineItem.variant?.inventoryItem;
    if (lineItem.isGiftCard || !lineItem.requiresShipping || inventory?.requiresShipping === false) continue;
    const title = lineItem.title.trim() || lineItem.name.trim() || lineItem.sku?.trim() || `line item ${lineItem.id.split("/").pop()}`;
    const weight = inventory?.measurement.weight;
    const unitGrams = weight ? toGrams(weight.value, weight.unit) : undefined;
    if (unitGrams === undefined) {
      found.add("warning", "item_weight_unreadable", `lineItems.${lineItem.id}.weight`, { en: `Order ${name}: "${title}" has no readable weight; counted as 0 g.`, fr: `Commande ${name} : « ${title} » n'a pas de poids lisible ; compté 0 g.` }, {
        en: `Set the weight in Shopify (Products > ${title} > the variant > Shipping > Weight).`,
        fr: `Renseignez le poids dans Shopify (Produits > ${title} > la variante > Expédition > Poids).`,
      });
    }
    const lineGrams = weight ? (toGrams(weight.value, weight.unit, entry.remainingQuantity) ?? 0) : 0;
    itemsGrams += lineGrams;
    const total = toCents(lineItem.priceAfterAllDiscountsBeforeTaxesSet.presentmentMoney.amount);
    const unitPriceCents = total !== undefined && lineItem.currentQuantity > 0 ? divideHalfUp(total, lineItem.currentQuantity) : 0n;
    if (total === undefined) {
      found.add("blocking", "item_price_unreadable", `lineItems.${lineItem.id}.price`, { en: `Order ${name}: the price of "${title}" cannot be read.`, fr: `Commande ${name} : le prix de « ${title} » est illisible.` }, {
        en: "Reload the order; if it persists, contact support with the order name.",
        fr: "Rechargez la commande ; si le problème persiste, contactez le support avec le numéro de commande.",
      });
    }
    const rawOrigin = inventory?.countryCodeOfOrigin?.trim().toUpperCase() || undefined;
    if (rawOrigin && !/^[A-Z]{2}$/.test(rawOrigin)) {
      found.add("warning", "origin_invalid", `lineItems.${lineItem.id}.countryCodeOfOrigin`, { en: `Order ${name}: "${title}" has an unreadable country of origin "${rawOrigin}".`, fr: `Commande ${name} : « ${title} » a un pays d'origine illisible « ${rawOrigin} ».` }, {
        en: `In Shopify, open Products > ${title} > the variant > Customs information, and choose the country/region of origin again.`,
        fr: `Dans Shopify, ouvrez Produits > ${title} > la variante > Informations douanières, et choisissez à nouveau le pays/la région d'origine.`,
      });
    }
    const originCountry = (rawOrigin && /^[A-Z]{2}$/.test(rawOrigin) ? rawOrigin : undefined) ?? settings.cn23.fallbackOriginCountry;
    // HS codes have 6 to 13 digits; anything shorter is as good as missing for customs.
    const hsDigits = inventory?.harmonizedSystemCode?.replace(/[^0-9]/g, "") ?? "";
    const hsCode = /^[0-9]{6,13}$/.test(hsDigits) ? hsDigits : undefined;
    if (customs && !hsCode) {
      found.add("blocking", "hs_code_missing", `cn23_data.products[${lines.length}].hs_code`, { en: `Order ${name}: "${title}" has no HS code, which customs needs for ${country}.`, fr: `Commande ${name} : « ${title} » n'a pas de code SH, exigé par la douane pour ${country}.` }, {
        en: `In Shopify, open Products > ${title} > the variant > Customs information, and enter the HS (harmonized system) code.`,
        fr: `Dans Shopify, ouvrez Produits > ${title} > la variante > Informations douanières, et saisissez le code SH (système harmonisé).`,
      });
    }
    if (customs && !originCountry) {
      found.add("blocking", "origin_missing", `cn23_data.products[${lines.length}].country_code`, { en: `Order ${name}: "${title}" has no country of origin, which customs needs for ${country}.`, fr: `Commande ${name} : « ${title} » n'a pas de pays d'origine, exigé par la douane pour ${country}.` }, {
        en: `In Shopify, open Products > ${title} > the variant > Customs information, and choose the country/region of origin (or set a fallback origin in Etiquette's Settings).`,
        fr: `Dans Shopify, ouvrez Produits > ${title} > la variante > Informations douanières, et choisissez le pays/la région d'origine (ou définissez une origine par défaut dans les Paramètres d'Etiquette).`,
      });
    }
    lines.push({
      lineItemId: lineItem.id,
      title,
      quantity: entry.remainingQuantity,
      unitPriceCents,
      currency: lineItem.priceAfterAllDiscountsBeforeTaxesSet.presentmentMoney.currencyCode,
      unitWeightGrams: unitGrams ?? 0,
      originCountry,
      hsCode,
    });
  }
  if ((fulfillmentOrder || wholeOrder) && lines.length === 0) {
    found.add("blocking", "no_physical_items", "lineItems", { en: `Order ${name}: nothing in this shipment needs shipping (digital items or gift cards only).`, fr: `Commande ${name} : rien dans cet envoi n'est à expédier (articles numériques ou cartes cadeaux uniquement).` }, {
      en: "Fulfil it in Shopify without a label.",
      fr: "Traitez-la dans Shopify sans étiquette.",
    });
  }

  let weightGrams = itemsGrams + box.packagingWeightGrams;
  if (itemsGrams === 0 && lines.length > 0) {
    if (settings.defaultWeightGrams) {
      weightGrams = settings.defaultWeightGrams + box.packagingWeightGrams;
      found.add("warning", "weight_defaulted", "weight", { en: `Order ${name}: the items weigh 0 g; the default weight ${settings.defaultWeightGrams} g is used.`, fr: `Commande ${name} : les articles pèsent 0 g ; le poids par défaut de ${settings.defaultWeightGrams} g est utilisé.` }, {
        en: "Weigh the parcel and correct the weight here if needed; set product weights in Shopify.",
        fr: "Pesez le colis et corrigez le poids ici si besoin ; renseignez les poids des produits dans Shopify.",
      });
    } else {
      found.add("blocking", "weight_zero", "weight", { en: `Order ${name}: the items to ship weigh 0 g.`, fr: `Commande ${name} : les articles à expédier pèsent 0 g.` }, {
        en: "Enter the parcel weight here, set the product weights in Shopify, or set a default weight in Settings.",
        fr: "Saisissez le poids du colis ici, renseignez les poids des produits dans Shopify, ou définissez un poids par défaut dans les Paramètres.",
      });
    }
  }

  const shippingTotal = toCents(order.totalShippingPriceSet.presentmentMoney.amount);
  if (shippingTotal === undefined) {
    found.add(customs ? "blocking" : "warning", "shipping_price_unreadable", "cn23_data.shipping_price", { en: `Order ${name}: the shipping price paid cannot be read.`, fr: `Commande ${name} : les frais de port payés sont illisibles.` }, {
      en: "Type the shipping price the customer paid in the CN23 section here.",
      fr: "Saisissez ici, dans la section CN23, les frais de port payés par le client.",
    });
  }
  const description = describeContents(lines, settings.descriptionMaxLength);
  // With blocking problems a draft is still returned (for display), as long as there is something to show.
  if ((!fulfillmentOrder && !wholeOrder) || !address) return { problems: found.problems };

  return {
    problems: found.problems,
    draft: {
      orderId: order.id,
      orderName: name,
      fulfillmentOrderId: fulfillmentOrder?.id,
      carrier,
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
    description: line.title.slice(0, 100) || "Item",
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
        ...checked.error.issues.map((issue) => ({
          code: "request_field_invalid",
          path: issue.path.join("."),
          orderName: input.order.name,
          severity: "blocking" as const,
          message: {
            en: `Order ${input.order.name}: ${issue.path.join(".")} is not valid for the label service (${issue.message}).`,
            fr: `Commande ${input.order.name} : ${issue.path.join(".")} n'est pas valide pour le service d'étiquettes (${issue.message}).`,
          },
          fix: {
            en: `Correct ${issue.path.join(".")} (in the form here, the order in Shopify, or Settings).`,
            fr: `Corrigez ${issue.path.join(".")} (dans le formulaire ici, la commande dans Shopify ou les Paramètres).`,
          },
        })),
      ],
    };
  }
  return { request: checked.data, preview: checked.data, draft, problems };
}
