import { describe, expect, it } from "vitest";
import { defaultShippingSettings } from "../shipping/settings";
import { translator } from "../i18n/translate.server";
import { describeFieldError } from "./field-errors";
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

  const withSender = (sender: Record<string, string>) =>
    parseShippingSettingsFields({ ...settingsToFields(defaultShippingSettings), ...Object.fromEntries(Object.entries(sender).map(([key, value]) => [`sender.${key}`, value])) });

  // What issue 11 item 5 saw accepted, and what a carrier would refuse: each bad value names its field.
  it.each([
    [{ zip: "ABCDE" }, "sender.zip", "settings.error.postcodeMalformed"],
    [{ zip: "7501" }, "sender.zip", "settings.error.postcodeMalformed"],
    [{ zip: "" }, "sender.zip", "settings.error.postcodeMissing"],
    [{ zip: "75000" }, "sender.zip", "settings.error.postcodeUnknown"],
    [{ countryCode: "ZZ" }, "sender.countryCode", "settings.error.country"],
    [{ countryCode: "France" }, "sender.countryCode", "settings.error.country"],
    [{ phone: "abc" }, "sender.phone", "settings.error.phone"],
    [{ countryCode: "CH", zip: "75004" }, "sender.zip", "settings.error.postcodeMalformed"],
    [{ countryCode: "CH", zip: "8001", phone: "12 34" }, "sender.phone", "settings.error.phone"],
  ])("refuses the sender %j, naming %s", (sender, field, key) => {
    const result = withSender(sender);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.fieldErrors[field]?.key).toBe(key);
  });

  it.each([
    [{ zip: "75741", city: "Paris CEDEX 15" }, undefined],
    [{ countryCode: "CH", zip: "8001", city: "Zürich", phone: "044 668 18 00" }, "+41446681800"],
    [{ zip: "97400", city: "Saint-Denis", phone: "0262 20 12 34" }, "+262262201234"],
    [{ countryCode: "fr", zip: " 75004 " }, undefined],
  ])("accepts the sender %j", (sender, phone) => {
    const result = withSender(sender);
    if (!result.ok) throw new Error(JSON.stringify(result.fieldErrors));
    if (phone) expect(result.settings.sender.phone).toBe(phone);
    expect(result.settings.sender.countryCode).toMatch(/^[A-Z]{2}$/);
  });

  it("explains every error in the merchant's words, in English and French, without schema paths or validator text", () => {
    const result = parseShippingSettingsFields({
      ...settingsToFields(defaultShippingSettings),
      "sender.zip": "7501",
      "sender.phone": "abc",
      "sender.email": "nope",
      "sender.lastName": "",
      "boxes.0.widthCm": "",
      "cn23.fallbackOriginCountry": "ZZ",
    });
    if (result.ok) throw new Error("expected errors");
    expect(Object.keys(result.fieldErrors).sort()).toEqual(["boxes.0.widthCm", "cn23.fallbackOriginCountry", "sender.email", "sender.lastName", "sender.phone", "sender.zip"]);
    for (const locale of ["en", "fr"] as const) {
      const t = translator(locale);
      for (const [field, error] of Object.entries(result.fieldErrors)) {
        const text = describeFieldError(error, "LABEL", t, locale);
        expect(text, field).toContain("LABEL");
        expect(text, field).not.toMatch(/sender\.|boxes\.|cn23\.|expected|Too small|Invalid|\{/);
      }
    }
    const t = translator("fr");
    expect(describeFieldError(result.fieldErrors["sender.zip"]!, "Code postal", t, "fr")).toContain("France");
    expect(describeFieldError(result.fieldErrors["sender.zip"]!, "Code postal", t, "fr")).toContain("7501");
  });
});
