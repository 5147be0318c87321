import { describe, expect, it } from "vitest";
import { checkPostcode, isKnownCountry } from "./address";

describe("countries", () => {
  it.each([
    ["FR", true],
    ["fr", true],
    ["RE", true],
    ["XK", true],
    ["ZZ", false],
    ["France", false],
    ["FRA", false],
    ["250", false],
    ["", false],
  ])("%s is an ISO 3166-1 country code: %s", (code, known) => expect(isKnownCountry(code)).toBe(known));
});

describe("postcodes, as a carrier checks them", () => {
  it.each([
    ["75004", "FR", "Paris", "ok"],
    ["ABCDE", "FR", "Paris", "malformed"],
    ["7501", "FR", "Paris", "malformed"],
    ["750011", "FR", "Paris", "malformed"],
    ["", "FR", "Paris", "missing"],
    ["75000", "FR", "Paris", "unknown"], // five digits, but La Poste has no such postcode
    ["75741", "FR", "Paris CEDEX 15", "ok"], // CEDEX codes are not in La Poste's base of communes
    ["20000", "FR", "Ajaccio", "ok"],
    ["97400", "FR", "Saint-Denis", "ok"],
    ["97133", "FR", "Gustavia", "ok"], // Saint-Barthélemy: not in the base, not checked against it
    ["98800", "FR", "Nouméa", "ok"],
    ["98000", "MC", "Monaco", "ok"],
    ["!!!", "US", "New York", "malformed"],
    ["10118", "US", "New York", "ok"],
    ["10118-0110", "US", "New York", "ok"],
    ["SW1A 1AA", "GB", "London", "ok"],
    ["SW1A", "GB", "London", "malformed"],
    ["8001", "CH", "Zürich", "ok"],
    ["80011", "CH", "Zürich", "malformed"],
    ["35002", "ES", "Las Palmas", "ok"],
    ["78266", "DE", "Büsingen", "ok"],
    ["M5V 2T6", "CA", "Toronto", "ok"],
    ["", "HK", "Hong Kong", "ok"], // no postcodes there
    ["", "AE", "Dubai", "ok"],
  ])("%s in %s (%s): %s", (zip, country, city, expected) => expect(checkPostcode(zip, { country, city })).toBe(expected));
});
