/**
 * The services the label service sells per zone (domestic, EU, rest of the world), for the settings' default carrier
 * per zone: one representative destination each, through the cached lookup. Returned as a promise the settings page
 * does not wait for (decision 0174); a zone whose lookup fails lists nothing (the merchant keeps the saved choice).
 */
import { carrierServicesCache } from "../labels/carrier-services-cache.server";
import type { LabelEnvironment } from "../labels/environments";
import { labelServiceClientFor } from "../labels/gateway.server";
import type { OfferedService } from "../shipping";

export type Zone = "domestic" | "eu" | "world";
export interface ServiceOption {
  label: string;
  value: string;
}

export function zoneDestinations(senderCountry: string): Record<Zone, string> {
  return { domestic: senderCountry, eu: senderCountry === "DE" ? "FR" : "DE", world: "US" };
}

export async function zoneServices(
  shop: string,
  environment: LabelEnvironment,
  senderCountry: string,
  deps: {
    lookup?: (country: string) => Promise<OfferedService[]>;
    cache?: Pick<typeof carrierServicesCache, "get">;
  } = {},
): Promise<Record<Zone, ServiceOption[]>> {
  const cache = deps.cache ?? carrierServicesCache;
  let lookup = deps.lookup;
  if (!lookup) {
    try {
      const client = await labelServiceClientFor(shop, environment);
      lookup = (country) => client.carrierServices(country);
    } catch {
      return { domestic: [], eu: [], world: [] };
    }
  }
  const destinations = zoneDestinations(senderCountry);
  const zones = Object.keys(destinations) as Zone[];
  const lists = await Promise.all(
    zones.map(async (zone) => {
      try {
        const offered = await cache.get(shop, environment, destinations[zone], () => lookup(destinations[zone]));
        return offered.map((service) => ({ label: `${service.carrier ?? ""} · ${service.label ?? service.name}`, value: `${service.carrier ?? ""}|${service.name}` }));
      } catch {
        return [];
      }
    }),
  );
  return Object.fromEntries(zones.map((zone, index) => [zone, lists[index]!])) as Record<Zone, ServiceOption[]>;
}
