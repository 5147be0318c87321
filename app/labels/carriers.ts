/**
 * Tracking company names for Shopify. Shopify recognises known carrier names and builds tracking links itself;
 * for any other carrier we send the service's name plus the tracking URL.
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

export function shopifyTrackingInfo(carrierName: string, trackingNumber: string, trackingUrl: string) {
  const known = SHOPIFY_COMPANY_BY_CARRIER[carrierName.trim().toLowerCase()];
  // Always send the service's URL: it is the page the label service maintains for this parcel.
  return { company: known ?? carrierName.trim(), number: trackingNumber, url: trackingUrl, knownToShopify: Boolean(known) };
}

/** The carrier's name as merchants know it ("DHL Express" for the service's "Dhl"); an unknown one is shown as given. */
export function carrierDisplayName(carrierName: string): string {
  return SHOPIFY_COMPANY_BY_CARRIER[carrierName.trim().toLowerCase()] ?? carrierName.trim();
}

/**
 * Carriers whose customs declaration must describe the contents in English (DHL Express clears with English
 * descriptions). A CN23 line without the merchant's saved English description is a warning for these.
 */
export function wantsEnglishCustomsDescriptions(carrierName: string): boolean {
  return /^dhl\b/.test(carrierName.trim().toLowerCase());
}
