import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js";
import { customsTerritory, type Place } from "./customs";

/**
 * The numbering plan a local number of this place belongs to. Overseas France written as FR + its postcode
 * (97400 Réunion) uses the territory's own plan (RE, +262); territories without a plan of their own (Canary
 * Islands, Büsingen) use their country's.
 */
export function phoneRegion(place: Place): string {
  const country = place.country.trim().toUpperCase();
  const territory = customsTerritory(place);
  if (territory !== country && territory !== "EU" && isSupportedCountry(territory)) return territory;
  return country;
}

function parseValid(text: string, region: string): string | undefined {
  try {
    const parsed = parsePhoneNumberFromString(text, region.toUpperCase() as CountryCode);
    return parsed?.isValid() ? parsed.number : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A phone number in E.164 (+33612345678) for the given place (or bare country code), or undefined when it cannot be
 * read as valid. A local number is read in the territory's plan first, then in the country's (a mainland mobile
 * given by a customer living overseas).
 */
export function toE164(raw: string | null | undefined, place: Place | string): string | undefined {
  const text = raw?.trim();
  if (!text) return undefined;
  const where = typeof place === "string" ? { country: place } : place;
  const country = where.country.trim().toUpperCase();
  if (!country) return undefined;
  const region = phoneRegion(where);
  return parseValid(text, region) ?? (region !== country ? parseValid(text, country) : undefined);
}
