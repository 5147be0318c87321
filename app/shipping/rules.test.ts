import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { OrderForLabel } from "../shopify/operations/order-for-label";
import { mapOrderToLabelRequest } from "./map";
import { defaultShippingSettings, shippingSettingsSchema, type ShippingSettings } from "./settings";
import type { OfferedService } from "./services";
import { auditRules, chooseService, failedCondition, shippingRulesSchema, type RuleFacts, type ShippingRule } from "./rules";

const colissimo = { carrierName: "Colissimo", serviceName: "DOM" };
const chronopost = { carrierName: "Chronopost", serviceName: "Chrono 13" };
const relay = { carrierName: "Mondial Relay", serviceName: "Point Relais" };
const fallback = { zone: "domestic" as const, carrier: { carrierName: "Colissimo", serviceName: "Default" } };

const rules: ShippingRule[] = shippingRulesSchema.parse([
  { id: "express", name: "Express", when: { checkoutRate: "express" }, then: { carrier: chronopost } },
  { id: "relay", name: "Relay", when: { checkoutRate: "point relais", countries: ["FR", "BE"] }, then: { carrier: relay, box: "Small" } },
  { id: "corsica", name: "Corsica", when: { countries: ["FR"], postcodePrefixes: ["20"] }, then: { carrier: colissimo } },
  { id: "heavy", name: "Heavy", when: { minWeightGrams: 5000 }, then: { carrier: colissimo, insuredValueCents: 20000 } },
  { id: "vip", name: "VIP", when: { tags: ["VIP"], minOrderValue: "100,00" }, then: { carrier: chronopost } },
]);

const facts = (extra: Partial<RuleFacts>): RuleFacts => ({ country: "FR", postcode: "75001", weightGrams: 800, ...extra });

describe("shipping rules", () => {
  it("takes the first rule that matches, in order", () => {
    const choice = chooseService(rules, facts({ checkoutRateTitle: "Livraison Express 24h", postcode: "20000" }), fallback);
    expect(choice).toMatchObject({ source: "rule", position: 1, carrier: chronopost });
  });

  it("matches the checkout rate's title ignoring case and accents, or its code exactly", () => {
    expect(chooseService(rules, facts({ checkoutRateTitle: "POINT RELAÎS" }), fallback)).toMatchObject({ source: "rule", rule: { id: "relay" }, box: "Small" });
    expect(chooseService(rules, facts({ checkoutRateTitle: "Standard", checkoutRateCode: "Express" }), fallback)).toMatchObject({ rule: { id: "express" } });
    expect(chooseService(rules, facts({ checkoutRateTitle: "Point relais", country: "CH" }), fallback).source).toBe("zone_default");
  });

  it("matches a postcode prefix, a weight band, the order value and tags", () => {
    expect(chooseService(rules, facts({ postcode: "20 090" }), fallback)).toMatchObject({ rule: { id: "corsica" } });
    expect(chooseService(rules, facts({ weightGrams: 5000 }), fallback)).toMatchObject({ rule: { id: "heavy" }, insuredValueCents: 20000 });
    expect(chooseService(rules, facts({ tags: ["vip"], orderValue: "120.00" }), fallback)).toMatchObject({ rule: { id: "vip" } });
    expect(failedCondition(rules[4]!, facts({ tags: ["vip"], orderValue: "99.99" }))).toBe("minOrderValue");
    expect(failedCondition(rules[4]!, facts({ tags: ["wholesale"], orderValue: "500" }))).toBe("tags");
  });

  it("falls back to the zone's default when no rule matches", () => {
    expect(chooseService(rules, facts({}), fallback)).toEqual({ source: "zone_default", zone: "domestic", carrier: fallback.carrier });
    expect(chooseService([], facts({ checkoutRateTitle: "Express" }), fallback).source).toBe("zone_default");
  });

  it("refuses duplicate ids and malformed conditions", () => {
    expect(shippingRulesSchema.safeParse([rules[0], rules[0]]).success).toBe(false);
    expect(shippingRulesSchema.safeParse([{ id: "x", name: "x", when: { countries: ["France"] }, then: { carrier: relay } }]).success).toBe(false);
  });

  it("flags a rule whose service a country it can match does not offer, before any order meets it", () => {
    const offered: Record<string, OfferedService[]> = {
      FR: [{ carrier: "Chronopost", name: "Chrono 13" }, { carrier: "Colissimo", name: "DOM" }, { carrier: "Mondial Relay", name: "Point Relais" }],
      BE: [{ carrier: "Colissimo", name: "DOM" }],
      CH: [{ carrier: "Colissimo", name: "DOM" }],
    };
    // DE: the lookup could not be read, so nothing is judged there.
    const conflicts = auditRules(rules, ["FR", "CH", "DE"], (country) => offered[country]);
    expect(conflicts.map((conflict) => `${conflict.ruleId}:${conflict.country}`)).toEqual(["express:CH", "relay:BE", "vip:CH"]);
  });
});

describe("shipping rules in the mapper", () => {
  const stored = JSON.parse(readFileSync(path.join(__dirname, "fixtures", "international-ch.json"), "utf8")) as { order: OrderForLabel };
  const settings = (rulesInput: unknown[]): ShippingSettings =>
    shippingSettingsSchema.parse({
      ...defaultShippingSettings,
      boxes: [...defaultShippingSettings.boxes, { name: "Large", lengthCm: 50, widthCm: 40, heightCm: 30, packagingWeightGrams: 400, isDefault: false }],
      rules: rulesInput,
    });
  const map = (rulesInput: unknown[], extra: { carrier?: { carrierName: string; serviceName: string }; boxName?: string } = {}) =>
    mapOrderToLabelRequest({ order: stored.order, settings: settings(rulesInput), customReference: "00000000-000", ...extra });

  it("uses the first matching rule's service, box and insured value, and says which rule chose them", () => {
    const result = map([
      { id: "us", name: "USA", when: { countries: ["US"] }, then: { carrier: { carrierName: "Dhl", serviceName: "P" } } },
      { id: "ch", name: "Switzerland", when: { countries: ["CH"] }, then: { carrier: { carrierName: "Colissimo", serviceName: "COLI" }, box: "Large", insuredValueCents: 5000 } },
    ]);
    expect(result.draft?.serviceChoice).toEqual({ source: "rule", position: 2, name: "Switzerland" });
    expect(result.draft?.box.name).toBe("Large");
    expect(result.preview).toMatchObject({ carrier_name: "Colissimo", carrier_service_name: "COLI", insured_value: 5000 });
  });

  it("falls back to the zone's default, and the merchant's choice on the page wins over any rule", () => {
    const rulesInput = [{ id: "ch", name: "Switzerland", when: { countries: ["CH"] }, then: { carrier: { carrierName: "Colissimo", serviceName: "COLI" } } }];
    expect(map([]).draft?.serviceChoice).toEqual({ source: "zone_default", zone: "world" });
    expect(map([]).preview?.insured_value).toBeUndefined();
    const chosen = map(rulesInput, { carrier: { carrierName: "Dhl", serviceName: "P" } });
    expect(chosen.draft?.serviceChoice).toEqual({ source: "merchant" });
    expect(chosen.preview).toMatchObject({ carrier_name: "Dhl", carrier_service_name: "P" });
  });
});
