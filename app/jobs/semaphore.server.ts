/**
 * A counting semaphore shared by every app instance through the database: at most `limit` holders of a key at once
 * (e.g. LABEL_SERVICE_MAX_CONCURRENCY per label-service account). A holder owns one slot row (key, slot) until it
 * releases it or its lease expires (a crashed process frees its slots by itself). Taking a slot is one
 * INSERT ... ON CONFLICT DO UPDATE ... WHERE expired, atomic on SQLite and PostgreSQL alike.
 */
import { randomUUID } from "node:crypto";
import { sql, sqlRunner, type Dialect, type SqlTarget } from "./sql.server";

export type SemaphoreLease = {
  key: string;
  slot: number;
  holder: string;
  /** Extends the lease by its length again; false when it had expired and someone else took the slot. */
  renew(): Promise<boolean>;
  /** Frees the slot (a no-op when the lease was already lost). */
  release(): Promise<void>;
};

export type AcquireOptions = { signal?: AbortSignal; pollMs?: number };

export interface Semaphore {
  /** A slot now, or null when all `limit` slots of `key` are held. */
  tryAcquire(key: string, limit: number, leaseMs: number): Promise<SemaphoreLease | null>;
  /** Waits (polling) for a slot; rejects when `signal` aborts. */
  acquire(key: string, limit: number, leaseMs: number, options?: AcquireOptions): Promise<SemaphoreLease>;
}

export type SemaphoreConfig = { db: SqlTarget; dialect: Dialect; now?: () => number };

export function createSemaphore(config: SemaphoreConfig): Semaphore {
  const db = sqlRunner(config.db, config.dialect);
  const now = config.now ?? Date.now;
  /**
   * Slots this process released, per key, the latest last: most likely free, so they are tried first. Without them a
   * process holding three of four slots tried its own taken slots first about half the time (1.5 failed INSERTs
   * per label on the bulk bench, each a write).
   */
  const released = new Map<string, number[]>();
  const remember = (key: string, slot: number) => {
    const slots = released.get(key)?.filter((other) => other !== slot) ?? [];
    slots.push(slot);
    released.set(key, slots.slice(-16));
  };
  const forget = (key: string, slot: number) => {
    const slots = released.get(key);
    if (slots?.includes(slot)) released.set(key, slots.filter((other) => other !== slot));
  };

  function lease(key: string, slot: number, holder: string, leaseMs: number): SemaphoreLease {
    return {
      key,
      slot,
      holder,
      async renew() {
        const count = await db.execute(sql`UPDATE "SemaphoreSlot" SET "leaseUntilMs" = ${BigInt(now() + leaseMs)}
          WHERE "key" = ${key} AND "slot" = ${slot} AND "holder" = ${holder}`);
        return count === 1;
      },
      async release() {
        const count = await db.execute(sql`DELETE FROM "SemaphoreSlot" WHERE "key" = ${key} AND "slot" = ${slot} AND "holder" = ${holder}`);
        if (count === 1) remember(key, slot);
      },
    };
  }

  /**
   * Tries `candidates` (every slot below `limit` when absent) until one is taken: the slots this process released
   * first, then the others from a random start (spreading contenders over the slots).
   */
  async function attempt(key: string, limit: number, leaseMs: number, candidates?: readonly number[]): Promise<SemaphoreLease | null> {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`Semaphore "${key}": limit must be >= 1`);
    if (!Number.isInteger(leaseMs) || leaseMs < 1) throw new Error(`Semaphore "${key}": leaseMs must be >= 1`);
    const holder = randomUUID();
    const at = now();
    const start = Math.floor(Math.random() * limit);
    const freed = (released.get(key) ?? []).filter((slot) => slot < limit).reverse();
    const allowed = candidates ? new Set(candidates) : null;
    const order = [...new Set([...freed, ...Array.from({ length: limit }, (_, i) => (start + i) % limit)])].filter(
      (slot) => !allowed || allowed.has(slot),
    );
    for (const slot of order) {
      forget(key, slot);
      const rows = await db.query<{ holder: string }>(sql`INSERT INTO "SemaphoreSlot" ("key", "slot", "holder", "leaseUntilMs")
        VALUES (${key}, ${slot}, ${holder}, ${BigInt(at + leaseMs)})
        ON CONFLICT ("key", "slot") DO UPDATE SET "holder" = excluded."holder", "leaseUntilMs" = excluded."leaseUntilMs"
          WHERE "SemaphoreSlot"."leaseUntilMs" <= ${BigInt(at)}
        RETURNING "holder"`);
      if (rows[0]?.holder === holder) return lease(key, slot, holder, leaseMs);
    }
    return null;
  }

  /** The slots below `limit` that no live lease holds now: one read. */
  async function freeSlots(key: string, limit: number): Promise<number[]> {
    const held = await db.query<{ slot: number | bigint }>(sql`SELECT "slot" FROM "SemaphoreSlot"
      WHERE "key" = ${key} AND "leaseUntilMs" > ${BigInt(now())}`);
    const taken = new Set(held.map((row) => Number(row.slot)));
    return Array.from({ length: limit }, (_, slot) => slot).filter((slot) => !taken.has(slot));
  }

  const tryAcquire = (key: string, limit: number, leaseMs: number) => attempt(key, limit, leaseMs);

  return {
    tryAcquire,
    /**
     * Every slot is tried once; then, while all are held, each poll reads which slots are free and tries only those.
     * A try is a write (on PostgreSQL a failed one still locks the row): with two processes waiting for four slots
     * held for 300–800 ms each, trying every slot on every poll cost about 45 INSERTs per label bought on the bulk
     * bench, two thirds of all its statements.
     */
    async acquire(key, limit, leaseMs, options = {}) {
      const pollMs = options.pollMs ?? 50;
      let candidates: number[] | undefined;
      for (;;) {
        options.signal?.throwIfAborted();
        const taken = candidates?.length === 0 ? null : await attempt(key, limit, leaseMs, candidates);
        if (taken) return taken;
        await new Promise((resolve) => setTimeout(resolve, pollMs / 2 + Math.random() * pollMs));
        options.signal?.throwIfAborted();
        candidates = await freeSlots(key, limit);
      }
    },
  };
}
