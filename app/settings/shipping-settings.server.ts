/**
 * The shop's shipping settings, stored as JSON on ShopSettings and validated with shippingSettingsSchema. A shop
 * that has not saved them yet gets the defaults and `configured: false` (labels then wait for a sender address).
 */
import type { PrismaClient } from "../generated/prisma/client";
import { defaultShippingSettings, shippingSettingsSchema, type ShippingSettings } from "../shipping/settings";

export async function loadShippingSettingsState(db: PrismaClient, shop: string): Promise<{ settings: ShippingSettings; configured: boolean }> {
  const row = await db.shopSettings.findUnique({ where: { shop }, select: { settingsJson: true } });
  if (!row || row.settingsJson === "{}") return { settings: defaultShippingSettings, configured: false };
  try {
    const parsed = shippingSettingsSchema.safeParse(JSON.parse(row.settingsJson));
    if (parsed.success) return { settings: parsed.data, configured: true };
  } catch {
    // unreadable JSON: treated as not configured
  }
  return { settings: defaultShippingSettings, configured: false };
}

export async function loadShippingSettings(db: PrismaClient, shop: string): Promise<ShippingSettings> {
  return (await loadShippingSettingsState(db, shop)).settings;
}

export async function saveShippingSettings(db: PrismaClient, shop: string, settings: ShippingSettings): Promise<void> {
  const settingsJson = JSON.stringify(shippingSettingsSchema.parse(settings));
  await db.shopSettings.upsert({ where: { shop }, create: { shop, settingsJson }, update: { settingsJson } });
}

/**
 * Saves the Settings form: everything it edits, keeping what other pages edit (the shipping rules live on their own
 * page, so the settings form never carries them and must not erase them).
 */
export async function saveShippingSettingsForm(db: PrismaClient, shop: string, fromForm: ShippingSettings): Promise<void> {
  const current = await loadShippingSettingsState(db, shop);
  // The senders per location are saved by their own forms (location-senders.server.ts) and kept here alike.
  await saveShippingSettings(db, shop, {
    ...fromForm,
    rules: current.configured ? current.settings.rules : fromForm.rules,
    locationSenders: current.configured ? current.settings.locationSenders : fromForm.locationSenders,
  });
}

/**
 * Saves the shipping rules alone (the rules page); the other settings stay as they are. False when the shop has not
 * saved its settings yet: saving rules then would store the default sender as if the merchant had confirmed it.
 */
export async function saveShippingRules(db: PrismaClient, shop: string, rules: ShippingSettings["rules"]): Promise<boolean> {
  const current = await loadShippingSettingsState(db, shop);
  if (!current.configured) return false;
  await saveShippingSettings(db, shop, { ...current.settings, rules });
  return true;
}
