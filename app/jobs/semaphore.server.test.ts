/**
 * The cross-instance semaphore, with two database clients on one database standing for two app processes.
 */
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { statements } from "../db-direct.server";
import { createPrismaClient } from "../db.server";
import type { Prisma } from "../generated/prisma/client";
import { createTestDatabaseUrl } from "../../test/helpers/test-db";
import { createPostgresTestDatabase } from "../../test/helpers/test-postgres";
import { createSemaphore, type Semaphore, type SemaphoreLease } from "./semaphore.server";
import type { PrismaLike } from "./sql.server";

/**
 * `seen`, when given, receives the SQL text of every statement the semaphore sends; `around`, when given, runs each
 * statement (to hold it for a while, or count those in flight).
 */
type Around = (text: string, send: () => Promise<unknown>) => Promise<unknown>;
type Processes = { make(now?: () => number, seen?: string[], around?: Around): Semaphore; close(): Promise<void> };
const direct: Around = (_text, send) => send();

const SETUPS: { label: string; setup: () => Promise<Processes> }[] = [
  {
    label: "SQLite",
    async setup() {
      const { url, cleanup } = createTestDatabaseUrl();
      const clients: ReturnType<typeof createPrismaClient>[] = [];
      return {
        make(now, seen, around) {
          const prisma = createPrismaClient(url);
          clients.push(prisma);
          const plain = statements(prisma);
          const run = around ?? direct;
          // The client's own statements, each noted first (Prisma's promise type is all the cast is about).
          const recorded = (seen || around) && ({
            $queryRaw: (query: Prisma.Sql) => (seen?.push(query.text), run(query.text, () => plain.$queryRaw(query))),
            $executeRaw: (query: Prisma.Sql) => (seen?.push(query.text), run(query.text, () => plain.$executeRaw(query))),
          } as unknown as PrismaLike);
          return createSemaphore({ db: recorded || prisma, dialect: "sqlite", now });
        },
        async close() {
          for (const client of clients) await client.$disconnect();
          cleanup();
        },
      };
    },
  },
  {
    label: "PostgreSQL",
    async setup() {
      const { url, drop } = await createPostgresTestDatabase();
      const pools: pg.Pool[] = [];
      return {
        make(now, seen, around) {
          const pool = new pg.Pool({ connectionString: url, max: 5 });
          pool.on("error", () => undefined);
          pools.push(pool);
          const run = around ?? direct;
          const recorded = (seen || around) && {
            query: (text: string, values: unknown[]) => {
              seen?.push(text);
              return run(text, () => pool.query(text, values)) as Promise<pg.QueryResult>;
            },
          };
          return createSemaphore({ db: recorded || pool, dialect: "postgresql", now });
        },
        async close() {
          for (const pool of pools) await pool.end();
          await drop();
        },
      };
    },
  },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Until a process's statements (`seen`) include its first read of the free slots: its caller has tried, and waits. */
const firstRead = (seen: string[]) => expect.poll(() => seen.some((text) => text.trimStart().startsWith("SELECT")), { timeout: 10_000 }).toBe(true);

describe.each(SETUPS)("database semaphore on $label", ({ setup }) => {
  let processes: Processes;
  beforeEach(async () => {
    processes = await setup();
  });
  afterEach(async () => {
    await processes.close();
  });

  it("never lets more than `limit` holders in at once across two processes", async () => {
    const [a, b] = [processes.make(), processes.make()];
    let inside = 0;
    let peak = 0;
    let done = 0;
    const task = async (semaphore: Semaphore) => {
      const lease = await semaphore.acquire("account-1", 3, 30_000, { pollMs: 10 });
      inside += 1;
      peak = Math.max(peak, inside);
      await sleep(5);
      inside -= 1;
      await lease.release();
      done += 1;
    };
    await Promise.all(Array.from({ length: 24 }, (_, i) => task(i % 2 === 0 ? a : b)));
    expect(done).toBe(24);
    expect(peak).toBeLessThanOrEqual(3);
    expect(peak).toBeGreaterThan(1);
  });

  it("refuses a slot when all are held, and gives it back on release", async () => {
    const [a, b] = [processes.make(), processes.make()];
    const first = await a.tryAcquire("account-1", 2, 30_000);
    const second = await b.tryAcquire("account-1", 2, 30_000);
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    expect(await a.tryAcquire("account-1", 2, 30_000)).toBeNull();
    expect(await b.tryAcquire("account-2", 2, 30_000)).not.toBeNull(); // another account has its own slots
    await first!.release();
    expect(await b.tryAcquire("account-1", 2, 30_000)).not.toBeNull();
  });

  it("frees a crashed holder's slot once its lease expired, and the old holder can no longer renew it", async () => {
    let clock = 1_000_000;
    const now = () => clock;
    const [crashed, survivor] = [processes.make(now), processes.make(now)];
    const lost = await crashed.tryAcquire("account-1", 1, 10_000);
    expect(lost).not.toBeNull();
    clock += 9_999;
    expect(await survivor.tryAcquire("account-1", 1, 10_000)).toBeNull();
    clock += 1;
    const taken = await survivor.tryAcquire("account-1", 1, 10_000);
    expect(taken).not.toBeNull();
    expect(await lost!.renew()).toBe(false);
    await lost!.release(); // must not free the survivor's slot
    expect(await crashed.tryAcquire("account-1", 1, 10_000)).toBeNull();
    expect(await taken!.renew()).toBe(true);
  });

  it("tries the slot it released first (one INSERT when it is free), and leaves the other free slot alone", async () => {
    const [a, b] = [processes.make(), processes.make()];
    const leases = (await Promise.all([0, 1, 2].map(() => a.tryAcquire("account-1", 4, 30_000)))).map((lease) => lease!);
    // Two slots free after each release: the released one and the fourth. A random first try would pick the released
    // one half of the time (ten rounds in a row: 1 in 1,024).
    for (let round = 0; round < 10; round += 1) {
      const index = round % leases.length;
      await leases[index]!.release();
      const again = await a.tryAcquire("account-1", 4, 30_000);
      expect(again?.slot).toBe(leases[index]!.slot);
      leases[index] = again!;
    }
    // Another process remembers nothing of a's releases, and still finds the fourth slot.
    expect(await b.tryAcquire("account-1", 4, 30_000)).not.toBeNull();
    expect(await b.tryAcquire("account-1", 4, 30_000)).toBeNull();
  });

  it("while every slot is held, waits with one read per poll and writes only for a slot that has come free", async () => {
    const holder = processes.make();
    const seen: string[] = [];
    const waiter = processes.make(undefined, seen);
    const held = [await holder.tryAcquire("account-1", 2, 30_000), await holder.tryAcquire("account-1", 2, 30_000)];
    const stop = new AbortController();
    const waiting = waiter.acquire("account-1", 2, 30_000, { pollMs: 10, signal: stop.signal });
    waiting.catch(() => undefined); // awaited below; a failed assertion before that stops it instead
    const inserts = () => seen.filter((text) => text.includes("INSERT INTO")).length;
    const reads = () => seen.filter((text) => text.trimStart().startsWith("SELECT")).length;
    try {
      // Its first try wrote once per slot; after that, only reads while nothing is free.
      await expect.poll(reads, { timeout: 10_000 }).toBeGreaterThanOrEqual(5);
      expect(inserts()).toBe(2);
      await held[1]!.release();
      const lease = await waiting;
      expect(lease.slot).toBe(held[1]!.slot);
      expect(inserts()).toBe(3);
      await lease.release();
      await held[0]!.release();
    } finally {
      stop.abort(new Error("test over"));
    }
  });

  it("stops waiting when its signal aborts", async () => {
    const a = processes.make();
    await a.tryAcquire("account-1", 1, 30_000);
    const controller = new AbortController();
    const waiting = a.acquire("account-1", 1, 30_000, { signal: controller.signal, pollMs: 10 });
    controller.abort(new Error("job cancelled"));
    await expect(waiting).rejects.toThrow(/job cancelled/);
  });

  it("waiters of one process share one read of the free slots at a time, and get slots in the order they came", async () => {
    const holder = processes.make();
    let reading = 0;
    let mostAtOnce = 0;
    let triesDone = 0;
    // Each read is held 30 ms, three times the poll: waiters polling on their own would overlap their reads.
    const waiter = processes.make(undefined, undefined, async (text, send) => {
      if (!text.trimStart().startsWith("SELECT")) return send().finally(() => (triesDone += 1));
      reading += 1;
      mostAtOnce = Math.max(mostAtOnce, reading);
      try {
        await sleep(30);
        return await send();
      } finally {
        reading -= 1;
      }
    });
    const held = [await holder.tryAcquire("account-1", 2, 30_000), await holder.tryAcquire("account-1", 2, 30_000)];
    const stop = new AbortController();
    const order: string[] = [];
    const waiting: Promise<unknown>[] = [];
    try {
      // The first tries both slots, then queues; the others queue behind it without trying (it already waits).
      for (const name of ["first", "second", "third"]) {
        const lease = waiter.acquire("account-1", 2, 30_000, { pollMs: 10, signal: stop.signal });
        waiting.push(lease.then((taken) => (order.push(name), taken)));
        waiting.at(-1)!.catch(() => undefined);
        if (name === "first") await expect.poll(() => triesDone, { timeout: 10_000 }).toBe(2);
      }
      await sleep(200);
      await held[0]!.release();
      const firstLease = (await waiting[0]!) as SemaphoreLease;
      await held[1]!.release();
      await waiting[1];
      await firstLease.release(); // a release of its own process: the third's turn
      await waiting[2];
      expect(order).toEqual(["first", "second", "third"]);
      expect(mostAtOnce).toBe(1);
    } finally {
      stop.abort(new Error("test over"));
    }
  });

  it("a slot released by its own process goes to that process's waiter at once, not at its next poll", async () => {
    const a = processes.make();
    const held = await a.tryAcquire("account-1", 1, 30_000);
    const stop = new AbortController();
    // A poll of ten minutes: the test's own timeout ends it long before, unless the release hands the slot over.
    const waiting = a.acquire("account-1", 1, 30_000, { pollMs: 600_000, signal: stop.signal });
    waiting.catch(() => undefined);
    try {
      await sleep(50);
      await held!.release();
      const lease = await waiting;
      expect(lease.slot).toBe(held!.slot);
    } finally {
      stop.abort(new Error("test over"));
    }
  });

  it("a slot its own process releases while a caller's first try is under way wakes that caller at once", async () => {
    let lease: SemaphoreLease | null = null;
    let releaseDuringNextTry = false;
    const a = processes.make(undefined, undefined, async (text, send) => {
      if (!releaseDuringNextTry || !text.includes("INSERT INTO")) return send();
      releaseDuringNextTry = false;
      const answer = await send(); // the slot is still held: the try fails
      await lease!.release(); // released before the caller has queued
      return answer;
    });
    lease = await a.tryAcquire("account-1", 1, 30_000);
    const stop = new AbortController();
    releaseDuringNextTry = true;
    // A poll of ten minutes: the test's own timeout ends it long before, unless the missed release is noticed.
    const waiting = a.acquire("account-1", 1, 30_000, { pollMs: 600_000, signal: stop.signal });
    waiting.catch(() => undefined);
    try {
      expect((await waiting).slot).toBe(lease!.slot);
    } finally {
      stop.abort(new Error("test over"));
    }
  });

  it("a waiter that stops leaves the queue, and the one behind it gets the slot", async () => {
    const seen: string[] = [];
    const [holder, a] = [processes.make(), processes.make(undefined, seen)];
    const held = await holder.tryAcquire("account-1", 1, 30_000);
    const [leaving, staying] = [new AbortController(), new AbortController()];
    const first = a.acquire("account-1", 1, 30_000, { pollMs: 10, signal: leaving.signal });
    // Its first read: it has tried, and waits.
    await firstRead(seen);
    const second = a.acquire("account-1", 1, 30_000, { pollMs: 10, signal: staying.signal });
    second.catch(() => undefined);
    try {
      await sleep(30);
      leaving.abort(new Error("job cancelled"));
      await expect(first).rejects.toThrow(/job cancelled/);
      await held!.release();
      expect((await second).slot).toBe(held!.slot);
      // The first's try on arrival and the second's slot: no slot taken (and given back) for the one that left, and
      // the second never tried on its own while the first waited.
      expect(seen.filter((text) => text.includes("INSERT INTO")).length).toBe(2);
      expect(seen.filter((text) => text.includes("DELETE FROM")).length).toBe(0);
    } finally {
      staying.abort(new Error("test over"));
    }
  });

  it("a waiter that stops while its slot is being tried, the try failing, leaves the next one served", async () => {
    const holder = processes.make();
    const [leaving, staying] = [new AbortController(), new AbortController()];
    let failNextTry = false;
    const seen: string[] = [];
    const a = processes.make(undefined, seen, async (text, send) => {
      if (failNextTry && text.includes("INSERT INTO")) {
        failNextTry = false;
        leaving.abort(new Error("job cancelled"));
        throw new Error("connection reset");
      }
      return send();
    });
    const held = await holder.tryAcquire("account-1", 1, 30_000);
    const first = a.acquire("account-1", 1, 30_000, { pollMs: 10, signal: leaving.signal });
    first.catch(() => undefined);
    await firstRead(seen);
    const second = a.acquire("account-1", 1, 30_000, { pollMs: 10, signal: staying.signal });
    second.catch(() => undefined);
    try {
      await sleep(30);
      failNextTry = true;
      await held!.release();
      await expect(first).rejects.toThrow(/job cancelled/);
      expect((await second).slot).toBe(held!.slot);
    } finally {
      staying.abort(new Error("test over"));
    }
  });

  it("refuses a limit below 1 even while others wait for the key", async () => {
    const seen: string[] = [];
    const [holder, a] = [processes.make(), processes.make(undefined, seen)];
    await holder.tryAcquire("account-1", 1, 30_000);
    const stop = new AbortController();
    const waiting = a.acquire("account-1", 1, 30_000, { pollMs: 10, signal: stop.signal });
    waiting.catch(() => undefined);
    try {
      await firstRead(seen);
      await expect(a.acquire("account-1", 0, 30_000)).rejects.toThrow(/limit must be >= 1/);
    } finally {
      stop.abort(new Error("test over"));
    }
  });
});
