/**
 * The shipping-settings form: flat form fields <-> ShippingSettings. Parsing checks everything with the settings
 * schema, and the sender like a carrier would (ISO country, postcode format of that country and, in France, La
 * Poste's list, phone valid there); each bad field gets an error as data (message key + values). The sender phone
 * is stored in E.164. Server-only (the postcode base is large): the form's page reads MAX_BOXES from its loader.
 */
import { checkPostcode, isKnownCountry } from "../shipping/address";
import { toE164 } from "../shipping/phone";
import { shippingSettingsSchema, type ShippingSettings } from "../shipping/settings";
import type { ShopAddress } from "../shopify/operations/shop-address";
import type { FieldError, FieldErrorKey } from "./field-errors";

export const MAX_BOXES = 5;

/** Form values (strings) for a settings object. */
export function settingsToFields(settings: ShippingSettings): Record<string, string> {
  const fields: Record<string, string> = {
    "sender.firstName": settings.sender.firstName,
    "sender.lastName": settings.sender.lastName,
    "sender.company": settings.sender.company,
    "sender.address1": settings.sender.address1,
    "sender.address2": settings.sender.address2,
    "sender.city": settings.sender.city,
    "sender.zip": settings.sender.zip,
    "sender.countryCode": settings.sender.countryCode,
    "sender.phone": settings.sender.phone,
    "sender.email": settings.sender.email,
    labelFormat: settings.labelFormat,
    defaultWeightGrams: settings.defaultWeightGrams ? String(settings.defaultWeightGrams) : "",
    "cn23.category": settings.cn23.category,
    "cn23.fallbackOriginCountry": settings.cn23.fallbackOriginCountry ?? "",
    foldAddressLine2: String(settings.foldAddressLine2),
    includeHsCode: String(settings.includeHsCode),
    notifyCustomer: String(settings.notifyCustomer),
    descriptionMaxLength: String(settings.descriptionMaxLength),
    defaultBox: settings.boxes.find((box) => box.isDefault)?.name ?? settings.boxes[0]?.name ?? "",
  };
  for (const zone of ["domestic", "eu", "world"] as const) {
    fields[`carriers.${zone}`] = `${settings.carriers[zone].carrierName}|${settings.carriers[zone].serviceName}`;
  }
  settings.boxes.forEach((box, index) => {
    fields[`boxes.${index}.name`] = box.name;
    fields[`boxes.${index}.lengthCm`] = String(box.lengthCm);
    fields[`boxes.${index}.widthCm`] = String(box.widthCm);
    fields[`boxes.${index}.heightCm`] = String(box.heightCm);
    fields[`boxes.${index}.packagingWeightGrams`] = String(box.packagingWeightGrams);
  });
  return fields;
}

/** A first sender address from the shop's own address, for a shop that has not saved settings yet. */
export function senderFromShop(settings: ShippingSettings, shop: ShopAddress): ShippingSettings {
  const address = shop.shopAddress;
  return {
    ...settings,
    sender: {
      ...settings.sender,
      company: address.company?.trim() || shop.name,
      lastName: shop.name,
      firstName: "",
      address1: address.address1?.trim() || settings.sender.address1,
      address2: address.address2?.trim() ?? "",
      city: address.city?.trim() || settings.sender.city,
      zip: address.zip?.trim() || settings.sender.zip,
      countryCode: address.countryCodeV2?.trim() || settings.sender.countryCode,
      phone: address.phone?.trim() || settings.sender.phone,
      email: shop.email || settings.sender.email,
    },
  };
}

const optionalNumber = (value: string | undefined) => (value === undefined || value.trim() === "" ? undefined : Number(value));

export type SettingsFormResult =
  | { ok: true; settings: ShippingSettings }
  | { ok: false; fieldErrors: Record<string, FieldError>; fields: Record<string, string> };

/** Whole-number fields and their accepted ranges (as the settings schema has them). */
function numberRange(field: string): { min: string; max: string } | undefined {
  if (/^boxes\.[0-9]+\.(lengthCm|widthCm|heightCm)$/.test(field)) return { min: "1", max: "300" };
  if (/^boxes\.[0-9]+\.packagingWeightGrams$/.test(field)) return { min: "0", max: "30000" };
  if (field === "defaultWeightGrams") return { min: "1", max: "30000" };
  if (field === "descriptionMaxLength") return { min: "10", max: "200" };
  return undefined;
}

const CHOICE_FIELDS = new Set(["labelFormat", "cn23.category", "carriers.domestic", "carriers.eu", "carriers.world"]);

/** A schema issue as an error the merchant can act on, on the form field it belongs to. */
function schemaError(path: string, code: string, boxCount: number): [field: string, error: FieldError] {
  const range = numberRange(path);
  if (range) return [path, { key: "settings.error.wholeNumber", values: range }];
  if (path === "boxes") return ["defaultBox", { key: boxCount === 0 ? "settings.error.noBox" : "settings.error.boxNames" }];
  const choice = CHOICE_FIELDS.has(path) || path.startsWith("carriers.") ? path.split(".").slice(0, 2).join(".") : undefined;
  if (choice) return [choice, { key: "settings.error.choose" }];
  if (path === "sender.email") return [path, { key: "settings.error.email" }];
  const key: FieldErrorKey = code === "too_small" || code === "invalid_type" ? "settings.error.required" : "settings.error.invalid";
  return [path || "form", { key }];
}

