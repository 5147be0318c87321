import { describe, expect, it } from "vitest";
import { mapOrderToLabelRequest } from "./map";
import { defaultShippingSettings, type ShippingSettings } from "./settings";
import { testOrder } from "./test-orders";

const customsLine = [{ title: "Tea", quantity: 1, total: "10.00", weight: { value: 500, unit: "GRAMS" }, hsCode: "090210", origin: "FR" }];
const map = (country: string, zip: string, city = "Somewhere", settings: ShippingSettings = defaultShippingSettings) =>
  mapOrderToLabelRequest({ order: testOrder({ name: "#1051", country, zip, address: { city }, lines: customsLine }), settings, customReference: "20261122-001" });
const problem = (result: ReturnType<typeof map>, code: string) => result.problems.find((candidate) => candidate.code === code);

describe("the recipient's postcode and country, as a carrier checks them", () => {
  it.each([
    ["US", "!!!", "United States"],
    ["US", "1011", "United States"],
    ["GB", "SW1A", "United Kingdom"],
    ["FR", "7501", "France"],
    ["FR", "ABCDE", "France"],
    ["CH", "80011", "Switzerland"],
    ["DE", "1011", "Germany"],
  ])("%s %s blocks before purchase, naming the order, the value and the fix", (country, zip, countryEn) => {
    const result = map(country, zip);
    const found = problem(result, "zip_invalid");
    expect(found).toMatchObject({ severity: "blocking", path: "recipient.zip", orderName: "#1051", params: { order: "#1051", value: zip, country } });
    expect(found?.message.en).toContain(`"${zip}"`);
    expect(found?.message.en).toContain(countryEn);
    expect(found?.message.fr).toContain(`« ${zip} »`);
    expect(found?.fix.en).toMatch(/recipient form|Shopify/);
    expect(result.request).toBeUndefined();
  });

  it.each([
    ["US", "10118"],
    ["US", "10118-0110"],
    ["GB", "sw1a 1aa"],
    ["CH", "8001"],
    ["FR", "69006"],
    ["FR", "97400"],
    ["ES", "35002"],
    ["HK", ""],
  ])("%s %s passes", (country, zip) => {
    const result = map(country, zip);
    expect(result.problems.map((candidate) => candidate.code)).not.toContain("zip_invalid");
    expect(result.problems.map((candidate) => candidate.code)).not.toContain("zip_missing");
  });

  it("warns (without blocking) about a French postcode La Poste does not list", () => {
    const result = map("FR", "75000", "Paris");
    expect(problem(result, "zip_unknown")).toMatchObject({ severity: "warning", params: { value: "75000" } });
    expect(result.request).toBeDefined();
  });

  it("blocks a country code no carrier knows", () => {
    expect(problem(map("ZZ", "12345"), "country_unknown")).toMatchObject({ severity: "blocking", path: "recipient.country", params: { value: "ZZ" } });
  });
});

describe("a sender saved before Settings checked it", () => {
  const withSender = (sender: Partial<ShippingSettings["sender"]>) => ({ ...defaultShippingSettings, sender: { ...defaultShippingSettings.sender, ...sender } });

  it.each([["7501"], ["ABCDE"]])("postcode %s blocks every label, pointing at Settings", (zip) => {
    const found = problem(map("FR", "69006", "Lyon", withSender({ zip })), "sender_zip_invalid");
    expect(found).toMatchObject({ severity: "blocking", path: "sender.zip", params: { value: zip, country: "FR" } });
    expect(found?.fix.en).toContain("Settings");
    expect(found?.fix.fr).toContain("Paramètres");
  });

  it("country ZZ blocks (it used to send a domestic order with the worldwide service)", () => {
    const result = map("FR", "69006", "Lyon", withSender({ countryCode: "ZZ" }));
    expect(problem(result, "sender_country_unknown")).toMatchObject({ severity: "blocking", path: "sender.country" });
    expect(result.request).toBeUndefined();
  });

  it("a CEDEX sender postcode is accepted when the city says CEDEX", () => {
    const result = map("FR", "69006", "Lyon", withSender({ zip: "75741", city: "Paris CEDEX 15" }));
    expect(result.problems.map((candidate) => candidate.code)).not.toContain("sender_zip_invalid");
  });
});
