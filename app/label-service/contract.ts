/**
 * The label service's wire contract, as the app sends and reads it.
 *
 * This file is the single source of truth shared by the client (`app/label-service/`), the mapper
 * (`app/shipping/`) and, by reading the same rules, the sandbox. Field names follow
 * `shared/seed/label-service-interface.md`; what the interface leaves "not shown" is documented
 * next to each choice below.
 */
import { z } from "zod";

import { LABEL_FORMATS } from "./label-formats";

// The formats live in their own module so that a page's bundle (the settings form) can list them without zod.
export { LABEL_FORMATS, type LabelFormat } from "./label-formats";

/** CN23 categories, postal codes: 1 gift, 2 commercial sample, 3 sale of goods, 4 documents, 5 other, 6 returned goods. */
export const CN23_CATEGORIES = ["1", "2", "3", "4", "5", "6"] as const;
export type Cn23Category = (typeof CN23_CATEGORIES)[number];

/** Integer grams or centimetres, written as a string ("3000", "44"). */
export const integerString = z.string().regex(/^[0-9]+$/, "expected a whole number written as a string");
/** A decimal amount with a comma and two decimals ("59,90"). */
export const commaAmount = z.string().regex(/^[0-9]+,[0-9]{2}$/, "expected an amount like 59,90");
export const countryCode = z.string().regex(/^[A-Z]{2}$/, "expected an ISO 3166-1 alpha-2 code");
export const currencyCode = z.string().regex(/^[A-Z]{3}$/, "expected an ISO 4217 code");
/** `<YYYYMMDD>-<counter>`, as in the public example "20201218-013". */
export const customReference = z
  .string()
  .regex(/^[0-9]{8}-[0-9]{3,}$/, "expected <YYYYMMDD>-<counter>, e.g. 20201218-013");
/** E.164: a plus sign and 8 to 15 digits. */
export const e164Phone = z.string().regex(/^\+[1-9][0-9]{7,14}$/, "expected an international number like +33612345678");

const nonEmpty = z.string().trim().min(1);

export const cn23ProductSchema = z.object({
  unit_price: commaAmount,
  quantity: z.number().int().positive(),
  description: nonEmpty,
  weight: integerString,
  country_code: countryCode,
  currency_code: currencyCode,
  /** Not in the interface document. Sent only when the shop enables it (see docs/decisions). */
  hs_code: z
    .string()
    .regex(/^[0-9]{6,13}$/)
    .optional(),
});
export type Cn23Product = z.infer<typeof cn23ProductSchema>;

export const cn23DataSchema = z.object({
  category: z.enum(CN23_CATEGORIES),
  shipping_price: commaAmount,
  products: z.array(cn23ProductSchema).min(1),
});
export type Cn23Data = z.infer<typeof cn23DataSchema>;

export const senderSchema = z.object({
  lastname: nonEmpty,
  firstname: z.string(),
  address_line1: nonEmpty,
  /** May be an empty string (documented). */
  address_line2: z.string(),
  country: countryCode,
  city: nonEmpty,
  zip: nonEmpty,
  phone1: e164Phone,
  email: z.email(),
  company_name: z.string(),
  /** The label format travels inside the sender object (documented, camel case). */
  labelType: z.enum(LABEL_FORMATS),
});
export type LabelSender = z.infer<typeof senderSchema>;

export const recipientSchema = z.object({
  lastname: nonEmpty,
  firstname: z.string(),
  address_line1: nonEmpty,
  country: countryCode,
  city: nonEmpty,
  zip: z.string(),
  email: z.email(),
  /** Not shown by the interface for the recipient; sent when present (shop setting can fold it into line 1). */
  address_line2: z.string().optional(),
  /** Not shown by the interface for the recipient; carriers usually need it. */
  phone1: e164Phone.optional(),
  /** Not shown by the interface for the recipient. */
  company_name: z.string().optional(),
});
export type LabelRecipient = z.infer<typeof recipientSchema>;

/**
 * Standard base64 (RFC 4648, section 4: `A-Z a-z 0-9 + /`, `=` padding, no line breaks), non-empty. A data URL
 * (`data:application/pdf;base64,...`) or base64url is refused: send the bare base64 of the file.
 */
export const base64Content = z
  .string()
  .min(1, "expected the file encoded in base64, not an empty string")
  .regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, "expected standard base64 (A-Z, a-z, 0-9, + and /, = padding)");

/**
 * Strict: an unknown top-level key (a misspelled optional field such as `insured_valu`) is an error instead of being
 * silently dropped. Nested objects keep zod's default (unknown keys stripped).
 */
export const labelRequestSchema = z.strictObject({
  weight: integerString,
  width: integerString.optional(),
  height: integerString.optional(),
  length: integerString.optional(),
  carrier_name: nonEmpty,
  carrier_service_name: nonEmpty,
  custom_reference: customReference,
  description: z.string().optional(),
  /** Required outside the EU customs territory; the mapper decides. */
  cn23_data: cn23DataSchema.optional(),
  sender: senderSchema,
  recipient: recipientSchema,
  /**
   * NOTES: an insured value exists (integer, cents) but its field name did not render.
   * `insured_value` is our guess; it is only sent when a shop explicitly sets an insured value.
   */
  insured_value: z.number().int().nonnegative().optional(),
  /**
   * NOTES: a base64 invoice passed to customs (paperless trade) exists but its field name did not render.
   * `invoice_base64` is our guess (an assumption, see docs/readme/label-client.md): the invoice file (PDF) as bare
   * standard base64. Only sent when a caller explicitly provides an invoice.
   */
  invoice_base64: base64Content.optional(),
});
export type LabelRequest = z.infer<typeof labelRequestSchema>;

/** The documented success response. Parsed leniently: the five fields are required, extra fields are kept. */
export const labelResponseSchema = z
  .object({
    message: z.string(),
    reference: z.string().min(1),
    label_url: z.string().min(1),
    id: z.union([z.string(), z.number()]).transform(String),
    tracking_url: z.string().min(1),
  })
  .loose();
export type LabelResponse = z.infer<typeof labelResponseSchema>;

/** Carrier names the app knows; the service may accept more (looked up at runtime). */
export const KNOWN_CARRIERS = ["Dhl", "Colissimo", "Chronopost"] as const;

/** Carriers for which the service documents dimensions and description as mandatory. */
export const CARRIERS_REQUIRING_DIMENSIONS: readonly string[] = ["Dhl"];
