/**
 * The carrier-service lookup (which services the label service sells to a country), cached per shop, environment
 * and country for CARRIER_SERVICES_TTL_MS, so no page waits on the label service for it more than once in a while
 * (issue 16 item 12, decision 0174). One lookup at a time per key (concurrent pages share it); a failed lookup is not
 * kept, the next page asks again. In-process: each app instance warms its own, which is fine for a list that changes
 * rarely.
 */
import type { OfferedService } from "../shipping";
import { createTtlCache } from "../ttl-cache";

export const CARRIER_SERVICES_TTL_MS = 10 * 60_000;
const MAX_ENTRIES = 2_000;

export function createCarrierServicesCache(options: { ttlMs?: number; now?: () => number } = {}) {
  const cache = createTtlCache<OfferedService[]>({ ttlMs: options.ttlMs ?? CARRIER_SERVICES_TTL_MS, maxEntries: MAX_ENTRIES, now: options.now });
  const keyOf = (shop: string, environment: string, country: string) => `${shop}|${environment}|${country.toUpperCase()}`;

  return {
    /** Forgets everything (tests; a merchant's new account is a new key anyway). */
    clear(): void {
      cache.clear();
    },
    /** The cached list when fresh, without asking the service; undefined otherwise. */
    peek(shop: string, environment: string, country: string): OfferedService[] | undefined {
      return cache.peek(keyOf(shop, environment, country));
    },
    /** The cached list, or the lookup's (shared with a lookup already under way for the same key). */
    get(shop: string, environment: string, country: string, lookup: () => Promise<OfferedService[]>): Promise<OfferedService[]> {
      return cache.get(keyOf(shop, environment, country), lookup);
    },
  };
}

/** The app's cache (one per process). */
export const carrierServicesCache = createCarrierServicesCache();
