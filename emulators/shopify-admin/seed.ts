/**
 * The seed format: one JSON document describing one or more shops (zod-validated on load, errors name the
 * exact path). See docs/readme/shopify-emulator.md for a walkthrough; `seed/default.json` is a full example.
 */
import fs from "node:fs";
import { z } from "zod";
import { enumValues } from "./schema";

const decimal = z
  .union([z.string(), z.number()])
  .transform((value) => (typeof value === "number" ? value.toFixed(2) : value.trim()))
  .refine((value) => /^-?\d+(\.\d{1,2})?$/.test(value), {
    message: 'must be an amount with at most 2 decimals, such as "12.50"',
  });

const isoDateTime = z.string().refine((value) => /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value)), {
  message: 'must be an ISO 8601 date-time such as "2026-11-02T09:15:00Z"',
});

const id = z.number().int().positive();
const countryCode = z.string().regex(/^[A-Z]{2}$/, "must be a 2-letter ISO country code in capitals, such as FR");
const currencyCode = z.string().regex(/^[A-Z]{3}$/, "must be a 3-letter ISO currency code in capitals, such as EUR");
const weightUnit = z.enum(["GRAMS", "KILOGRAMS", "OUNCES", "POUNDS"]);

export const addressSchema = z
  .object({
    firstName: z.string().nullable().default(null),
    lastName: z.string().nullable().default(null),
    company: z.string().nullable().default(null),
    address1: z.string().nullable().default(null),
    address2: z.string().nullable().default(null),
    city: z.string().nullable().default(null),
    zip: z.string().nullable().default(null),
    province: z.string().nullable().default(null),
    provinceCode: z.string().nullable().default(null),
    countryCode,
    phone: z.string().nullable().default(null),
  })
  .strict();

const variantSchema = z
  .object({
    id,
    title: z.string().min(1).default("Default Title"),
    sku: z.string().nullable().default(null),
    price: decimal,
    requiresShipping: z.boolean().default(true),
    isGiftCard: z.boolean().default(false),
    weight: z.object({ value: z.number().nonnegative(), unit: weightUnit }).strict().default({ value: 0, unit: "GRAMS" }),
    harmonizedSystemCode: z
      .string()
      .regex(/^\d{6,13}$/, "must be 6 to 13 digits (HS code)")
      .nullable()
      .default(null),
    countryCodeOfOrigin: countryCode.nullable().default(null),
    inventoryItemId: id.optional(),
  })
  .strict();

const productSchema = z
  .object({
    id,
    title: z.string().min(1),
    vendor: z.string().default(""),
    productType: z.string().default(""),
    variants: z.array(variantSchema).min(1),
  })
  .strict();

const lineItemSchema = z
  .object({
    id,
    variantId: id.nullable().default(null),
    title: z.string().min(1).optional(),
    variantTitle: z.string().nullable().optional(),
    sku: z.string().nullable().optional(),
    vendor: z.string().nullable().optional(),
    quantity: z.number().int().min(1),
    removedQuantity: z.number().int().min(0).default(0),
    price: decimal.optional(),
    unitDiscount: decimal.default("0"),
    orderDiscount: decimal.default("0"),
    taxRate: z.number().min(0).max(1).default(0),
    requiresShipping: z.boolean().optional(),
    isGiftCard: z.boolean().optional(),
    /** The location the line ships from (its fulfillment order's assigned location); omitted: the shop's location. */
    locationId: id.optional(),
  })
  .strict();

const seedFulfillmentSchema = z
  .object({
    createdAt: isoDateTime,
    status: z.enum(["SUCCESS", "CANCELLED"]).default("SUCCESS"),
    trackingCompany: z.string().nullable().default(null),
    trackingNumber: z.string().nullable().default(null),
    trackingUrl: z.string().url().nullable().default(null),
    lineItems: z
      .array(z.object({ lineItemId: id, quantity: z.number().int().min(1) }).strict())
      .optional()
      .describe("omitted: every remaining shippable quantity"),
  })
  .strict();

const metafieldSeedSchema = z
  .object({ namespace: z.string().min(2), key: z.string().min(2), type: z.string().min(1), value: z.string() })
  .strict();

