/**
 * Token cache keyed by `${shop}:${environment}`. The in-memory default can be shared across client instances; a
 * shared store (database, Redis) can implement the same interface. In-flight authentications are tracked per cache
 * and key, so concurrent callers of the same key share one POST /authenticate.
 */

export interface CachedToken {
  token: string;
  /** Epoch milliseconds after which the token must not be used any more. */
  renewAt: number;
}

export interface TokenCache {
  get(key: string): CachedToken | undefined;
  set(key: string, value: CachedToken): void;
  delete(key: string): void;
}

export class InMemoryTokenCache implements TokenCache {
  private readonly entries = new Map<string, CachedToken>();
  get(key: string): CachedToken | undefined {
    return this.entries.get(key);
  }
  set(key: string, value: CachedToken): void {
    this.entries.set(key, value);
  }
  delete(key: string): void {
    this.entries.delete(key);
  }
  get size(): number {
    return this.entries.size;
  }
}

/** The process-wide default cache, used when a client is created without one. */
export const defaultTokenCache: TokenCache = new InMemoryTokenCache();

export function tokenCacheKey(shop: string, environment: string): string {
  return `${shop}:${environment}`;
}

const inFlight = new WeakMap<TokenCache, Map<string, Promise<string>>>();

/**
 * Runs `authenticate` at most once at a time per (cache, key): callers arriving while it runs get the same promise.
 */
export function sharedAuthentication(cache: TokenCache, key: string, authenticate: () => Promise<string>): Promise<string> {
  let byKey = inFlight.get(cache);
  if (!byKey) {
    byKey = new Map();
    inFlight.set(cache, byKey);
  }
  const running = byKey.get(key);
  if (running) return running;
  const map = byKey;
  const promise = authenticate().finally(() => {
    if (map.get(key) === promise) map.delete(key);
  });
  map.set(key, promise);
  return promise;
}
