/**
 * The in-process side shared by both adapters: polls a JobStore for each registered name up to its concurrency,
 * runs handlers with a lease kept alive by heartbeats, settles each outcome, and stops with a bounded grace.
 */
import { errorText, isTerminal, RetryableJobError } from "./errors";
import { backoffDelayMs, type JobHandler, type JsonValue } from "./types";

export type ClaimedJob = {
  id: string;
  name: string;
  shop: string;
  payload: JsonValue;
  attempt: number;
  maxAttempts: number;
  backoffMs: number;
  /** Adapter-specific fencing (the embedded claim token, pg-boss's nothing). */
  token: string;
};

export type Outcome =
  | { kind: "completed" }
  | { kind: "retry"; delayMs: number; error: string }
  | { kind: "failed"; error: string };

export interface JobStore {
  claim(name: string, limit: number, leaseMs: number): Promise<ClaimedJob[]>;
  /** False when the lease was lost (another instance took the job after it expired). */
  renew(job: ClaimedJob, leaseMs: number): Promise<boolean>;
  settle(job: ClaimedJob, outcome: Outcome): Promise<void>;
  /** Once per poll, before claiming: recurring ticks, sweeps. */
  tick(): Promise<void>;
  /**
   * Optional: of `names`, those a claim would find a job for now, in one read. A full poll asks it first and claims
   * only those names, so an idle process reads once per interval instead of writing once per name (decision 0216).
   * A name it leaves out by a race (a job enqueued just after) is claimed by the next poll, as from another instance.
   */
  due?(names: readonly string[]): Promise<ReadonlySet<string>>;
}

export type LoopOptions = { pollMs: number; leaseMs: number; onError: (error: unknown) => void };

type Registration = { handler: JobHandler; concurrency: number; running: number };
type Running = { promise: Promise<void>; controller: AbortController; heartbeat: ReturnType<typeof setInterval> };

export function outcomeOf(error: unknown, job: ClaimedJob): Outcome {
  const text = errorText(error);
  if (isTerminal(error) || job.attempt >= job.maxAttempts) return { kind: "failed", error: text };
  const retryAfter = error instanceof RetryableJobError ? error.retryAfterMs : undefined;
  return { kind: "retry", delayMs: retryAfter ?? backoffDelayMs(job.backoffMs, job.attempt), error: text };
}

export class WorkerLoop {
  private readonly registrations = new Map<string, Registration>();
  private readonly running = new Set<Running>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private started = false;
  private stopping = false;
  private polling: Promise<void> | undefined;
  /** What the next poll covers: "all" (the store's tick and every name), or only these names. */
  private pending: Set<string> | "all" | undefined;

  constructor(
    private readonly store: JobStore,
    private readonly options: LoopOptions,
  ) {}

  register(name: string, handler: JobHandler, concurrency: number): void {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`Job "${name}": concurrency must be >= 1`);
    if (this.registrations.has(name)) throw new Error(`Job "${name}" already has a handler`);
    this.registrations.set(name, { handler, concurrency, running: 0 });
    this.wake();
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.wake();
  }

  /**
   * Polls now instead of waiting for the next interval. With a name (a job of that name was enqueued here, or one of
   * its handlers finished), only that name is claimed: the store's tick (recurring runs, sweeps) and the other names
   * keep their interval, so a busy queue does not run them after every job (decision 0214). Without one, a full poll.
   * A wake during a poll is served right after it.
   */
  wake(name?: string): void {
    if (!this.started || this.stopping) return;
    if (name === undefined) this.pending = "all";
    else if (!this.registrations.has(name)) return; // another instance runs it
    else if (this.pending === undefined) this.pending = new Set([name]);
    else if (this.pending !== "all") this.pending.add(name);
    if (!this.polling) this.drain();
  }

  private drain(): void {
    const scope = this.pending;
    this.pending = undefined;
    if (!scope) return;
    // The interval's timer counts from the last full poll; polls of one name leave it running.
    if (scope === "all") clearTimeout(this.timer);
    this.polling = this.poll(scope).finally(() => {
      this.polling = undefined;
      if (this.stopping) return;
      if (scope === "all") this.timer = setTimeout(() => this.wake(), this.options.pollMs);
      this.drain();
    });
  }

  private async poll(scope: Set<string> | "all"): Promise<void> {
    try {
      if (scope === "all") await this.store.tick();
      const wanted = [...this.registrations].filter(([name, registration]) => (scope === "all" || scope.has(name)) && registration.running < registration.concurrency);
      // A wake names a job just enqueued or a name whose job just finished: claimed straight away. A full poll asks first.
      const due = scope === "all" && wanted.length > 0 ? await this.dueAmong(wanted.map(([name]) => name)) : undefined;
      for (const [name, registration] of wanted) {
        if (due && !due.has(name)) continue;
        if (this.stopping) break;
        // Only this poll starts jobs, so a name's free capacity can only have grown since `wanted` was read.
        const free = registration.concurrency - registration.running;
        const jobs = await this.store.claim(name, free, this.options.leaseMs);
        for (const job of jobs) this.run(job, registration);
      }
    } catch (error) {
      this.options.onError(error);
    }
  }

  /** The store's answer to `due`; undefined (claim every name, as without it) when it has none or its read failed. */
  private async dueAmong(names: readonly string[]): Promise<ReadonlySet<string> | undefined> {
    if (!this.store.due) return undefined;
    try {
      return await this.store.due(names);
    } catch (error) {
      this.options.onError(error);
      return undefined;
    }
  }

  private run(job: ClaimedJob, registration: Registration): void {
    registration.running += 1;
    const controller = new AbortController();
    const heartbeat = setInterval(() => {
      this.store.renew(job, this.options.leaseMs).then(
        (held) => held || controller.abort(new Error("lease lost")),
        (error: unknown) => this.options.onError(error),
      );
    }, Math.max(10, Math.floor(this.options.leaseMs / 3)));
    const entry = { controller, heartbeat } as Running;
    entry.promise = (async () => {
      let outcome: Outcome;
      try {
        const { id, name, shop, payload, attempt } = job;
        await registration.handler({ id, name, shop, payload, attempt, signal: controller.signal });
        outcome = { kind: "completed" };
      } catch (error) {
        outcome = outcomeOf(error, job);
      }
      clearInterval(heartbeat);
      try {
        await this.store.settle(job, outcome);
      } catch (error) {
        this.options.onError(error);
      }
    })().finally(() => {
      registration.running -= 1;
      this.running.delete(entry);
      this.wake(job.name);
    });
    this.running.add(entry);
  }

  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    await this.polling;
    const all = Promise.all([...this.running].map((entry) => entry.promise));
    let timeout: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([all, new Promise((resolve) => (timeout = setTimeout(resolve, graceMs)))]);
    clearTimeout(timeout);
    // Handlers still running after the grace: abort them and stop their heartbeats; their lease then expires and
    // another instance takes the job (the handler's own guarantees, e.g. labelOrder's slot, make that safe).
    for (const entry of this.running) {
      clearInterval(entry.heartbeat);
      entry.controller.abort(new Error("queue stopped"));
    }
  }
}
