import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js";
import { LRUCache } from "lru-cache";
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

/**
 * Numbers read lately, by plan and text. A bulk job reads the shop's sender number for every label, and each
 * recipient's twice in the same process (its preflight, then its item), and libphonenumber's parse and validation cost
 * about 0.2 ms each time. The answer depends only on the two strings (the library's metadata is fixed). Kept in this
 * process's memory only, by lru-cache: at most PARSED_KEPT answers, the least recently used dropped first (room for a
 * whole job of 500 orders), and none unused for more than PARSED_KEPT_MS (a read finds it gone; those nobody asks
 * for again are swept out by the first read a minute or more after the previous sweep). The clock is the caller's
 * `now` (tests move it).
 */
export const PARSED_KEPT = 2_000;
export const PARSED_KEPT_MS = 10 * 60_000;
const PARSED_SWEEP_MS = 60_000;
let clock = 0;
let sweptAt = 0;
const parsed = new LRUCache<string, { number: string | null }>({
  max: PARSED_KEPT,
  ttl: PARSED_KEPT_MS,
  updateAgeOnGet: true,
  // The time is read from `clock` on every check, not cached for a millisecond (the default).
  ttlResolution: 0,
  perf: { now: () => clock },
});

/** How many answers are kept now (tests). */
export function keptPhoneAnswers(): number {
  return parsed.size;
}

function parseValid(text: string, region: string, now: number): string | undefined {
  clock = now;
  // Answers unused for too long are dropped at the first read a minute or more after the last sweep, or at a read
  // whose clock is behind it (a read finds an expired answer missing anyway; the sweep frees the ones nobody asks for
  // again).
  if (now - sweptAt >= PARSED_SWEEP_MS || now < sweptAt) {
    parsed.purgeStale();
    sweptAt = now;
  }
  const key = `${region}\u0000${text}`;
  const known = parsed.get(key);
  if (known !== undefined) return known.number ?? undefined;
  let number: string | null = null;
  try {
    const phone = parsePhoneNumberFromString(text, region.toUpperCase() as CountryCode);
    if (phone?.isValid()) number = phone.number;
  } catch {
    // not a number in this plan
  }
  parsed.set(key, { number });
  return number ?? undefined;
}

/**
 * A phone number in E.164 (+33612345678) for the given place (or bare country code), or undefined when it cannot be
 * read as valid. A local number is read in the territory's plan first, then in the country's (a mainland mobile
 * given by a customer living overseas).
 */
export function toE164(raw: string | null | undefined, place: Place | string, now = Date.now()): string | undefined {
  const text = raw?.trim();
  if (!text) return undefined;
  const where = typeof place === "string" ? { country: place } : place;
  const country = where.country.trim().toUpperCase();
  if (!country) return undefined;
  const region = phoneRegion(where);
  return parseValid(text, region, now) ?? (region !== country ? parseValid(text, country, now) : undefined);
}
