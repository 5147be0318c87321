import { describe, expect, it } from "vitest";
import { defaultShippingSettings } from "../shipping/settings";
import { parseShippingSettingsFields, senderFromShop, settingsToFields } from "./shipping-settings-form";

describe("shipping settings form", () => {
  it("round-trips the settings through form fields", () => {
    expect(parseShippingSettingsFields(settingsToFields(defaultShippingSettings))).toEqual({ ok: true, settings: defaultShippingSettings });
  });

  it("normalises the sender phone to E.164 and picks the default box", () => {
    const fields = {
      ...settingsToFields(defaultShippingSettings),
      "sender.phone": "01 43 00 00 00",
      "boxes.1.name": "Large",
      "boxes.1.lengthCm": "60",
      "boxes.1.widthCm": "40",
      "boxes.1.heightCm": "40",
      "boxes.1.packagingWeightGrams": "500",
      defaultBox: "Large",
    };
    const result = parseShippingSettingsFields(fields);
    if (!result.ok) throw new Error(JSON.stringify(result.fieldErrors));
    expect(result.settings.sender.phone).toBe("+33143000000");
    expect(result.settings.boxes.map((box) => [box.name, box.isDefault])).toEqual([
      ["Standard", false],
      ["Large", true],
    ]);
  });

  it("names each bad field", () => {
    const result = parseShippingSettingsFields({
      ...settingsToFields(defaultShippingSettings),
      "sender.phone": "12",
      "sender.countryCode": "France",
      "sender.email": "nope",
      "boxes.0.widthCm": "",
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(Object.keys(result.fieldErrors).sort()).toEqual(["boxes.0.widthCm", "sender.countryCode", "sender.email", "sender.phone"]);
  });

  it("starts the sender from the shop's own address", () => {
    const settings = senderFromShop(defaultShippingSettings, {
      name: "Maison Étiquette",
      email: "boutique@example.fr",
      shopAddress: { company: null, address1: "24 rue du Faubourg", address2: null, city: "Paris", zip: "75012", countryCodeV2: "FR", phone: "+33 1 43 00 00 00" },
    });
    expect(settings.sender).toMatchObject({ company: "Maison Étiquette", address1: "24 rue du Faubourg", zip: "75012", email: "boutique@example.fr" });
  });
});
