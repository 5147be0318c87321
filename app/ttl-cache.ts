/**
 * A small in-process cache of values that stay true for a while (a lookup's answer, a shop's plan). Each key's value is
 * kept `ttlMs` from when it arrived; a load already under way for a key is shared by every caller asking meanwhile; a
 * failed load is not kept (the next caller loads again). At most `maxEntries` keys: expired ones are dropped first,
 * then the oldest.
 */
export interface TtlCache<V> {
  /** The value when fresh, without loading; undefined otherwise. */
  peek(key: string): V | undefined;
  /** The fresh value, or `load`'s (shared with a load already under way for the key). */
  get(key: string, load: () => Promise<V>): Promise<V>;
  /** Forgets everything. */
  clear(): void;
}

interface Entry<V> {
  at: number;
  value?: { current: V };
  pending?: Promise<V>;
}

export function createTtlCache<V>(options: { ttlMs: number; maxEntries?: number; now?: () => number }): TtlCache<V> {
  const { ttlMs } = options;
  const maxEntries = options.maxEntries ?? 1_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry<V>>();
  const fresh = (entry: Entry<V> | undefined, at: number) => (entry?.value && at - entry.at < ttlMs ? entry.value : undefined);

  function makeRoom(at: number): void {
    if (entries.size < maxEntries) return;
    for (const [key, entry] of entries) if (!entry.pending && !fresh(entry, at)) entries.delete(key);
    while (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
  }

  return {
    peek(key) {
      return fresh(entries.get(key), now())?.current;
    },
    get(key, load) {
      const entry = entries.get(key);
      const kept = fresh(entry, now());
      if (kept) return Promise.resolve(kept.current);
      if (entry?.pending) return entry.pending;
      const pending = load().then(
        (current) => {
          const at = now();
          entries.delete(key);
          makeRoom(at);
          entries.set(key, { at, value: { current } });
          return current;
        },
        (error: unknown) => {
          if (entries.get(key)?.pending === pending) entries.delete(key);
          throw error;
        },
      );
      entries.set(key, { at: entry?.at ?? 0, value: entry?.value, pending });
      return pending;
    },
    clear() {
      entries.clear();
    },
  };
}