const orderSchema = z
  .object({
    id,
    number: z.number().int().positive(),
    name: z.string().min(1).optional(),
    createdAt: isoDateTime,
    processedAt: isoDateTime.optional(),
    email: z.string().nullable().default(null),
    phone: z.string().nullable().default(null),
    customer: z
      .object({
        id,
        firstName: z.string().nullable().default(null),
        lastName: z.string().nullable().default(null),
        email: z.string().nullable().default(null),
        phone: z.string().nullable().default(null),
      })
      .strict()
      .nullable()
      .default(null),
    presentmentCurrencyCode: currencyCode.optional(),
    exchangeRate: z.number().positive().default(1).describe("presentment units per shop unit"),
    shippingAddress: addressSchema.nullable().default(null),
    billingAddress: addressSchema.nullable().default(null),
    shippingLine: z
      .object({
        title: z.string().min(1),
        code: z.string().nullable().default(null),
        price: decimal,
        carrierIdentifier: z.string().nullable().default(null),
        source: z.string().nullable().default("shopify"),
      })
      .strict()
      .nullable()
      .default(null),
    lineItems: z.array(lineItemSchema).min(1),
    fulfillments: z.array(seedFulfillmentSchema).default([]),
    cancelledAt: isoDateTime.nullable().default(null),
    cancelReason: z.enum(["CUSTOMER", "DECLINED", "FRAUD", "INVENTORY", "OTHER", "STAFF"]).nullable().default(null),
    closedAt: isoDateTime.nullable().default(null),
    note: z.string().nullable().default(null),
    tags: z.array(z.string()).default([]),
    financialStatus: z
      .enum(["AUTHORIZED", "EXPIRED", "PAID", "PARTIALLY_PAID", "PARTIALLY_REFUNDED", "PENDING", "REFUNDED", "VOIDED"])
      .default("PAID"),
    test: z.boolean().default(false),
    metafields: z.array(metafieldSeedSchema).default([]),
  })
  .strict();

const shopSchema = z
  .object({
    domain: z.string().regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/, 'must look like "my-shop.myshopify.com"'),
    accessToken: z.string().min(8, "must be at least 8 characters"),
    /** The shop's Shopify plan, which sets its Admin API bucket and restore rate (default: the emulator's plan). */
    plan: z.enum(["standard", "advanced", "plus"]).optional(),
    /** A partner development store (`shop.plan.partnerDevelopment`): test customers only (the demo shop is one). */
    developmentStore: z.boolean().default(false),
    appId: z.string().regex(/^\d+$/, "must be the numeric app id used for the $app metafield namespace").default("1"),
    name: z.string().min(1),
    email: z.string().min(3),
    currencyCode,
    ianaTimezone: z.string().min(1),
    taxesIncluded: z.boolean().default(true),
    weightUnit: weightUnit.default("KILOGRAMS"),
    createdAt: isoDateTime.default("2025-01-01T00:00:00Z"),
    address: addressSchema,
    location: z.object({ id, name: z.string().min(1), address: addressSchema }).strict(),
    /** More locations (warehouses): an order's lines assigned to one get a fulfillment order of their own there. */
    locations: z.array(z.object({ id, name: z.string().min(1), address: addressSchema }).strict()).default([]),
    products: z.array(productSchema).default([]),
    orders: z.array(orderSchema).default([]),
    metafields: z.array(metafieldSeedSchema).default([]),
  })
  .strict();

