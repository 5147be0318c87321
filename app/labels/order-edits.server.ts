/**
 * The merchant's edits on the order page, checked before any purchase: required fields, whole numbers and ranges,
 * amounts, codes and lengths a carrier accepts. Every problem names the field as the page labels it, says what to
 * do, in English and French, and carries the request path so the page can mark the field.
 * Limits and their sources: docs/decisions/0086-carrier-field-limits.md.
 */
import countries from "i18n-iso-countries";
import { postcodeValidatorExistsForCountry } from "postcode-validator";
import { z } from "zod";
import { CARRIERS_REQUIRING_DIMENSIONS, CN23_CATEGORIES, labelRequestSchema, type LabelRequest } from "../label-service/contract";
import type { MessageKey } from "../i18n/messages";
import { problem, type ProblemCode, type ProblemParams } from "../shipping/problem-texts";
import type { Problem } from "../shipping/problems";
import { toE164 } from "../shipping/phone";

/**
 * Text lengths: the strictest of the carriers the service sells (Colissimo SLS and DHL Express MyDHL API 2.11).
 * Colissimo: lastName A1..35, firstName A1..29, companyName AN35, line0-3 AN1..35, city AN1..35, email AN5..80,
 * article description AN1..64. DHL Express: postalCode 0..12, email 1..70, content/package description 1..70.
 */
export const TEXT_LIMITS = {
  "recipient.lastname": 35,
  "recipient.firstname": 29,
  "recipient.company_name": 35,
  "recipient.address_line1": 35,
  "recipient.address_line2": 35,
  "recipient.city": 35,
  "recipient.zip": 12,
  "recipient.email": 70,
  description: 70,
  productDescription: 64,
} as const;

/** Parcel weight in grams per carrier. Colissimo SLS: 0.01 kg to 30 kg. DHL Express: 70 kg per piece. */
const WEIGHT_GRAMS: Record<string, { min: number; max: number }> = {
  colissimo: { min: 10, max: 30_000 },
  chronopost: { min: 10, max: 30_000 },
  dhl: { min: 1, max: 70_000 },
};
/** A carrier the app does not know gets the strictest known range. */
const DEFAULT_WEIGHT_GRAMS = { min: 10, max: 30_000 };
/** Each side in cm: Colissimo SLS accepts a length up to 274 cm, the smallest published maximum. */
export const DIMENSION_CM = { min: 1, max: 274 } as const;
/** Not a carrier limit: an upper bound that catches a typing slip (a unit price of a million). */
export const MAX_AMOUNT = 1_000_000;

export function weightRangeFor(carrier: string): { min: number; max: number } {
  return WEIGHT_GRAMS[carrier.trim().toLowerCase()] ?? DEFAULT_WEIGHT_GRAMS;
}

const AMOUNT = /^([0-9]{1,9})(?:[.,]([0-9]{1,2}))?$/;
/** Built once: a zod schema costs more to build than to run. */
const EMAIL = z.email();

/** "12.5", "12,50", "12" -> "12,50" (the service's form); undefined when it is not an amount. */
export function toCommaAmount(raw: string): string | undefined {
  const match = AMOUNT.exec(raw.trim());
  if (!match) return undefined;
  return `${String(Number(match[1]))},${(match[2] ?? "").padEnd(2, "0")}`;
}

function amountValue(comma: string): number {
  return Number(comma.replace(",", "."));
}

/** How the page names a field, as problem params (texts in app/shipping/problem-texts.ts). */
type Field = { field?: MessageKey; item?: string; itemDescription?: string; part?: string };

function label(key: MessageKey): Field {
  return { field: key };
}

const RECIPIENT_FIELDS: [keyof typeof TEXT_LIMITS & `recipient.${string}`, MessageKey, boolean][] = [
  ["recipient.firstname", "order.field.firstname", false],
  ["recipient.lastname", "order.field.lastname", true],
  ["recipient.company_name", "order.field.company", false],
  ["recipient.address_line1", "order.field.address1", true],
  ["recipient.address_line2", "order.field.address2", false],
  ["recipient.city", "order.field.city", true],
  ["recipient.zip", "order.field.zip", false],
  ["recipient.email", "order.field.email", true],
];

