/**
 * Tracking info for Shopify. Shopify recognises known carrier names and builds tracking links itself; for any other
 * carrier we send the service's name plus the tracking URL. The carrier names live in the shipping layer
 * (app/shipping/carriers.ts), which the mapper uses too.
 */
import { shopifyKnownCompany } from "../shipping/carriers";

export function shopifyTrackingInfo(carrierName: string, trackingNumber: string, trackingUrl: string) {
  const known = shopifyKnownCompany(carrierName);
  // Always send the service's URL: it is the page the label service maintains for this parcel.
  return { company: known ?? carrierName.trim(), number: trackingNumber, url: trackingUrl, knownToShopify: Boolean(known) };
}