export const seedSchema = z
  .object({ $comment: z.string().optional(), shops: z.array(shopSchema).min(1) })
  .strict()
  .superRefine((seed, ctx) => {
    const countries = enumValues("CountryCode");
    const currencies = enumValues("CurrencyCode");
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message });
    const checkCountry = (code: string | undefined, path: (string | number)[]) => {
      if (code && !countries.has(code)) issue(path, `${code} is not a CountryCode of the 2026-10 schema`);
    };
    const seen = { domains: new Set<string>(), tokens: new Set<string>() };
    seed.shops.forEach((shop, s) => {
      const at = (...rest: (string | number)[]) => ["shops", s, ...rest];
      if (seen.domains.has(shop.domain)) issue(at("domain"), `duplicate shop domain ${shop.domain}`);
      if (seen.tokens.has(shop.accessToken)) issue(at("accessToken"), "duplicate access token (tokens choose the shop)");
      seen.domains.add(shop.domain);
      seen.tokens.add(shop.accessToken);
      if (!currencies.has(shop.currencyCode)) issue(at("currencyCode"), `${shop.currencyCode} is not a CurrencyCode`);
      if (!isValidTimeZone(shop.ianaTimezone)) issue(at("ianaTimezone"), `${shop.ianaTimezone} is not an IANA time zone`);
      checkCountry(shop.address.countryCode, at("address", "countryCode"));
      const locationIds = new Set([shop.location.id]);
      shop.locations.forEach((location, l) => {
        if (locationIds.has(location.id)) issue(at("locations", l, "id"), `duplicate location id ${location.id}`);
        locationIds.add(location.id);
        checkCountry(location.address.countryCode, at("locations", l, "address", "countryCode"));
      });
      const variants = new Map<number, z.infer<typeof variantSchema>>();
      const productIds = new Set<number>();
      shop.products.forEach((product, p) => {
        if (productIds.has(product.id)) issue(at("products", p, "id"), `duplicate product id ${product.id}`);
        productIds.add(product.id);
        product.variants.forEach((variant, v) => {
          if (variants.has(variant.id)) issue(at("products", p, "variants", v, "id"), `duplicate variant id ${variant.id}`);
          variants.set(variant.id, variant);
          checkCountry(variant.countryCodeOfOrigin ?? undefined, at("products", p, "variants", v, "countryCodeOfOrigin"));
        });
      });
      const orderIds = new Set<number>();
      const orderNumbers = new Set<number>();
      const lineItemIds = new Set<number>();
      shop.orders.forEach((order, o) => {
        if (orderIds.has(order.id)) issue(at("orders", o, "id"), `duplicate order id ${order.id}`);
        if (orderNumbers.has(order.number)) issue(at("orders", o, "number"), `duplicate order number ${order.number}`);
        orderIds.add(order.id);
        orderNumbers.add(order.number);
        if (order.presentmentCurrencyCode && !currencies.has(order.presentmentCurrencyCode)) {
          issue(at("orders", o, "presentmentCurrencyCode"), `${order.presentmentCurrencyCode} is not a CurrencyCode`);
        }
        checkCountry(order.shippingAddress?.countryCode, at("orders", o, "shippingAddress", "countryCode"));
        checkCountry(order.billingAddress?.countryCode, at("orders", o, "billingAddress", "countryCode"));
        if (order.cancelReason && !order.cancelledAt) issue(at("orders", o, "cancelReason"), "cancelReason needs cancelledAt");
        const quantities = new Map<number, number>();
        order.lineItems.forEach((line, l) => {
          if (lineItemIds.has(line.id)) issue(at("orders", o, "lineItems", l, "id"), `duplicate line item id ${line.id}`);
          lineItemIds.add(line.id);
          if (line.locationId !== undefined && !locationIds.has(line.locationId)) issue(at("orders", o, "lineItems", l, "locationId"), `no location ${line.locationId} in this shop`);
          quantities.set(line.id, line.quantity - line.removedQuantity);
          if (line.removedQuantity > line.quantity) {
            issue(at("orders", o, "lineItems", l, "removedQuantity"), "cannot exceed quantity");
          }
          if (line.variantId !== null && !variants.has(line.variantId)) {
            issue(at("orders", o, "lineItems", l, "variantId"), `no product variant with id ${line.variantId} in this shop`);
          }
          if (line.variantId === null && (line.title === undefined || line.price === undefined)) {
            issue(at("orders", o, "lineItems", l), "a custom line item (variantId null) needs a title and a price");
          }
        });
        order.fulfillments.forEach((fulfillment, f) => {
          fulfillment.lineItems?.forEach((entry, e) => {
            const left = quantities.get(entry.lineItemId);
            if (left === undefined) {
              issue(at("orders", o, "fulfillments", f, "lineItems", e, "lineItemId"), `line item ${entry.lineItemId} is not in this order`);
            } else if (fulfillment.status === "SUCCESS") {
              if (entry.quantity > left) {
                issue(at("orders", o, "fulfillments", f, "lineItems", e, "quantity"), `only ${left} left to fulfil`);
              }
              quantities.set(entry.lineItemId, left - entry.quantity);
            }
          });
        });
      });
    });
  });

export type Seed = z.input<typeof seedSchema>;
export type ParsedSeed = z.output<typeof seedSchema>;
export type SeedShop = ParsedSeed["shops"][number];
export type SeedOrder = SeedShop["orders"][number];
export type SeedAddress = z.output<typeof addressSchema>;

export class SeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SeedError";
  }
}

function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const part of path) out += typeof part === "number" ? `[${part}]` : `${out ? "." : ""}${String(part)}`;
  return out || "(root)";
}

/** Validates a seed object; throws a SeedError listing every problem with its path. */
export function parseSeed(input: unknown, source = "seed"): ParsedSeed {
  const result = seedSchema.safeParse(input);
  if (result.success) return result.data;
  const lines = result.error.issues.slice(0, 50).map((issue) => `  - ${formatPath(issue.path)}: ${issue.message}`);
  const more = result.error.issues.length > 50 ? `\n  ... and ${result.error.issues.length - 50} more` : "";
  throw new SeedError(`Invalid Shopify emulator seed (${source}):\n${lines.join("\n")}${more}`);
}

/** Reads and validates a seed file. */
export function loadSeedFile(file: string): ParsedSeed {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new SeedError(`Cannot read Shopify emulator seed ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SeedError(`Shopify emulator seed ${file} is not valid JSON: ${(error as Error).message}`);
  }
  return parseSeed(json, file);
}