function shown(value: string): string {
  const flat = value.replace(/\s+/g, " ");
  return flat.length > 24 ? `${flat.slice(0, 24)}…` : flat;
}

class EditProblems {
  readonly list: Problem[] = [];
  constructor(private readonly orderName: string) {}
  private add(code: ProblemCode, path: string, params: ProblemParams) {
    this.list.push(problem(code, { path, orderName: this.orderName, params }));
  }
  required(path: string, field: Field) {
    this.add("edit_required", path, { ...field });
  }
  tooLong(path: string, field: Field, length: number, max: number) {
    this.add("edit_too_long", path, { ...field, length: String(length), max: String(max) });
  }
  wholeNumber(path: string, field: Field, value: string, min: number, max: number, unit: string, carrier?: string) {
    this.add("edit_out_of_range", path, { ...field, value: shown(value), min: String(min), max: String(max), unit, ...(carrier ? { carrier } : {}) });
  }
  amount(path: string, field: Field, value: string, allowZero: boolean) {
    this.add("edit_amount_invalid", path, { ...field, value: shown(value), allowZero: allowZero ? "yes" : "no" });
  }
  invalid(code: ProblemCode & `edit_${string}_invalid`, path: string, field: Field, value: string, params: ProblemParams = {}) {
    this.add(code, path, { ...field, value: shown(value), ...params });
  }
}

/** What the merchant typed for a field: undefined when the form did not send it (nothing edited). */
function typed(value: string | undefined): string | undefined {
  return value === undefined ? undefined : value.trim();
}

export interface EditsToCheck {
  weight?: string;
  width?: string;
  height?: string;
  length?: string;
  description?: string;
  carrier_name?: string;
  [field: `recipient.${string}`]: string | undefined;
  "cn23.category"?: string;
  "cn23.shipping_price"?: string;
  products?: Record<string, Partial<Record<"description" | "unit_price" | "weight" | "country_code" | "hs_code", string>>>;
}

/**
 * The mapped request's values as if typed in the form: what the page shows and will send back. Without customs
 * (domestic, EU to EU) the CN23 lines are informative and their mapped values are not held against the order.
 */
export function previewAsEdits(preview: LabelRequest, options: { customsRequired: boolean } = { customsRequired: true }): EditsToCheck {
  const recipient = preview.recipient;
  const products: NonNullable<EditsToCheck["products"]> = {};
  preview.cn23_data?.products.forEach((product, index) => {
    products[String(index)] = {
      description: product.description,
      unit_price: product.unit_price,
      weight: product.weight,
      country_code: product.country_code,
      hs_code: product.hs_code ?? "",
    };
  });
  return {
    weight: preview.weight,
    ...(preview.length !== undefined ? { length: preview.length } : {}),
    ...(preview.width !== undefined ? { width: preview.width } : {}),
    ...(preview.height !== undefined ? { height: preview.height } : {}),
    description: preview.description ?? "",
    carrier_name: preview.carrier_name,
    "recipient.firstname": recipient.firstname,
    "recipient.lastname": recipient.lastname,
    "recipient.company_name": recipient.company_name ?? "",
    "recipient.address_line1": recipient.address_line1,
    "recipient.address_line2": recipient.address_line2 ?? "",
    "recipient.zip": recipient.zip,
    "recipient.city": recipient.city,
    "recipient.phone1": recipient.phone1 ?? "",
    "recipient.email": recipient.email,
    ...(preview.cn23_data && options.customsRequired ? { "cn23.category": preview.cn23_data.category, "cn23.shipping_price": preview.cn23_data.shipping_price } : {}),
    products: options.customsRequired ? products : {},
  };
}

/** The values a purchase will use: the mapped ones, replaced field by field by what the form sent. */
export function effectiveEdits(preview: LabelRequest, sent: EditsToCheck, options: { customsRequired: boolean } = { customsRequired: true }): EditsToCheck {
  const base = previewAsEdits(preview, options);
  const merged: EditsToCheck = { ...base };
  for (const [key, value] of Object.entries(sent)) {
    if (key !== "products" && typeof value === "string") (merged as Record<string, unknown>)[key] = value;
  }
  const products = { ...base.products };
  for (const [index, fields] of Object.entries(sent.products ?? {})) {
    const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
    products[index] = { ...products[index], ...defined };
  }
  return { ...merged, products };
}

