/**
 * Token cache keyed by `${shop}:${environment}:${credentialFingerprint}`. The fingerprint covers the base URL, the
 * e-mail and the password, so a token is only ever reused with the exact credentials that obtained it: when a
 * merchant saves another account (or the base URL changes), every client, in every instance sharing the cache, gets
 * a new key and authenticates again instead of buying labels on the old account. The in-memory default can be shared
 * across client instances; a shared store (database, Redis) can implement the same interface. In-flight
 * authentications are tracked per cache and key, so concurrent callers of the same key share one POST /authenticate.
 */
import { createHash } from "node:crypto";

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

/** Length (hex characters) of the credential fingerprint in a cache key: 64 bits, ample to tell accounts apart. */
export const CREDENTIAL_FINGERPRINT_LENGTH = 16;

/**
 * A short, one-way fingerprint of the credentials a token belongs to: truncated SHA-256 over the base URL, the
 * e-mail and the password (JSON-encoded, so no two different triples hash the same input). Neither the password nor
 * anything reversible is kept; the fingerprint only changes when one of the three changes.
 */
export function credentialFingerprint(account: { baseUrl: string; email: string; password: string }): string {
  return createHash("sha256")
    .update(JSON.stringify(["etiquette-label-service-token/v1", account.baseUrl, account.email, account.password]))
    .digest("hex")
    .slice(0, CREDENTIAL_FINGERPRINT_LENGTH);
}

/** `${shop}:${environment}:${fingerprint}`; the fingerprint comes from {@link credentialFingerprint}. */
export function tokenCacheKey(shop: string, environment: string, fingerprint: string): string {
  return `${shop}:${environment}:${fingerprint}`;
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
