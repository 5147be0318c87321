import { describe, expect, it } from "vitest";
import { mapOrderToLabelRequest } from "./map";
import { keptPhoneAnswers, PARSED_KEPT, PARSED_KEPT_MS, phoneRegion, toE164 } from "./phone";
import { defaultShippingSettings } from "./settings";
import { testOrder } from "./test-orders";

/**
 * Overseas France written as country FR with the territory's postcode: a local number belongs to the territory's
 * own numbering plan (Réunion +262, Guadeloupe +590...), never to mainland France's +33.
 */
const OVERSEAS: [territory: string, zip: string, local: string, e164: string][] = [
  ["GP", "97110", "0690 12 34 56", "+590690123456"],
  ["MQ", "97200", "0696 12 34 56", "+596696123456"],
  ["GF", "97300", "0694 12 34 56", "+594694123456"],
  ["RE", "97400", "0692 12 34 56", "+262692123456"],
  ["RE", "97400", "0262 20 12 34", "+262262201234"],
  ["PM", "97500", "055 12 34", "+508551234"],
  ["YT", "97600", "0639 01 23 45", "+262639012345"],
  ["BL", "97133", "0690 12 34 56", "+590690123456"],
  ["MF", "97150", "0690 22 34 56", "+590690223456"],
  ["WF", "98600", "82 12 34", "+681821234"],
  ["PF", "98714", "87 12 34 56", "+68987123456"],
  ["NC", "98800", "75.12.34", "+687751234"],
];

describe("phones of overseas France written as FR", () => {
  it.each(OVERSEAS)("%s (FR %s): %s is %s", (territory, zip, local, e164) => {
    expect(phoneRegion({ country: "FR", zip })).toBe(territory);
    expect(toE164(local, { country: "FR", zip })).toBe(e164);
  });

  it.each(OVERSEAS)("the mapper sends the %s number (FR %s) in the territory's plan", (_territory, zip, local, e164) => {
    const order = testOrder({ country: "FR", zip, address: { phone: local, city: "Saint-Denis" } });
    const { preview, problems } = mapOrderToLabelRequest({ order, settings: defaultShippingSettings, customReference: "20261122-001" });
    expect(problems.map((problem) => problem.code)).not.toContain("recipient_phone_invalid");
    expect(preview?.recipient.phone1).toBe(e164);
  });

  it("also reads the territory's own country code (RE, 97400) the same way", () => {
    expect(toE164("0692 12 34 56", { country: "RE", zip: "97400" })).toBe("+262692123456");
  });

  it("keeps a mainland mobile given by a customer living overseas", () => {
    // 06 12 34 56 78 is not a Réunion number; read in the country's plan it is a valid French mobile.
    expect(toE164("06 12 34 56 78", { country: "FR", zip: "97400" })).toBe("+33612345678");
  });

  it("keeps international numbers and mainland France as they were", () => {
    expect(toE164("+262 692 12 34 56", { country: "FR", zip: "75004" })).toBe("+262692123456");
    expect(toE164("06 12 34 56 78", { country: "FR", zip: "75004" })).toBe("+33612345678");
    expect(phoneRegion({ country: "FR", zip: "75004" })).toBe("FR");
  });

  it("uses the country for territories without their own numbering plan", () => {
    expect(phoneRegion({ country: "ES", zip: "35001" })).toBe("ES"); // Canary Islands
    expect(phoneRegion({ country: "DE", zip: "78266" })).toBe("DE"); // Büsingen
    expect(phoneRegion({ country: "MC", zip: "98000" })).toBe("MC");
  });

  it("reads a Réunion sender's phone in Réunion's plan", () => {
    const settings = {
      ...defaultShippingSettings,
      sender: { ...defaultShippingSettings.sender, city: "Saint-Denis", zip: "97400", phone: "0262 20 12 34" },
    };
    const { preview } = mapOrderToLabelRequest({ order: testOrder({}), settings, customReference: "20261122-001" });
    expect(preview?.sender.phone1).toBe("+262262201234");
  });

  it("answers a number read before as it did then, in the plan it was read in, and keeps only the latest ones", () => {
    // The same text in two plans, each answered for its own plan (the second time from memory).
    for (let round = 0; round < 2; round += 1) {
      expect(toE164("0692 12 34 56", { country: "FR", zip: "97400" })).toBe("+262692123456");
      expect(toE164("0692 12 34 56", { country: "FR", zip: "75004" })).toBe("+33692123456");
      expect(toE164("12", "FR")).toBeUndefined();
    }
    // More distinct numbers than are kept: the earliest are read again, with the same answers.
    const numbers = Array.from({ length: PARSED_KEPT + 10 }, (_, i) => `06 ${String(10 + Math.floor(i / 100)).padStart(2, "0")} ${String(i % 100).padStart(2, "0")} 12 78`);
    const first = numbers.map((text) => toE164(text, "FR"));
    expect(keptPhoneAnswers()).toBe(PARSED_KEPT);
    expect(numbers.map((text) => toE164(text, "FR"))).toEqual(first);
    expect(first[0]).toBe("+33610001278");
    expect(new Set(first).size).toBe(numbers.length);
    // Unused for more than PARSED_KEPT_MS, every answer is swept out by the next read (more than a minute after the
    // last sweep); the one read then is the only one kept.
    const later = Date.now() + PARSED_KEPT_MS + 1;
    expect(toE164("06 12 34 56 78", "FR", later)).toBe("+33612345678");
    expect(keptPhoneAnswers()).toBe(1);
  });
});
