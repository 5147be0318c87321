/**
 * The shipping-settings form: flat form fields <-> ShippingSettings. Parsing checks everything with the settings
 * schema and names each bad field; the sender phone is stored in E.164.
 */
import { toE164 } from "../shipping/phone";
import { shippingSettingsSchema, type ShippingSettings } from "../shipping/settings";
import type { ShopAddress } from "../shopify/operations/shop-address";

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
  | { ok: false; fieldErrors: Record<string, string>; fields: Record<string, string> };

export function parseShippingSettingsFields(fields: Record<string, string>): SettingsFormResult {
  const countryCode = (fields["sender.countryCode"] ?? "").trim().toUpperCase();
  const phone = toE164(fields["sender.phone"], countryCode);
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
      zip: fields["sender.zip"] ?? "",
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
  const fieldErrors: Record<string, string> = {};
  if (!phone) fieldErrors["sender.phone"] = "phone";
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.join(".");
      if (path === "sender.phone") continue;
      fieldErrors[path || "form"] = issue.message;
    }
  }
  if (Object.keys(fieldErrors).length > 0 || !parsed.success) return { ok: false, fieldErrors, fields };
  return { ok: true, settings: parsed.data };
}
