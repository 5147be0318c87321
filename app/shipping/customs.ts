/**
 * The EU customs territory, decided by country and postcode. A parcel needs a CN23 customs declaration when its
 * origin and destination are in different customs territories.
 */

export const EU_MEMBER_STATES: ReadonlySet<string> = new Set([
  "AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE", "IT", "LV", "LT", "LU", "MT", "NL",
  "PL", "PT", "RO", "SK", "SI", "ES", "SE",
]);

/** Territories that are part of an EU country's customs territory although they have their own code. */
const INSIDE_BY_CODE: Readonly<Record<string, string>> = { MC: "FR" };

/** Postcode prefixes (after removing spaces) that lie outside the EU customs territory, per member state. */
const OUTSIDE_BY_POSTCODE: Readonly<Record<string, readonly { prefix: string; territory: string }[]>> = {
  FR: [
    // Saint-Barthélemy and Saint-Martin share Guadeloupe's 971 postcodes: the longer prefixes come first.
    { prefix: "97133", territory: "BL" }, // Saint-Barthélemy
    { prefix: "97150", territory: "MF" }, // Saint-Martin
    { prefix: "971", territory: "GP" }, // Guadeloupe
    { prefix: "972", territory: "MQ" }, // Martinique
    { prefix: "973", territory: "GF" }, // French Guiana
    { prefix: "974", territory: "RE" }, // Réunion
    { prefix: "975", territory: "PM" }, // Saint-Pierre-et-Miquelon
    { prefix: "976", territory: "YT" }, // Mayotte
    { prefix: "977", territory: "BL" }, // Saint-Barthélemy (its INSEE code, sometimes written as a postcode)
    { prefix: "978", territory: "MF" }, // Saint-Martin (idem)
    { prefix: "984", territory: "TF" }, // French Southern and Antarctic Lands
    { prefix: "986", territory: "WF" }, // Wallis-et-Futuna
    { prefix: "987", territory: "PF" }, // French Polynesia
    { prefix: "988", territory: "NC" }, // New Caledonia
  ],
  ES: [
    { prefix: "35", territory: "IC" }, // Canary Islands (Las Palmas)
    { prefix: "38", territory: "IC" }, // Canary Islands (Santa Cruz de Tenerife)
    { prefix: "51", territory: "EA-CE" }, // Ceuta
    { prefix: "52", territory: "EA-ML" }, // Melilla
  ],
  DE: [
    { prefix: "78266", territory: "DE-BUSINGEN" },
    { prefix: "27498", territory: "DE-HELIGOLAND" },
  ],
  IT: [
    { prefix: "23041", territory: "IT-LIVIGNO" },
    { prefix: "22061", territory: "IT-CAMPIONE" },
  ],
  GR: [
    { prefix: "63086", territory: "GR-ATHOS" },
    { prefix: "63087", territory: "GR-ATHOS" },
  ],
  FI: [{ prefix: "22", territory: "AX" }], // Åland
};

export interface Place {
  country: string;
  zip?: string | null;
}

/** "EU" for the EU customs territory, otherwise a code naming the territory (country or special zone). */
export function customsTerritory(place: Place): string {
  const country = place.country.trim().toUpperCase();
  const zip = (place.zip ?? "").replace(/\s+/g, "").toUpperCase();
  const inside = INSIDE_BY_CODE[country];
  if (inside) return customsTerritory({ country: inside, zip: "" });
  if (!EU_MEMBER_STATES.has(country)) return country;
  const outside = OUTSIDE_BY_POSTCODE[country]?.find((entry) => zip.startsWith(entry.prefix));
  return outside ? outside.territory : "EU";
}

export function customsRequired(origin: Place, destination: Place): boolean {
  return customsTerritory(origin) !== customsTerritory(destination);
}

export type DestinationZone = "domestic" | "eu" | "world";

/** Which default carrier applies: same country and territory, another EU country, or anywhere else. */
export function destinationZone(origin: Place, destination: Place): DestinationZone {
  const from = customsTerritory(origin);
  const to = customsTerritory(destination);
  const sameCountry = (INSIDE_BY_CODE[origin.country] ?? origin.country) === (INSIDE_BY_CODE[destination.country] ?? destination.country);
  if (from === to && sameCountry) return "domestic";
  if (from === "EU" && to === "EU") return "eu";
  return "world";
}
