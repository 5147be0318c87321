/**
 * Senders per Shopify location (decision 0115), on the Settings page: each location the shop has gets a form, its
 * sender prefilled from the location's address until the merchant saves one; a location without a saved sender
 * ships with the shop's sender. Parsing checks the sender exactly like the shop's (zod schema, then country,
 * postcode and phone as a carrier would), each bad field with its own message (en and fr). Server-only.
 */
import { z } from "zod";
import type { PrismaClient } from "../generated/prisma/client";
import { toE164 } from "../shipping/phone";
import { locationSenderSchema, senderSchema, type LocationSender, type Sender, type ShippingSettings } from "../shipping/settings";
import type { ShopLocation } from "../shopify/operations/locations";
import type { FieldError, FieldErrorKey } from "./field-errors";
import { senderErrors } from "./shipping-settings-form";
import { loadShippingSettingsState, saveShippingSettings } from "./shipping-settings.server";

export const SENDER_FIELDS = ["firstName", "lastName", "company", "address1", "address2", "city", "zip", "countryCode", "phone", "email"] as const;

/** One location as the Settings page shows it. */
export interface LocationSenderRow {
  locationId: string;
  name: string;
  /** The merchant saved a sender for this location (else it ships with the shop's sender). */
  saved: boolean;
  /** Shopify no longer lists the location; its saved sender can be removed. */
  gone: boolean;
  /** `sender.<field>` values: the saved sender, or one prefilled from the location's address. */
  fields: Record<string, string>;
}

function senderFields(sender: Sender): Record<string, string> {
  return Object.fromEntries(SENDER_FIELDS.map((field) => [`sender.${field}`, sender[field]]));
}

/** A first sender for a location: its address, with the shop sender's name, company and e-mail. */
export function senderFromLocation(shopSender: Sender, location: ShopLocation): Sender {
  const address = location.address;
  return {
    firstName: shopSender.firstName,
    lastName: shopSender.lastName,
    company: shopSender.company || location.name,
    address1: address.address1?.trim() || "",
    address2: address.address2?.trim() || "",
    city: address.city?.trim() || "",
    zip: address.zip?.trim() || "",
    countryCode: address.countryCode?.trim().toUpperCase() || shopSender.countryCode,
    phone: address.phone?.trim() || shopSender.phone,
    email: shopSender.email,
  };
}

/** Every location Shopify lists (in its order), then saved senders of locations it no longer lists. */
export function locationSenderRows(settings: ShippingSettings, locations: readonly ShopLocation[]): LocationSenderRow[] {
  const rows: LocationSenderRow[] = locations.map((location) => {
    const saved = settings.locationSenders.find((entry) => entry.locationId === location.id);
    return { locationId: location.id, name: location.name, saved: Boolean(saved), gone: false, fields: senderFields(saved?.sender ?? senderFromLocation(settings.sender, location)) };
  });
  for (const entry of settings.locationSenders) {
    if (!locations.some((location) => location.id === entry.locationId)) {
      rows.push({ locationId: entry.locationId, name: entry.locationName || entry.locationId, saved: true, gone: true, fields: senderFields(entry.sender) });
    }
  }
  return rows;
}

const locationFormSchema = z.object({
  intent: z.enum(["saveLocationSender", "removeLocationSender"]),
  locationId: locationSenderSchema.shape.locationId,
  locationName: z.string().trim().max(255).default(""),
});

export type LocationSenderResult =
  | { intent: "saveLocationSender" | "removeLocationSender"; ok: true; locationId: string; locationName: string }
  | { intent: "saveLocationSender"; ok: false; locationId: string; locationName: string; fieldErrors: Record<string, FieldError>; fields: Record<string, string> }
  /** The shop's own sender is not saved yet: a location's cannot be either (it would store the defaults). */
  | { intent: "saveLocationSender" | "removeLocationSender"; ok: false; locationId: string; locationName: string; notConfigured: true };

/** A location sender form's fields, checked: the entry to save, or an error per field. */
export function parseLocationSenderFields(
  fields: Record<string, string>,
  target: { locationId: string; locationName: string },
): { ok: true; entry: LocationSender } | { ok: false; fieldErrors: Record<string, FieldError> } {
  const countryCode = (fields["sender.countryCode"] ?? "").trim().toUpperCase();
  const phone = toE164(fields["sender.phone"], { country: countryCode, zip: fields["sender.zip"] });
  const candidate = {
    ...Object.fromEntries(SENDER_FIELDS.map((field) => [field, (fields[`sender.${field}`] ?? "").trim()])),
    countryCode,
    phone: phone ?? "",
  };
  const parsed = senderSchema.safeParse(candidate);
  const fieldErrors: Record<string, FieldError> = senderErrors(fields, countryCode, phone);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = `sender.${issue.path.map(String).join(".")}`;
      const key: FieldErrorKey = field === "sender.email" ? "settings.error.email" : issue.code === "too_small" || issue.code === "invalid_type" ? "settings.error.required" : "settings.error.invalid";
      fieldErrors[field] ??= { key };
    }
  }
  if (Object.keys(fieldErrors).length > 0 || !parsed.success) return { ok: false, fieldErrors };
  return { ok: true, entry: { locationId: target.locationId, locationName: target.locationName, sender: parsed.data } };
}

/** Saves (or replaces) one location's sender, keeping everything else; false when the shop's settings are not saved. */
export async function saveLocationSender(db: PrismaClient, shop: string, entry: LocationSender): Promise<boolean> {
  const current = await loadShippingSettingsState(db, shop);
  if (!current.configured) return false;
  const others = current.settings.locationSenders.filter((existing) => existing.locationId !== entry.locationId);
  await saveShippingSettings(db, shop, { ...current.settings, locationSenders: [...others, entry] });
  return true;
}

/** The location ships with the shop's sender again. */
export async function removeLocationSender(db: PrismaClient, shop: string, locationId: string): Promise<boolean> {
  const current = await loadShippingSettingsState(db, shop);
  if (!current.configured) return false;
  await saveShippingSettings(db, shop, { ...current.settings, locationSenders: current.settings.locationSenders.filter((entry) => entry.locationId !== locationId) });
  return true;
}

/** The Settings page's location sender actions; a form that is not one of them is a 400. */
export async function handleLocationSenderAction(db: PrismaClient, shop: string, fields: Record<string, string>): Promise<LocationSenderResult> {
  const target = locationFormSchema.safeParse(fields);
  if (!target.success) throw new Response("Unknown location", { status: 400 });
  const { intent, locationId, locationName } = target.data;
  const base = { locationId, locationName };
  if (intent === "removeLocationSender") {
    return (await removeLocationSender(db, shop, locationId)) ? { intent, ok: true, ...base } : { intent, ok: false, ...base, notConfigured: true };
  }
  const parsed = parseLocationSenderFields(fields, base);
  if (!parsed.ok) return { intent, ok: false, ...base, fieldErrors: parsed.fieldErrors, fields };
  return (await saveLocationSender(db, shop, parsed.entry)) ? { intent, ok: true, ...base } : { intent, ok: false, ...base, notConfigured: true };
}
