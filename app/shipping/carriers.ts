/**
 * Carriers as merchants and Shopify know them: the names Shopify recognises (it builds their tracking links itself),
 * and the carriers whose customs declaration must be in English. Pure data used by the mapper (problems) and by the
 * purchase layer (tracking info sent to Shopify, app/labels/carriers.ts).
 */
const SHOPIFY_COMPANY_BY_CARRIER: Record<string, string> = {
  dhl: "DHL Express",
  "dhl express": "DHL Express",
  colissimo: "Colissimo",
  chronopost: "Chronopost",
  "la poste": "La Poste",
  ups: "UPS",
  fedex: "FedEx",
  gls: "GLS",
  dpd: "DPD",
};

/** The company name Shopify recognises for this carrier, or undefined when Shopify does not know it. */
export function shopifyKnownCompany(carrierName: string): string | undefined {
  return SHOPIFY_COMPANY_BY_CARRIER[carrierName.trim().toLowerCase()];
}

/** The carrier's name as merchants know it ("DHL Express" for the service's "Dhl"); an unknown one is shown as given. */
export function carrierDisplayName(carrierName: string): string {
  return shopifyKnownCompany(carrierName) ?? carrierName.trim();
}

/**
 * Carriers whose customs declaration must describe the contents in English (DHL Express clears with English
 * descriptions). A CN23 line without the merchant's saved English description is a warning for these.
 */
export function wantsEnglishCustomsDescriptions(carrierName: string): boolean {
  return /^dhl\b/.test(carrierName.trim().toLowerCase());
}
