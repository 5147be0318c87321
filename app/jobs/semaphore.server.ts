/**
 * A counting semaphore shared by every app instance through the database: at most `limit` holders of a key at once
 * (e.g. LABEL_SERVICE_MAX_CONCURRENCY per label-service account). A holder owns one slot row (key, slot) until it
 * releases it or its lease expires (a crashed process frees its slots by itself). Taking a slot is one
 * INSERT ... ON CONFLICT DO UPDATE ... WHERE expired, atomic on SQLite and PostgreSQL alike.
 */
import { randomUUID } from "node:crypto";
import { sql, sqlRunner, unsynced, type Dialect, type SqlTarget } from "./sql.server";

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
        const count = await db.execute(sql`${unsynced}UPDATE "SemaphoreSlot" SET "leaseUntilMs" = ${BigInt(now() + leaseMs)}
          WHERE "key" = ${key} AND "slot" = ${slot} AND "holder" = ${holder}`);
        return count === 1;
      },
      async release() {
        const count = await db.execute(sql`${unsynced}DELETE FROM "SemaphoreSlot" WHERE "key" = ${key} AND "slot" = ${slot} AND "holder" = ${holder}`);
        if (count === 1) {
          remember(key, slot);
          releases.set(key, (releases.get(key) ?? 0) + 1);
          wakers.get(key)?.();
        }
      },
    };
  }

  /**
   * Tries `candidates` (every slot below `limit` when absent) until one is taken: the slots this process released
   * first, then the others from a random start (spreading contenders over the slots).
   */
  function check(key: string, limit: number, leaseMs: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`Semaphore "${key}": limit must be >= 1`);
    if (!Number.isInteger(leaseMs) || leaseMs < 1) throw new Error(`Semaphore "${key}": leaseMs must be >= 1`);
  }

  async function attempt(key: string, limit: number, leaseMs: number, candidates?: readonly number[]): Promise<SemaphoreLease | null> {
    check(key, limit, leaseMs);
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
      const rows = await db.query<{ holder: string }>(sql`${unsynced}INSERT INTO "SemaphoreSlot" ("key", "slot", "holder", "leaseUntilMs")
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

  /**
   * This process's callers waiting for a slot of a key, first come first served, and the one loop per key that reads
   * the free slots for all of them: one read per poll whatever the number of waiters (decision 0212). The loop reads
   * with its first waiter's `limit` and poll: callers of one key are expected to pass the same ones.
   */
  type Waiter = { limit: number; leaseMs: number; pollMs: number; settle(lease: SemaphoreLease | null, error?: unknown): boolean };
  const queues = new Map<string, Waiter[]>();
  /** Per key with a loop running: wakes it at once (a slot of this process was released). */
  const wakers = new Map<string, () => void>();
  /** Per key, how many slots this process has released: a caller whose first try failed sees one it missed. */
  const releases = new Map<string, number>();

  function waiterFor(key: string, limit: number, leaseMs: number, pollMs: number, signal?: AbortSignal, missedRelease = false): Promise<SemaphoreLease> {
    return new Promise<SemaphoreLease>((resolve, reject) => {
      let settled = false;
      const onAbort = () => {
        if (waiter.settle(null, signal!.reason instanceof Error ? signal!.reason : new Error("aborted"))) {
          const queue = queues.get(key);
          if (queue?.includes(waiter)) queue.splice(queue.indexOf(waiter), 1);
        }
      };
      const waiter: Waiter = {
        limit,
        leaseMs,
        pollMs,
        settle(lease, error) {
          if (settled) return false;
          settled = true;
          signal?.removeEventListener("abort", onAbort);
          if (lease) resolve(lease);
          else reject(error);
          return true;
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const queue = queues.get(key) ?? [];
      queue.push(waiter);
      queues.set(key, queue);
      if (!wakers.has(key)) void pollFor(key);
      // A slot released while its first try was under way: look now, not a poll later.
      if (missedRelease) wakers.get(key)?.();
    });
  }

  /** Hands the free slots of `key` to its waiters in turn, one read per poll, until none waits. */
  async function pollFor(key: string): Promise<void> {
    const queue = queues.get(key)!;
    // A release while the loop reads or tries is not lost: the next round starts without sleeping.
    let woken = false;
    let wake: () => void = () => undefined;
    wakers.set(key, () => ((woken = true), wake()));
    try {
      while (queue.length > 0) {
        const pollMs = queue[0]!.pollMs;
        if (!woken)
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, pollMs / 2 + Math.random() * pollMs);
            wake = () => (clearTimeout(timer), resolve());
          });
        woken = false;
        wake = () => undefined;
        if (queue.length === 0) break;
        let free: number[];
        try {
          free = await freeSlots(key, queue[0]!.limit);
        } catch (error) {
          // The read failed for all of them: each gets the error, as its own read would have given it.
          for (const waiter of queue.splice(0)) waiter.settle(null, error);
          break;
        }
        while (free.length > 0 && queue.length > 0) {
          const waiter = queue[0]!;
          let lease: SemaphoreLease | null;
          try {
            lease = await attempt(key, waiter.limit, waiter.leaseMs, free);
          } catch (error) {
            // The waiter may have left meanwhile (aborted): only then is another one first.
            if (queue[0] === waiter) queue.shift();
            waiter.settle(null, error);
            continue;
          }
          if (!lease) break; // another process took them first
          free = free.filter((slot) => slot !== lease.slot);
          if (queue[0] === waiter) queue.shift();
          // Aborted while its slot was being taken: the slot goes back.
          if (!waiter.settle(lease)) await lease.release().catch(() => undefined);
        }
      }
    } catch (error) {
      // Not expected (each read and try has its own handling), but no waiter is left waiting on a loop that ended.
      for (const waiter of queue.splice(0)) waiter.settle(null, error);
    } finally {
      wakers.delete(key);
      if (queue.length > 0) void pollFor(key);
      else if (queues.get(key) === queue) queues.delete(key);
    }
  }

  return {
    tryAcquire,
    /**
     * A caller tries every slot once, unless others of this process already wait for the key (then it queues behind
     * them). While all are held, the process's waiters share one read of the free slots per poll and try only those,
     * first come first served; a slot this process releases wakes them at once. A try is a write (on PostgreSQL a
     * failed one still locks the row): trying every slot on every poll cost about 45 INSERTs per label bought on the
     * bulk bench (decision 0211), and one read per waiter and poll still about 12 reads per label (decision 0212).
     */
    async acquire(key, limit, leaseMs, options = {}) {
      options.signal?.throwIfAborted();
      check(key, limit, leaseMs);
      const pollMs = options.pollMs ?? 50;
      if (!(pollMs > 0) || !Number.isFinite(pollMs)) throw new Error(`Semaphore "${key}": pollMs must be > 0`);
      const releasesBefore = releases.get(key) ?? 0;
      if (!queues.get(key)?.length) {
        const taken = await attempt(key, limit, leaseMs);
        if (taken) return taken;
        options.signal?.throwIfAborted();
      }
      return waiterFor(key, limit, leaseMs, pollMs, options.signal, (releases.get(key) ?? 0) !== releasesBefore);
    },
  };
}
