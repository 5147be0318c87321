/**
 * One contract, every adapter: what the rest of the app may rely on from a JobQueue.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RetryableJobError, TerminalJobError } from "./errors";
import { ADAPTERS, type AdapterFixture } from "./queue-fixtures.test-support";
import type { JobContext } from "./types";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

describe.each(ADAPTERS)("job queue: $label", ({ setup }) => {
  let adapter: AdapterFixture;
  beforeEach(async () => {
    adapter = await setup();
  });
  afterEach(async () => {
    await adapter.close();
  });

  it("runs an enqueued job once with its shop and payload", async () => {
    const queue = await adapter.makeQueue();
    const seen: JobContext[] = [];
    await queue.work("greet", async (job) => void seen.push(job));
    await queue.start();
    const id = await queue.enqueue("greet", { shop: "a.myshopify.com", payload: { orderIds: ["gid://shopify/Order/1"], n: 2 } });
    await waitFor(() => seen.length === 1, "the job");
    expect(seen[0]).toMatchObject({ id, name: "greet", shop: "a.myshopify.com", attempt: 1, payload: { orderIds: ["gid://shopify/Order/1"], n: 2 } });
  });

  it("refuses a payload that is not plain JSON, and a missing shop", async () => {
    const queue = await adapter.makeQueue();
    await expect(queue.enqueue("bad", { shop: "a", payload: { at: new Date() } as never })).rejects.toThrow(/JSON-only/);
    await expect(queue.enqueue("bad", { shop: "a", payload: { n: Number.NaN } })).rejects.toThrow(/JSON-only/);
    await expect(queue.enqueue("bad", { shop: "a", payload: { x: undefined } as never })).rejects.toThrow(/JSON-only/);
    await expect(queue.enqueue("bad", { shop: "", payload: null })).rejects.toThrow(/JSON-only/);
  });

  it("enqueues inside a transaction: the job exists only if the transaction commits", async () => {
    const queue = await adapter.makeQueue();
    const ran: unknown[] = [];
    await queue.work("in-tx", async (job) => void ran.push(job.payload));
    await queue.start();
    await expect(
      adapter.inTransaction(async (tx) => {
        await queue.enqueue("in-tx", { shop: "a", payload: "rolled back" }, { tx });
        throw new Error("the order rows failed to save");
      }),
    ).rejects.toThrow(/failed to save/);
    await adapter.inTransaction(async (tx) => {
      await queue.enqueue("in-tx", { shop: "a", payload: "committed" }, { tx });
    });
    await waitFor(() => ran.length === 1, "the committed job");
    await sleep(300);
    expect(ran).toEqual(["committed"]);
  });

  it("enqueues many jobs at once, inside a transaction, each key once, with the retry limit given", async () => {
    const queue = await adapter.makeQueue();
    const ran: { payload: unknown; attempt: number }[] = [];
    await queue.work(
      "many",
      async (job) => {
        ran.push({ payload: job.payload, attempt: job.attempt });
        if (job.payload === "fails") throw new RetryableJobError("again", 1);
      },
      { concurrency: 4 },
    );
    expect(await queue.enqueue("many", { shop: "a", payload: "already queued" }, { singletonKey: "k0", delayMs: 60_000 })).toEqual(expect.any(String));
    await expect(
      adapter.inTransaction(async (tx) => {
        await queue.enqueueMany("many", [{ data: { shop: "a", payload: "rolled back" } }], { tx });
        throw new Error("the job rows failed to save");
      }),
    ).rejects.toThrow(/failed to save/);
    await expect(queue.enqueueMany("many", [{ data: { shop: "a", payload: { at: new Date() } as never } }])).rejects.toThrow(/JSON-only/);
    const jobs = [
      { data: { shop: "a", payload: "one" }, singletonKey: "k1" },
      { data: { shop: "a", payload: "taken" }, singletonKey: "k0" },
      { data: { shop: "b", payload: "two" }, singletonKey: "k2" },
      { data: { shop: "a", payload: "twice in the list" }, singletonKey: "k1" },
      { data: { shop: "b", payload: "fails" } },
    ];
    let ids: (string | null)[] = [];
    await adapter.inTransaction(async (tx) => {
      ids = await queue.enqueueMany("many", jobs, { tx, retryLimit: 1 });
    });
    expect(ids.map((id) => (id === null ? null : "id"))).toEqual(["id", null, "id", null, "id"]);
    expect(new Set(ids.filter(Boolean)).size).toBe(3);
    expect(await queue.enqueueMany("many", [])).toEqual([]);
    await queue.start();
    await waitFor(() => ran.filter((run) => run.payload === "fails").length === 2, "the failing job's two attempts");
    await waitFor(() => ran.length === 4, "every job of the list");
    await sleep(300);
    expect(ran.map((run) => run.payload).sort()).toEqual(["fails", "fails", "one", "two"]);
  });

  it("enqueues a list longer than one statement holds in full, a key repeated far apart once", async () => {
    const queue = await adapter.makeQueue();
    const jobs = Array.from({ length: 600 }, (_, i) => ({ data: { shop: "long", payload: i }, singletonKey: i === 599 ? "k0" : `k${i}` }));
    const ids = await queue.enqueueMany("long", jobs, { delayMs: 60_000 });
    expect(ids.slice(0, 599).every((id) => typeof id === "string")).toBe(true);
    expect(ids[599]).toBeNull();
    expect(new Set(ids.filter(Boolean)).size).toBe(599);
    const payloads = (await queue.livePayloads("long", "long")) as number[];
    expect(payloads.sort((a, b) => a - b)).toEqual(Array.from({ length: 599 }, (_, i) => i));
  });

  it("retries a retryable error with backoff, then succeeds", async () => {
    const queue = await adapter.makeQueue();
    const attempts: number[] = [];
    let done = false;
    await queue.work("flaky", async (job) => {
      attempts.push(job.attempt);
      if (job.attempt < 3) throw new RetryableJobError("label service busy");
      done = true;
    });
    await queue.start();
    await queue.enqueue("flaky", { shop: "a", payload: null }, { retryLimit: 3, retryBackoffMs: 10 });
    await waitFor(() => done, "the third attempt");
    expect(attempts).toEqual([1, 2, 3]);
  });

  it("never retries a terminal error, and stops an unknown error after the retry limit", async () => {
    const queue = await adapter.makeQueue();
    const runs = { terminal: 0, unknown: 0 };
    await queue.work("terminal", async () => {
      runs.terminal += 1;
      throw new TerminalJobError("order deleted");
    });
    await queue.work("unknown", async () => {
      runs.unknown += 1;
      throw new Error("boom");
    });
    await queue.start();
    await queue.enqueue("terminal", { shop: "a", payload: null }, { retryLimit: 5, retryBackoffMs: 10 });
    await queue.enqueue("unknown", { shop: "a", payload: null }, { retryLimit: 1, retryBackoffMs: 10 });
    await waitFor(() => runs.terminal === 1 && runs.unknown === 2, "both jobs to fail");
    await sleep(500); // several polls and backoffs: nothing more may run
    expect(runs).toEqual({ terminal: 1, unknown: 2 });
  });

  it("adds no second job while one with the same singleton key is queued or active", async () => {
    const queue = await adapter.makeQueue();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const runs: string[] = [];
    await queue.work("sync", async (job) => {
      runs.push(job.id);
      await gate;
    });
    const first = await queue.enqueue("sync", { shop: "a", payload: null }, { singletonKey: "shop-a" });
    expect(first).toEqual(expect.any(String));
    expect(await queue.enqueue("sync", { shop: "a", payload: null }, { singletonKey: "shop-a" })).toBeNull();
    expect(await queue.enqueue("sync", { shop: "b", payload: null }, { singletonKey: "shop-b" })).toEqual(expect.any(String));
    await queue.start();
    await waitFor(() => runs.includes(first!), "the first job to be active");
    expect(await queue.enqueue("sync", { shop: "a", payload: null }, { singletonKey: "shop-a" })).toBeNull();
    release();
    await waitFor(() => runs.length === 2, "both jobs");
    let again: string | null = null;
    // The first job settles just after its handler returns: retry the enqueue until it is accepted.
    for (let i = 0; i < 500 && again === null; i++) {
      again = await queue.enqueue("sync", { shop: "a", payload: null }, { singletonKey: "shop-a" });
      if (again === null) await sleep(10);
    }
    expect(again).toEqual(expect.any(String));
  });

  it("runs a delayed job only after its delay, while others run at once", async () => {
    const queue = await adapter.makeQueue();
    const order: string[] = [];
    await queue.work("later", async (job) => void order.push(job.payload as string));
    await queue.start();
    await queue.enqueue("later", { shop: "a", payload: "delayed" }, { delayMs: 1500 });
    await queue.enqueue("later", { shop: "a", payload: "now" });
    await waitFor(() => order.length === 2, "both jobs");
    expect(order).toEqual(["now", "delayed"]);
  });

  it("gives a crashed worker's job to another worker once its lease expired", async () => {
    const crashed = await adapter.makeQueue({ leaseMs: 1000 });
    const attemptsSeen: number[] = [];
    await crashed.work("stuck", async (job) => {
      attemptsSeen.push(job.attempt);
      await new Promise(() => undefined); // never finishes, like a process killed mid-job
    });
    await crashed.start();
    await crashed.enqueue("stuck", { shop: "a", payload: null }, { retryLimit: 2 });
    await waitFor(() => attemptsSeen.length === 1, "the first worker to take the job");
    await crashed.stop({ graceMs: 0 }); // heartbeats stop; the lease is left to expire

    const survivor = await adapter.makeQueue({ leaseMs: 1000 });
    const taken: number[] = [];
    await survivor.work("stuck", async (job) => void taken.push(job.attempt));
    await survivor.start();
    await waitFor(() => taken.length === 1, "the job to be taken again");
    expect(taken).toEqual([2]);
  });

  it("never runs one job twice with two queue instances sharing the work", async () => {
    const runs = new Map<string, number>();
    const a = await adapter.makeQueue();
    const b = await adapter.makeQueue();
    const handler = async (job: JobContext) => {
      runs.set(job.payload as string, (runs.get(job.payload as string) ?? 0) + 1);
      await sleep(1);
    };
    await a.work("many", handler, { concurrency: 4 });
    await b.work("many", handler, { concurrency: 4 });
    for (let i = 0; i < 200; i++) await a.enqueue("many", { shop: "a", payload: `job-${i}` });
    await Promise.all([a.start(), b.start()]);
    await waitFor(() => runs.size === 200, "all 200 jobs", 60_000);
    await sleep(300);
    expect([...runs.values()].filter((count) => count !== 1)).toEqual([]);
    expect(runs.size).toBe(200);
  });

  it("runs a recurring job once per interval across two instances", async () => {
    let clock = Date.UTC(2026, 10, 26); // a real clock: milliseconds since 1970 do not fit a 32-bit integer
    const now = () => clock;
    const runs: number[] = [];
    const queues = [await adapter.makeQueue({ now }), await adapter.makeQueue({ now })];
    for (const queue of queues) {
      await queue.work("reconcile", async () => void runs.push(clock));
      await queue.recurring("reconcile", { everyMs: 60_000 });
      await queue.start();
    }
    // A tick that falls due while the previous run is still live is skipped (the next test), so the clock moves only
    // once the run has settled, not as soon as its handler has returned.
    const settled = async () => (await queues[0]!.livePayloads("reconcile", "*")).length === 0;
    await waitFor(() => runs.length === 1, "the first run");
    for (let tick = 1; tick <= 4; tick++) {
      await waitFor(settled, `run ${tick} to settle`);
      clock += 60_000;
      await waitFor(() => runs.length === tick + 1, `run ${tick + 1}`);
    }
    await sleep(400); // many polls by both instances at the same (fake) time
    expect(runs).toHaveLength(5);
  });

  it("skips a recurring tick that falls due while the previous run is still running", async () => {
    let clock = Date.UTC(2026, 10, 26);
    const now = () => clock;
    const runs: number[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // A lease longer than the clock's jump: otherwise the held run's lease would look expired and be taken again.
    const queue = await adapter.makeQueue({ now, leaseMs: 10 * 60_000 });
    await queue.work("reconcile", async () => {
      runs.push(clock);
      if (runs.length === 1) await held;
    });
    await queue.recurring("reconcile", { everyMs: 60_000 });
    await queue.start();
    await waitFor(() => runs.length === 1, "the first run");
    clock += 60_000; // due while the first run holds
    await sleep(400);
    release();
    await waitFor(async () => (await queue.livePayloads("reconcile", "*")).length === 0, "the first run to settle");
    await sleep(400);
    expect(runs).toEqual([Date.UTC(2026, 10, 26)]);
    clock += 60_000; // the next interval runs as usual
    await waitFor(() => runs.length === 2, "the next interval's run");
    expect(runs[1]).toBe(clock);
  });

  it("stop() takes no new job and waits for the running handler", async () => {
    const queue = await adapter.makeQueue();
    let started = false;
    let finished = false;
    const later: string[] = [];
    await queue.work("slow", async (job) => {
      if (job.payload === "second") return void later.push("second");
      started = true;
      await sleep(300);
      finished = true;
    });
    await queue.start();
    await queue.enqueue("slow", { shop: "a", payload: "first" });
    await waitFor(() => started, "the handler to start");
    await queue.stop({ graceMs: 10_000 });
    expect(finished).toBe(true);
    const producer = await adapter.makeQueue(); // another process keeps enqueueing; the stopped one takes nothing
    await producer.enqueue("slow", { shop: "a", payload: "second" });
    await sleep(300);
    expect(later).toEqual([]);
  });

  it("lists the payloads of a shop's jobs still to run, by name: queued, delayed, running; not finished ones", async () => {
    const queue = await adapter.makeQueue();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const started: unknown[] = [];
    await queue.work("item", async (job) => {
      started.push(job.payload);
      if (job.payload === "running") await held;
    });
    await queue.start();
    await queue.enqueue("item", { shop: "a", payload: "done" });
    await waitFor(() => started.includes("done"), "the finished job");
    await queue.enqueue("item", { shop: "a", payload: "running" });
    await waitFor(() => started.includes("running"), "the running job");
    await queue.enqueue("item", { shop: "a", payload: { later: 1 } }, { delayMs: 60_000 });
    await queue.enqueue("item", { shop: "b", payload: "other shop" }, { delayMs: 60_000 });
    await queue.enqueue("other-name", { shop: "a", payload: "other name" }, { delayMs: 60_000 });
    await sleep(100);
    expect((await queue.livePayloads("item", "a")).map((payload) => JSON.stringify(payload)).sort()).toEqual(['"running"', '{"later":1}']);
    expect(await queue.livePayloads("item", "b")).toEqual(["other shop"]);
    release();
  });

  it("forgets a shop: every job of it is deleted, whatever its state, and no other shop's", async () => {
    const queue = await adapter.makeQueue();
    const ran: unknown[] = [];
    await queue.work("item", async (job) => void ran.push(job.payload));
    await queue.start();
    await queue.enqueue("item", { shop: "a", payload: "done" });
    await waitFor(() => ran.length === 1, "the finished job");
    await queue.enqueue("item", { shop: "a", payload: "later" }, { delayMs: 60_000 });
    await queue.enqueue("item", { shop: "b", payload: "kept" }, { delayMs: 60_000 });
    expect(await queue.forgetShop("a")).toBeGreaterThanOrEqual(2);
    expect(await queue.livePayloads("item", "a")).toEqual([]);
    expect(await queue.livePayloads("item", "b")).toEqual(["kept"]);
    expect(await queue.forgetShop("a")).toBe(0);
  });
});