/**
 * Problems in the merchant's edits of a mapped request (before they are applied). A field the form did not send is
 * not checked here (the mapper checked the order's value); a field sent empty is "cleared", never silently refilled.
 */
export function checkOrderEdits(preview: LabelRequest, edits: EditsToCheck, orderName: string): Problem[] {
  const found = new EditProblems(orderName);
  const carrier = typed(edits.carrier_name) || preview.carrier_name;
  const country = preview.recipient.country;

  for (const [path, key, required] of RECIPIENT_FIELDS) {
    const value = typed(edits[path]);
    if (value === undefined) continue;
    const field = label(key);
    const zipRequired = path === "recipient.zip" && postcodeValidatorExistsForCountry(country);
    if (!value) {
      if (required || zipRequired) found.required(path, field);
      continue;
    }
    if (value.length > TEXT_LIMITS[path]) {
      found.tooLong(path, field, value.length, TEXT_LIMITS[path]);
      continue;
    }
    if (path === "recipient.email" && !EMAIL.safeParse(value).success) {
      found.invalid("edit_email_invalid", path, field, value);
    }
    if (path === "recipient.zip" && !/^[A-Za-z0-9][A-Za-z0-9 -]*$/.test(value)) {
      found.invalid("edit_zip_invalid", path, field, value);
    }
  }
  const phone = typed(edits["recipient.phone1"]);
  if (phone && !toE164(phone, country)) {
    found.invalid("edit_phone_invalid", "recipient.phone1", label("order.field.phone"), phone, { country });
  }

  const weight = typed(edits.weight);
  if (weight !== undefined) {
    const range = weightRangeFor(carrier);
    if (!weight) found.required("weight", label("order.field.weight"));
    else if (!/^[0-9]{1,9}$/.test(weight) || Number(weight) < range.min || Number(weight) > range.max) {
      found.wholeNumber("weight", label("order.field.weight"), weight, range.min, range.max, "g", carrier);
    }
  }
  for (const [path, key] of [["length", "order.field.length"], ["width", "order.field.width"], ["height", "order.field.height"]] as const) {
    const value = typed(edits[path]);
    if (value === undefined) continue;
    if (!value) found.required(path, label(key));
    else if (!/^[0-9]{1,6}$/.test(value) || Number(value) < DIMENSION_CM.min || Number(value) > DIMENSION_CM.max) {
      found.wholeNumber(path, label(key), value, DIMENSION_CM.min, DIMENSION_CM.max, "cm");
    }
  }
  const description = typed(edits.description);
  if (description !== undefined) {
    if (!description && CARRIERS_REQUIRING_DIMENSIONS.includes(carrier)) found.required("description", label("order.field.description"));
    else if (description.length > TEXT_LIMITS.description) found.tooLong("description", label("order.field.description"), description.length, TEXT_LIMITS.description);
  }

  const cn23 = preview.cn23_data;
  if (cn23) {
    const category = typed(edits["cn23.category"]);
    if (category !== undefined && !(CN23_CATEGORIES as readonly string[]).includes(category)) {
      found.invalid("edit_category_invalid", "cn23_data.category", label("settings.shipping.category"), category);
    }
    const shipping = typed(edits["cn23.shipping_price"]);
    if (shipping !== undefined) {
      const field = label("order.field.shippingPaid");
      const amount = shipping ? toCommaAmount(shipping) : undefined;
      if (!shipping) found.required("cn23_data.shipping_price", field);
      else if (!amount || amountValue(amount) > MAX_AMOUNT) found.amount("cn23_data.shipping_price", field, shipping, true);
    }
    for (const [index, productEdits] of Object.entries(edits.products ?? {})) {
      const product = cn23.products[Number(index)];
      if (!product) continue;
      const item = (key: MessageKey): Field => ({ field: key, item: String(Number(index) + 1), itemDescription: shown(product.description) });
      const at = (field: string) => `cn23_data.products[${index}].${field}`;
      const text = typed(productEdits.description);
      if (text !== undefined) {
        if (!text) found.required(at("description"), item("order.cn23.description"));
        else if (text.length > TEXT_LIMITS.productDescription) found.tooLong(at("description"), item("order.cn23.description"), text.length, TEXT_LIMITS.productDescription);
      }
      const price = typed(productEdits.unit_price);
      if (price !== undefined) {
        const amount = price ? toCommaAmount(price) : undefined;
        if (!price) found.required(at("unit_price"), item("order.cn23.unitPrice"));
        else if (!amount || amountValue(amount) <= 0 || amountValue(amount) > MAX_AMOUNT) found.amount(at("unit_price"), item("order.cn23.unitPrice"), price, false);
      }
      const grams = typed(productEdits.weight);
      if (grams !== undefined) {
        const max = weightRangeFor(carrier).max;
        if (!grams) found.required(at("weight"), item("order.cn23.weight"));
        else if (!/^[0-9]{1,9}$/.test(grams) || Number(grams) < 1 || Number(grams) > max) found.wholeNumber(at("weight"), item("order.cn23.weight"), grams, 1, max, "g");
      }
      const origin = typed(productEdits.country_code);
      if (origin !== undefined) {
        if (!origin) found.required(at("country_code"), item("order.cn23.origin"));
        else if (!/^[A-Za-z]{2}$/.test(origin) || !countries.isValid(origin.toUpperCase())) {
          found.invalid("edit_origin_invalid", at("country_code"), item("order.cn23.origin"), origin);
        }
      }
      const hs = typed(productEdits.hs_code);
      if (hs && !/^[0-9]{6,13}$/.test(hs.replace(/[\s.]/g, ""))) {
        found.invalid("edit_hs_invalid", at("hs_code"), item("order.cn23.hsCode"), hs);
      }
    }
  }
  return found.list;
}

