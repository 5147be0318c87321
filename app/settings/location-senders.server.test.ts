import { afterAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/helpers/test-db";
import { translator } from "../i18n/translate.server";
import { defaultShippingSettings } from "../shipping/settings";
import type { ShopLocation } from "../shopify/operations/locations";
import { describeFieldError } from "./field-errors";
import { handleLocationSenderAction, locationSenderRows, parseLocationSenderFields, senderFromLocation } from "./location-senders.server";
import { loadShippingSettings, saveShippingSettings, saveShippingSettingsForm } from "./shipping-settings.server";

const database = createTestDatabase();
afterAll(() => database.close());
const db = database.prisma;

const LYON = "gid://shopify/Location/71000002";
const lyon: ShopLocation = {
  id: LYON,
  name: "Entrepôt Lyon",
  address: { address1: "15 rue de la Villette", address2: "Quai 4", city: "Lyon", zip: "69003", countryCode: "FR", phone: "+33 4 72 00 00 00" },
};
const paris: ShopLocation = { id: "gid://shopify/Location/71000001", name: "Atelier Paris", address: { address1: "24 rue du Faubourg Saint-Antoine", city: "Paris", zip: "75012", countryCode: "FR" } };

const validFields = {
  intent: "saveLocationSender",
  locationId: LYON,
  locationName: "Entrepôt Lyon",
  "sender.firstName": "",
  "sender.lastName": "Expéditions Lyon",
  "sender.company": "Maison Étiquette",
  "sender.address1": "15 rue de la Villette",
  "sender.address2": "Quai 4",
  "sender.city": "Lyon",
  "sender.zip": "69003",
  "sender.countryCode": "fr",
  "sender.phone": "04 72 00 00 00",
  "sender.email": "lyon@example.fr",
};

describe("the Settings rows", () => {
  it("prefills a location without a sender from its own address, with the shop sender's name and e-mail", () => {
    const [row] = locationSenderRows(defaultShippingSettings, [lyon]);
    expect(row).toMatchObject({ locationId: LYON, name: "Entrepôt Lyon", saved: false, gone: false });
    expect(row!.fields).toMatchObject({
      "sender.address1": "15 rue de la Villette",
      "sender.zip": "69003",
      "sender.city": "Lyon",
      "sender.phone": "+33 4 72 00 00 00",
      "sender.lastName": defaultShippingSettings.sender.lastName,
      "sender.email": defaultShippingSettings.sender.email,
    });
  });

  it("shows a saved sender as saved, and keeps one whose location Shopify no longer lists", () => {
    const sender = senderFromLocation(defaultShippingSettings.sender, lyon);
    const settings = { ...defaultShippingSettings, locationSenders: [{ locationId: LYON, locationName: "Entrepôt Lyon", sender: { ...sender, city: "Vénissieux" } }] };
    expect(locationSenderRows(settings, [paris, lyon]).map((row) => [row.name, row.saved, row.fields["sender.city"]])).toEqual([
      ["Atelier Paris", false, "Paris"],
      ["Entrepôt Lyon", true, "Vénissieux"],
    ]);
    expect(locationSenderRows(settings, [paris]).at(-1)).toMatchObject({ locationId: LYON, saved: true, gone: true });
  });

  it("falls back to the shop sender's phone and country where the location has none", () => {
    const bare = senderFromLocation(defaultShippingSettings.sender, { id: LYON, name: "Dépôt", address: {} });
    expect(bare).toMatchObject({ phone: defaultShippingSettings.sender.phone, countryCode: "FR", address1: "" });
  });
});

describe("parseLocationSenderFields", () => {
  it("accepts a valid sender, with the country upper-cased and the phone stored in E.164", () => {
    const parsed = parseLocationSenderFields(validFields, { locationId: LYON, locationName: "Entrepôt Lyon" });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.fieldErrors));
    expect(parsed.entry.sender).toMatchObject({ countryCode: "FR", phone: "+33472000000", zip: "69003" });
  });

  it("names each bad field with its own message, in English and French", () => {
    const parsed = parseLocationSenderFields(
      { ...validFields, "sender.zip": "6900", "sender.phone": "12", "sender.email": "lyon", "sender.address1": " " },
      { locationId: LYON, locationName: "Entrepôt Lyon" },
    );
    if (parsed.ok) throw new Error("should fail");
    expect(Object.keys(parsed.fieldErrors).sort()).toEqual(["sender.address1", "sender.email", "sender.phone", "sender.zip"]);
    const en = translator("en");
    const fr = translator("fr");
    expect(describeFieldError(parsed.fieldErrors["sender.zip"]!, "Postcode", en, "en")).toContain("6900");
    expect(describeFieldError(parsed.fieldErrors["sender.phone"]!, "Téléphone", fr, "fr")).toContain("« 12 »");
    expect(describeFieldError(parsed.fieldErrors["sender.address1"]!, "Address", en, "en")).toMatch(/Address/);
  });
});

describe("handleLocationSenderAction", () => {
  it("refuses to save before the shop's own sender is saved (it would store the defaults)", async () => {
    const result = await handleLocationSenderAction(db, "first.myshopify.com", validFields);
    expect(result).toMatchObject({ ok: false, notConfigured: true });
    expect(await db.shopSettings.count({ where: { shop: "first.myshopify.com" } })).toBe(0);
  });

  it("saves, replaces and removes a location's sender, keeping it when the shipping form is saved", async () => {
    const shop = "loc.myshopify.com";
    await saveShippingSettings(db, shop, defaultShippingSettings);
    expect(await handleLocationSenderAction(db, shop, validFields)).toMatchObject({ ok: true, locationId: LYON });
    expect(await handleLocationSenderAction(db, shop, { ...validFields, "sender.address2": "Quai 5" })).toMatchObject({ ok: true });
    let saved = await loadShippingSettings(db, shop);
    expect(saved.locationSenders).toHaveLength(1);
    expect(saved.locationSenders[0]!.sender.address2).toBe("Quai 5");

    // The shipping form carries no location senders: saving it keeps them.
    await saveShippingSettingsForm(db, shop, { ...defaultShippingSettings, labelFormat: "PDF_10x15_300dpi" });
    saved = await loadShippingSettings(db, shop);
    expect(saved.labelFormat).toBe("PDF_10x15_300dpi");
    expect(saved.locationSenders.map((entry) => entry.locationId)).toEqual([LYON]);

    expect(await handleLocationSenderAction(db, shop, { intent: "removeLocationSender", locationId: LYON, locationName: "Entrepôt Lyon" })).toMatchObject({ ok: true });
    expect((await loadShippingSettings(db, shop)).locationSenders).toEqual([]);
  });

  it("returns the typed fields with the errors, and saves nothing", async () => {
    const shop = "bad.myshopify.com";
    await saveShippingSettings(db, shop, defaultShippingSettings);
    const result = await handleLocationSenderAction(db, shop, { ...validFields, "sender.countryCode": "ZZ" });
    expect(result).toMatchObject({ ok: false, fieldErrors: { "sender.countryCode": { key: "settings.error.country" } }, fields: { "sender.countryCode": "ZZ" } });
    expect((await loadShippingSettings(db, shop)).locationSenders).toEqual([]);
  });

  it("answers 400 to a form naming no Shopify location", async () => {
    await expect(handleLocationSenderAction(db, "loc.myshopify.com", { ...validFields, locationId: "Lyon" })).rejects.toBeInstanceOf(Response);
  });
});
