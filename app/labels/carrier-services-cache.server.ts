/**
 * The carrier-service lookup (which services the label service sells to a country), cached per shop, environment
 * and country for CARRIER_SERVICES_TTL_MS, so no page waits on the label service for it more than once in a while
 * (issue 16 item 12, decision 0174). One lookup at a time per key (concurrent pages share it); a failed lookup is not
 * kept, the next page asks again. In-process: each app instance warms its own, which is fine for a list that changes
 * rarely.
 */
import type { OfferedService } from "../shipping";

export const CARRIER_SERVICES_TTL_MS = 10 * 60_000;
const MAX_ENTRIES = 2_000;

interface Entry {
  at: number;
  value?: OfferedService[];
  pending?: Promise<OfferedService[]>;
}

export function createCarrierServicesCache(options: { ttlMs?: number; now?: () => number } = {}) {
  const ttl = options.ttlMs ?? CARRIER_SERVICES_TTL_MS;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const keyOf = (shop: string, environment: string, country: string) => `${shop}|${environment}|${country.toUpperCase()}`;

  return {
    /** Forgets everything (tests; a merchant's new account is a new key anyway). */
    clear(): void {
      entries.clear();
    },
    /** The cached list when fresh, without asking the service; undefined otherwise. */
    peek(shop: string, environment: string, country: string): OfferedService[] | undefined {
      const entry = entries.get(keyOf(shop, environment, country));
      return entry?.value && now() - entry.at < ttl ? entry.value : undefined;
    },
    /** The cached list, or the lookup's (shared with a lookup already under way for the same key). */
    get(shop: string, environment: string, country: string, lookup: () => Promise<OfferedService[]>): Promise<OfferedService[]> {
      const key = keyOf(shop, environment, country);
      const entry = entries.get(key);
      if (entry?.value && now() - entry.at < ttl) return Promise.resolve(entry.value);
      if (entry?.pending) return entry.pending;
      const pending = lookup().then(
        (value) => {
          if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
          entries.set(key, { at: now(), value });
          return value;
        },
        (error: unknown) => {
          entries.delete(key);
          throw error;
        },
      );
      entries.set(key, { at: entry?.at ?? 0, value: entry?.value, pending });
      return pending;
    },
  };
}

/** The app's cache (one per process). */
export const carrierServicesCache = createCarrierServicesCache();