/** The sender as a carrier checks it: a known country, a postcode of that country, a phone valid there. */
export function senderErrors(fields: Record<string, string>, countryCode: string, phone: string | undefined): Record<string, FieldError> {
  const errors: Record<string, FieldError> = {};
  const typedCountry = (fields["sender.countryCode"] ?? "").trim();
  const zip = (fields["sender.zip"] ?? "").trim();
  if (!isKnownCountry(countryCode)) {
    errors["sender.countryCode"] = { key: "settings.error.country", values: { value: typedCountry } };
  } else {
    const postcode = checkPostcode(zip, { country: countryCode, city: fields["sender.city"] });
    if (postcode === "missing") errors["sender.zip"] = { key: "settings.error.postcodeMissing" };
    if (postcode === "malformed") errors["sender.zip"] = { key: "settings.error.postcodeMalformed", values: { value: zip, country: countryCode } };
    if (postcode === "unknown") errors["sender.zip"] = { key: "settings.error.postcodeUnknown", values: { value: zip } };
  }
  if (!phone) {
    const typed = (fields["sender.phone"] ?? "").trim();
    errors["sender.phone"] = typed
      ? { key: "settings.error.phone", values: { value: typed, country: isKnownCountry(countryCode) ? countryCode : "FR" } }
      : { key: "settings.error.required" };
  }
  const fallback = (fields["cn23.fallbackOriginCountry"] ?? "").trim();
  if (fallback && !isKnownCountry(fallback)) errors["cn23.fallbackOriginCountry"] = { key: "settings.error.country", values: { value: fallback } };
  return errors;
}

export function parseShippingSettingsFields(fields: Record<string, string>): SettingsFormResult {
  const countryCode = (fields["sender.countryCode"] ?? "").trim().toUpperCase();
  const phone = toE164(fields["sender.phone"], { country: countryCode, zip: fields["sender.zip"] });
  const boxes = Array.from({ length: MAX_BOXES }, (_, index) => index)
    .filter((index) => (fields[`boxes.${index}.name`] ?? "").trim() !== "")
    .map((index) => ({
      name: fields[`boxes.${index}.name`]!.trim(),
      lengthCm: optionalNumber(fields[`boxes.${index}.lengthCm`]),
      widthCm: optionalNumber(fields[`boxes.${index}.widthCm`]),
      heightCm: optionalNumber(fields[`boxes.${index}.heightCm`]),
      packagingWeightGrams: optionalNumber(fields[`boxes.${index}.packagingWeightGrams`]) ?? 0,
      isDefault: fields.defaultBox === fields[`boxes.${index}.name`]!.trim(),
    }));
  if (boxes.length > 0 && !boxes.some((box) => box.isDefault)) boxes[0]!.isDefault = true;
  const carrier = (zone: string) => {
    const [carrierName = "", serviceName = ""] = (fields[`carriers.${zone}`] ?? "").split("|");
    return { carrierName, serviceName };
  };
  const candidate = {
    sender: {
      firstName: fields["sender.firstName"] ?? "",
      lastName: fields["sender.lastName"] ?? "",
      company: fields["sender.company"] ?? "",
      address1: fields["sender.address1"] ?? "",
      address2: fields["sender.address2"] ?? "",
      city: fields["sender.city"] ?? "",
      zip: (fields["sender.zip"] ?? "").trim(),
      countryCode,
      phone: phone ?? "",
      email: (fields["sender.email"] ?? "").trim(),
    },
    labelFormat: fields.labelFormat,
    boxes,
    defaultWeightGrams: optionalNumber(fields.defaultWeightGrams),
    cn23: {
      category: fields["cn23.category"] || "3",
      fallbackOriginCountry: (fields["cn23.fallbackOriginCountry"] ?? "").trim().toUpperCase() || undefined,
    },
    foldAddressLine2: fields.foldAddressLine2 === "true" || fields.foldAddressLine2 === "on",
    includeHsCode: fields.includeHsCode === "true" || fields.includeHsCode === "on",
    notifyCustomer: fields.notifyCustomer === "true" || fields.notifyCustomer === "on",
    descriptionMaxLength: optionalNumber(fields.descriptionMaxLength) ?? 35,
    carriers: { domestic: carrier("domestic"), eu: carrier("eu"), world: carrier("world") },
  };
  const parsed = shippingSettingsSchema.safeParse(candidate);
  // The carrier-like checks come first: they say more than the schema's (country, postcode, phone).
  const fieldErrors: Record<string, FieldError> = senderErrors(fields, countryCode, phone);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [field, error] = schemaError(issue.path.map(String).join("."), issue.code, boxes.length);
      fieldErrors[field] ??= error;
    }
  }
  if (Object.keys(fieldErrors).length > 0 || !parsed.success) return { ok: false, fieldErrors, fields };
  return { ok: true, settings: parsed.data };
}
