import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js";

/** A phone number in E.164 (+33612345678) for the given country, or undefined when it cannot be read as valid. */
export function toE164(raw: string | null | undefined, country: string): string | undefined {
  const text = raw?.trim();
  if (!text) return undefined;
  try {
    const parsed = parsePhoneNumberFromString(text, country.toUpperCase() as CountryCode);
    return parsed?.isValid() ? parsed.number : undefined;
  } catch {
    return undefined;
  }
}
