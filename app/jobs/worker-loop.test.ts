/**
 * What a poll covers (decision 0214): a finished job's poll claims only its own name; the store's tick (recurring
 * runs, sweeps) and the other names keep their interval, even while one name's jobs finish one after another.
 */
import { afterEach, describe, expect, it } from "vitest";
import { WorkerLoop, type ClaimedJob, type JobStore } from "./worker-loop";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** An in-memory store with jobs waiting per name; each call takes a turn of the event loop, as a database call does. */
class FakeStore implements JobStore {
  readonly waiting = new Map<string, number>();
  readonly log: string[] = [];
  private next = 0;

  async claim(name: string, limit: number): Promise<ClaimedJob[]> {
    await new Promise((resolve) => setImmediate(resolve));
    this.log.push(`claim:${name}`);
    const count = Math.min(limit, this.waiting.get(name) ?? 0);
    this.waiting.set(name, (this.waiting.get(name) ?? 0) - count);
    return Array.from({ length: count }, () => ({ id: String(++this.next), name, shop: "s", payload: null, attempt: 1, maxAttempts: 1, backoffMs: 0, token: "" }));
  }
  async renew(): Promise<boolean> {
    return true;
  }
  async settle(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
  }
  async tick(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    this.log.push("tick");
  }
}

describe("the worker loop's polls", () => {
  let loop: WorkerLoop | undefined;
  afterEach(async () => loop?.stop(0));

  it("claims only the finished job's name after it, and ticks with every full poll", async () => {
    const store = new FakeStore();
    store.waiting.set("item", 40);
    const ran: string[] = [];
    loop = new WorkerLoop(store, { pollMs: 60_000, leaseMs: 60_000, onError: (error) => expect.fail(String(error)) });
    loop.register("item", async () => void ran.push("item"), 1);
    loop.register("other", async () => void ran.push("other"), 1);
    loop.start();
    await waitFor(() => ran.length === 40, "the 40 items");
    await sleep(20);
    const ticks = store.log.filter((entry) => entry === "tick").length;
    // One full poll (at start; the next is a minute away): one tick, one claim of "other".
    expect(ticks).toBe(1);
    expect(store.log.filter((entry) => entry === "claim:other")).toHaveLength(1);
    // Every finished item claimed "item" again, on its own.
    expect(store.log.filter((entry) => entry === "claim:item").length).toBeGreaterThanOrEqual(40);
  });

  it("still runs the tick and the other names on their interval while one name's jobs keep finishing", async () => {
    const store = new FakeStore();
    store.waiting.set("item", Number.MAX_SAFE_INTEGER);
    let items = 0;
    let otherRan = false;
    loop = new WorkerLoop(store, { pollMs: 50, leaseMs: 60_000, onError: (error) => expect.fail(String(error)) });
    loop.register("item", async () => void (items += 1), 2);
    loop.register("other", async () => void (otherRan = true), 1);
    loop.start();
    await waitFor(() => items > 0, "the first items");
    // Written behind the loop's back (as another instance would): only a full poll finds it.
    store.waiting.set("other", 1);
    const ticksBefore = store.log.filter((entry) => entry === "tick").length;
    await waitFor(() => otherRan, "the other name's job, while items keep finishing");
    expect(store.log.filter((entry) => entry === "tick").length).toBeGreaterThan(ticksBefore);
    const itemsThen = items;
    await waitFor(() => items > itemsThen, "items still running");
  });

  it("a wake for a name it does not run polls nothing", async () => {
    const store = new FakeStore();
    loop = new WorkerLoop(store, { pollMs: 60_000, leaseMs: 60_000, onError: (error) => expect.fail(String(error)) });
    loop.register("item", async () => undefined, 1);
    loop.start();
    await waitFor(() => store.log.length === 2, "the first full poll");
    loop.wake("someone-else's");
    await sleep(20);
    loop.wake("item");
    await waitFor(() => store.log.length >= 3, "the item's poll");
    await sleep(20);
    expect(store.log).toEqual(["tick", "claim:item", "claim:item"]);
  });

  it("serves wakes that come during a poll right after it: one name, then a full poll", async () => {
    const store = new FakeStore();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const tick = store.tick.bind(store);
    let ticks = 0;
    store.tick = async () => {
      ticks += 1;
      if (ticks === 1) await held; // the first full poll is held in its tick
      await tick();
    };
    loop = new WorkerLoop(store, { pollMs: 60_000, leaseMs: 60_000, onError: (error) => expect.fail(String(error)) });
    loop.register("item", async () => undefined, 1);
    loop.register("other", async () => undefined, 1);
    loop.start();
    await sleep(10);
    loop.wake("other"); // during the held full poll: served after it
    loop.wake("other");
    release();
    await waitFor(() => store.log.length >= 4, "the full poll and the name's poll");
    await sleep(20);
    expect(store.log).toEqual(["tick", "claim:item", "claim:other", "claim:other"]);
    // A full wake during a name's poll: the full poll runs after it.
    loop.wake("item");
    loop.wake();
    await waitFor(() => store.log.length >= 8, "the name's poll and the full poll");
    await sleep(20);
    expect(store.log.slice(4)).toEqual(["claim:item", "tick", "claim:item", "claim:other"]);
  });

  it("asks a store that can tell which names have work once per full poll, and claims only those; a wake claims straight away", async () => {
    class AskingStore extends FakeStore {
      async due(names: readonly string[]): Promise<ReadonlySet<string>> {
        await new Promise((resolve) => setImmediate(resolve));
        this.log.push(`due:${names.join(",")}`);
        return new Set(names.filter((name) => (this.waiting.get(name) ?? 0) > 0));
      }
    }
    const store = new AskingStore();
    const ran: string[] = [];
    loop = new WorkerLoop(store, { pollMs: 60_000, leaseMs: 60_000, onError: (error) => expect.fail(String(error)) });
    loop.register("item", async () => void ran.push("item"), 1);
    loop.register("other", async () => void ran.push("other"), 1);
    loop.start();
    await waitFor(() => store.log.length >= 2, "the first full poll");
    await sleep(20);
    // Nothing waiting: one read, no claim.
    expect(store.log).toEqual(["tick", "due:item,other"]);
    store.waiting.set("other", 1);
    loop.wake();
    await waitFor(() => ran.length === 1, "the other name's job");
    // Its finish wakes a poll of its own name: a claim, without asking.
    await waitFor(() => store.log.length === 6, "the poll after it finished");
    await sleep(20);
    expect(store.log).toEqual(["tick", "due:item,other", "tick", "due:item,other", "claim:other", "claim:other"]);
  });

  it("claims every name as before when the store's read of due names fails, and reports the error", async () => {
    const store = new FakeStore();
    const failing = Object.assign(store, {
      async due(): Promise<ReadonlySet<string>> {
        throw new Error("database is locked");
      },
    });
    store.waiting.set("item", 1);
    const ran: string[] = [];
    const errors: unknown[] = [];
    loop = new WorkerLoop(failing, { pollMs: 60_000, leaseMs: 60_000, onError: (error) => errors.push(error) });
    loop.register("item", async () => void ran.push("item"), 1);
    loop.start();
    await waitFor(() => ran.length === 1, "the item, claimed without the read");
    expect(errors).toEqual([expect.objectContaining({ message: "database is locked" })]);
  });

  it("polls nothing once stopped, even with a wake pending", async () => {
    const store = new FakeStore();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const tick = store.tick.bind(store);
    store.tick = async () => {
      await held;
      await tick();
    };
    loop = new WorkerLoop(store, { pollMs: 10, leaseMs: 60_000, onError: (error) => expect.fail(String(error)) });
    loop.register("item", async () => undefined, 1);
    loop.start();
    await sleep(10);
    loop.wake("item");
    loop.wake();
    const stopped = loop.stop(0);
    release();
    await stopped;
    await sleep(50);
    // The poll under way finishes its tick but claims nothing; the pending wakes never run.
    expect(store.log).toEqual(["tick"]);
  });
});
