/**
 * What a carrier checks in an address before it sells a label: a real ISO 3166-1 country, a postcode in that
 * country's format (and, in France, one La Poste knows), a phone number valid for the place. Libraries, not tables:
 * i18n-iso-countries (country list), postcode-validator (formats per country), codes-postaux (La Poste's base of
 * French postcodes), libphonenumber-js (phones, through ./phone). Pure: no I/O.
 */
import codesPostaux from "codes-postaux";
import countries from "i18n-iso-countries";
import { postcodeValidator, postcodeValidatorExistsForCountry } from "postcode-validator";
import { customsTerritory } from "./customs";

/** A two-letter code that ISO 3166-1 assigns to a country or territory ("ZZ", "France" and "FRA" are not). */
export function isKnownCountry(code: string): boolean {
  const upper = code.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(upper) && countries.isValid(upper);
}

/** Countries that have a postcode system (the library knows a format for them); elsewhere a postcode may be empty. */
export function hasPostcodes(country: string): boolean {
  return postcodeValidatorExistsForCountry(country.trim().toUpperCase());
}

/**
 * Parts of France whose postcodes are in La Poste's base (codes-postaux): mainland, Corsica and the five overseas
 * departments plus Saint-Pierre-et-Miquelon. Saint-Barthélemy, Saint-Martin and the Pacific territories are not in it.
 */
const IN_FRENCH_BASE = new Set(["EU", "GP", "MQ", "GF", "RE", "PM", "YT"]);

export type PostcodeCheck = "ok" | "missing" | "malformed" | "unknown";

/**
 * "missing" where the country uses postcodes, "malformed" when it is not in the country's format, "unknown" for a
 * well-formed French postcode that La Poste's base does not list (a CEDEX code is accepted when the city says CEDEX).
 */
export function checkPostcode(zip: string, place: { country: string; city?: string }): PostcodeCheck {
  const country = place.country.trim().toUpperCase();
  const text = zip.trim();
  if (!hasPostcodes(country)) return "ok";
  if (!text) return "missing";
  if (!postcodeValidator(text, country)) return "malformed";
  if (country === "FR" && IN_FRENCH_BASE.has(customsTerritory({ country, zip: text }))) {
    const listed = codesPostaux.find(text.replace(/\s+/g, "")).length > 0;
    if (!listed && !/\bcedex\b/i.test(place.city ?? "")) return "unknown";
  }
  return "ok";
}
