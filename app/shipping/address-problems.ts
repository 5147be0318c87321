/**
 * The recipient's country and postcode, checked as a carrier would (./address), as problems in English and French
 * (texts in ./problem-texts.ts). Used by the mapper on Shopify's address; the same function can check a recipient
 * edited on the order page.
 */
import { checkPostcode, isKnownCountry } from "./address";
import { problem } from "./problem-texts";
import type { Problem } from "./problems";

export function recipientAddressProblems(input: { orderName: string; country: string; zip: string; city: string }): Problem[] {
  const { orderName, zip } = input;
  const country = input.country.trim().toUpperCase();
  if (!isKnownCountry(country)) return [problem("country_unknown", { path: "recipient.country", orderName, params: { value: country } })];
  switch (checkPostcode(zip, { country, city: input.city })) {
    case "missing":
      return [problem("zip_missing", { path: "recipient.zip", orderName, params: { country } })];
    case "malformed":
      return [problem("zip_invalid", { path: "recipient.zip", orderName, params: { value: zip, country } })];
    case "unknown":
      return [problem("zip_unknown", { path: "recipient.zip", orderName, params: { value: zip, country } })];
    case "ok":
      return [];
  }
}
