/** The shop's shipping settings (stored per shop as JSON, validated with this schema). */
import { z } from "zod";
import { CN23_CATEGORIES, LABEL_FORMATS } from "../label-service/contract";
import { shippingRulesSchema } from "./rules";

const country = z.string().regex(/^[A-Z]{2}$/, "a two-letter country code, like FR");

export const boxSchema = z.object({
  name: z.string().trim().min(1).max(40),
  lengthCm: z.number().int().positive().max(300),
  widthCm: z.number().int().positive().max(300),
  heightCm: z.number().int().positive().max(300),
  packagingWeightGrams: z.number().int().nonnegative().max(30_000),
  isDefault: z.boolean().default(false),
});
export type Box = z.infer<typeof boxSchema>;

const carrierChoice = z.object({ carrierName: z.string().trim().min(1), serviceName: z.string().trim().min(1) });
export type CarrierChoice = z.infer<typeof carrierChoice>;

export const senderSchema = z.object({
  firstName: z.string().trim().default(""),
  lastName: z.string().trim().min(1),
  company: z.string().trim().default(""),
  address1: z.string().trim().min(1),
  address2: z.string().trim().default(""),
  city: z.string().trim().min(1),
  zip: z.string().trim().min(1),
  countryCode: country,
  phone: z.string().trim().min(1),
  email: z.email(),
});
export type Sender = z.infer<typeof senderSchema>;

/** A Shopify location's own sender address (app/shipping/location-sender.ts picks it for the location's parcels). */
export const locationSenderSchema = z.object({
  locationId: z.string().regex(/^gid:\/\/shopify\/Location\/\d+$/),
  /** The location's name when saved, shown if Shopify no longer lists the location. */
  locationName: z.string().trim().max(255).default(""),
  sender: senderSchema,
});
export type LocationSender = z.infer<typeof locationSenderSchema>;

export const shippingSettingsSchema = z.object({
  sender: senderSchema,
  /** Per-location senders; a location without one ships with `sender` (the shop's). */
  locationSenders: z
    .array(locationSenderSchema)
    .max(500)
    .refine((entries) => new Set(entries.map((entry) => entry.locationId)).size === entries.length, "one sender per location")
    .default([]),
  labelFormat: z.enum(LABEL_FORMATS).default("PDF_A4_300dpi"),
  boxes: z
    .array(boxSchema)
    .min(1)
    .refine((boxes) => boxes.filter((box) => box.isDefault).length <= 1, "only one box can be the default")
    .refine((boxes) => new Set(boxes.map((box) => box.name)).size === boxes.length, "box names must be unique"),
  /** Used when the items' weights add up to zero. */
  defaultWeightGrams: z.number().int().positive().max(30_000).optional(),
  cn23: z.object({
    category: z.enum(CN23_CATEGORIES).default("3"),
    fallbackOriginCountry: country.optional(),
  }),
  /** Send recipient address line 2 inside line 1 (for a service that rejects address_line2). */
  foldAddressLine2: z.boolean().default(false),
  /** Send each CN23 product's HS code (not in the interface document; off by default). */
  includeHsCode: z.boolean().default(false),
  descriptionMaxLength: z.number().int().min(10).max(200).default(35),
  carriers: z.object({ domestic: carrierChoice, eu: carrierChoice, world: carrierChoice }),
  notifyCustomer: z.boolean().default(true),
  /** Checkout rate -> carrier service rules, first match wins; the zone defaults above are the last rule. */
  rules: shippingRulesSchema.default([]),
});
export type ShippingSettings = z.infer<typeof shippingSettingsSchema>;
export type ShippingSettingsInput = z.input<typeof shippingSettingsSchema>;

/** A French shop in Paris: what a new shop starts from (the sender is replaced by the shop's own address). */
export const defaultShippingSettings: ShippingSettings = shippingSettingsSchema.parse({
  sender: {
    firstName: "",
    lastName: "Expéditions",
    company: "Maison Étiquette",
    address1: "10 rue de Rivoli",
    city: "Paris",
    zip: "75004",
    countryCode: "FR",
    phone: "+33142000000",
    email: "expeditions@example.fr",
  },
  boxes: [{ name: "Standard", lengthCm: 30, widthCm: 20, heightCm: 10, packagingWeightGrams: 150, isDefault: true }],
  // No fallback origin by default: a missing origin must be a decision of the merchant, not a silent "FR".
  cn23: { category: "3" },
  carriers: {
    domestic: { carrierName: "Colissimo", serviceName: "DOM" },
    eu: { carrierName: "Dhl", serviceName: "U" },
    world: { carrierName: "Dhl", serviceName: "P" },
  },
});
