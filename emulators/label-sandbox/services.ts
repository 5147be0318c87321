import { customsRequired, type Place } from "../../app/shipping/customs";

/**
 * The sandbox's carriers and the services each offers per destination country. The real table comes only from the
 * service's lookup endpoint; this one is plausible and documented in docs/readme/label-sandbox.md.
 */
export const EU_MEMBER_STATES = new Set([
  "AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE", "IT", "LV", "LT", "LU", "MT", "NL",
  "PL", "PT", "RO", "SK", "SI", "ES", "SE",
]);

/** French overseas departments and territories, as Shopify's country codes. */
export const FRENCH_OVERSEAS = new Set(["RE", "GP", "MQ", "GF", "YT", "PM", "BL", "MF", "NC", "PF", "WF", "TF"]);

export interface CarrierServiceEntry {
  carrier_name: string;
  name: string;
  label: string;
  /** Destination countries for which the service is valid. */
  accepts: (country: string) => boolean;
}

const domesticFrance = (country: string) => country === "FR" || country === "MC";
const frenchNetwork = (country: string) => domesticFrance(country) || FRENCH_OVERSEAS.has(country);
const euOutsideFrance = (country: string) => EU_MEMBER_STATES.has(country) && country !== "FR";
const anywhere = (country: string) => /^[A-Z]{2}$/.test(country);

export const CARRIER_SERVICES: readonly CarrierServiceEntry[] = [
  { carrier_name: "Dhl", name: "n", label: "DHL Express Domestic", accepts: domesticFrance },
  { carrier_name: "Dhl", name: "U", label: "DHL Express Worldwide (EU)", accepts: euOutsideFrance },
  { carrier_name: "Dhl", name: "P", label: "DHL Express Worldwide", accepts: (c) => anywhere(c) && !domesticFrance(c) && !euOutsideFrance(c) },
  { carrier_name: "Colissimo", name: "DOM", label: "Colissimo Domicile sans signature", accepts: frenchNetwork },
  { carrier_name: "Colissimo", name: "DOS", label: "Colissimo Domicile avec signature", accepts: frenchNetwork },
  { carrier_name: "Colissimo", name: "COLI", label: "Colissimo Expert International", accepts: (c) => anywhere(c) && !frenchNetwork(c) },
  { carrier_name: "Chronopost", name: "13", label: "Chrono 13", accepts: domesticFrance },
  { carrier_name: "Chronopost", name: "CLASSIC", label: "Chrono Classic (Europe)", accepts: euOutsideFrance },
  { carrier_name: "Chronopost", name: "EXPRESS", label: "Chrono Express International", accepts: (c) => anywhere(c) && !domesticFrance(c) },
];

export const KNOWN_CARRIERS = [...new Set(CARRIER_SERVICES.map((entry) => entry.carrier_name))];

export function servicesFor(country: string): CarrierServiceEntry[] {
  return CARRIER_SERVICES.filter((entry) => entry.accepts(country));
}

/**
 * Whether a parcel from the sender's place to the destination needs a CN23: the app's own rule (country and
 * postcode: French overseas, Canary Islands, Büsingen...), shared so the sandbox and the app cannot disagree.
 * The sender defaults to mainland France (the service is French).
 */
export function needsCustoms(country: string, zip: string, origin: Place = { country: "FR", zip: "75001" }): boolean {
  return customsRequired(origin, { country, zip });
}

/** A tracking number in the usual shape of each carrier. */
export function trackingNumberFor(carrier: string, country: string, sequence: number, random: () => number): string {
  const digits = (count: number) =>
    Array.from({ length: count }, (_, index) => (index === 0 ? String(sequence % 10) : String(Math.floor(random() * 10)))).join("");
  if (carrier === "Dhl") return `${String(sequence).padStart(4, "0").slice(-4)}${digits(6)}`;
  if (carrier === "Colissimo") return country === "FR" ? `6A${digits(11)}` : `CB${digits(9)}FR`;
  return `XS${digits(9)}FR`;
}