/** Names a request field as the page labels it (for the last safety check). */
const PATH_LABELS: Record<string, MessageKey> = {
  weight: "order.field.weight",
  length: "order.field.length",
  width: "order.field.width",
  height: "order.field.height",
  description: "order.field.description",
  carrier_name: "order.field.service",
  carrier_service_name: "order.field.service",
  "recipient.firstname": "order.field.firstname",
  "recipient.lastname": "order.field.lastname",
  "recipient.company_name": "order.field.company",
  "recipient.address_line1": "order.field.address1",
  "recipient.address_line2": "order.field.address2",
  "recipient.zip": "order.field.zip",
  "recipient.city": "order.field.city",
  "recipient.phone1": "order.field.phone",
  "recipient.email": "order.field.email",
  "cn23_data.category": "settings.shipping.category",
  "cn23_data.shipping_price": "order.field.shippingPaid",
};

/**
 * The last check of the edited request against the service's contract. Normally empty after checkOrderEdits; when
 * not, the field is named in the merchant's words (never a schema path or a validator's text).
 */
export function contractProblems(request: LabelRequest, orderName: string): Problem[] {
  const parsed = labelRequestSchema.safeParse(request);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => {
    const path = issue.path.map((part, index) => (typeof part === "number" ? `[${part}]` : `${index ? "." : ""}${String(part)}`)).join("");
    const product = /^cn23_data\.products\[([0-9]+)\]/.exec(path);
    const key = PATH_LABELS[path];
    const field: Field = key ? label(key) : product ? { item: String(Number(product[1]) + 1) } : path.startsWith("sender") ? { part: "sender" } : {};
    return problem("edit_contract_invalid", { path, orderName, params: { ...field } });
  });
}

/**
 * The fields the label service named when it refused a label, as problems on those fields: a translated sentence
 * naming the field in the merchant's words; the service's own text (French) stays a detail shown under it.
 */
export function serviceFieldProblems(fieldErrors: Record<string, string[]> | undefined, orderName: string): Problem[] {
  return Object.keys(fieldErrors ?? {})
    .filter((path) => PATH_LABELS[path] || /^cn23_data\.products\[[0-9]+\]/.test(path))
    .map((path) => {
      const product = /^cn23_data\.products\[([0-9]+)\]/.exec(path);
      const key = PATH_LABELS[path];
      const field: Field = key ? label(key) : { item: String(Number(product![1]) + 1) };
      return problem("service_refused_field", { path, orderName, params: { ...field } });
    });
}
