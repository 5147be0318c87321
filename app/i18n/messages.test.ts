import { describe, expect, it } from "vitest";
import { localeFromRequest } from "./locale";
import { en, fr } from "./messages";
import { translator } from "./translate.server";

describe("messages", () => {
  it("has a French string for every English key, and no extra", () => {
    expect(Object.keys(fr).sort()).toEqual(Object.keys(en).sort());
    for (const [key, value] of Object.entries(fr)) expect(value, key).not.toBe("");
  });

  it("keeps the same placeholders in both languages", () => {
    const placeholders = (text: string) => (text.match(/\{\w+\}/g) ?? []).sort();
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(placeholders(fr[key]), key).toEqual(placeholders(en[key]));
    }
  });

  it("fills placeholders", () => {
    expect(translator("fr")("orders.count", { count: 3 })).toBe("3 commandes sur cette page");
  });
});

describe("localeFromRequest", () => {
  it("prefers Shopify's locale parameter, then Accept-Language, then English", () => {
    expect(localeFromRequest(new Request("https://app.test/app?locale=fr-FR"))).toBe("fr");
    expect(
      localeFromRequest(new Request("https://app.test/app", { headers: { "accept-language": "de-DE,fr;q=0.8" } })),
    ).toBe("fr");
    expect(localeFromRequest(new Request("https://app.test/app?locale=ja"))).toBe("en");
  });
});
