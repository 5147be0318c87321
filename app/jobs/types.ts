/**
 * The job queue's one interface. Two adapters implement it: the embedded one (a table in the app's own database,
 * the default) and pg-boss (PostgreSQL deployments with several instances). See docs/decisions/0100-job-queue.md.
 */
import { z } from "zod";
import type { PgLike, PrismaLike } from "./sql.server";

/** JSON only: no Date, undefined, Map, class instance, NaN or function survives a round trip through the queue. */
export const jobDataSchema = z.object({
  shop: z.string().min(1),
  payload: z.json(),
});

export type JsonValue = z.infer<ReturnType<typeof z.json>>;

export type JobData<P extends JsonValue = JsonValue> = { shop: string; payload: P };

/**
 * The transaction the enqueue joins, so it commits (or rolls back) with the rows it concerns: a Prisma
 * interactive-transaction client (`prisma.$transaction(async (tx) => ...)`), or a `pg` client inside BEGIN.
 */
export type JobTransaction = PrismaLike | PgLike;

export type EnqueueOptions = {
  /** Run no earlier than this many milliseconds from now. */
  delayMs?: number;
  /** While a job with the same name and key is queued or active, enqueue returns null instead of adding one. */
  singletonKey?: string;
  /** Retries after the first attempt (default 2). Unknown errors count like RetryableJobError. */
  retryLimit?: number;
  /** First retry delay; doubles each retry (default 1000 ms). */
  retryBackoffMs?: number;
  /** Enqueue inside this transaction (embedded: always; pg-boss: through its `db` option). */
  tx?: JobTransaction;
};

export type JobContext<P extends JsonValue = JsonValue> = {
  id: string;
  name: string;
  shop: string;
  payload: P;
  /** 1 on the first run. */
  attempt: number;
  /** Aborted when the queue stops and the grace period is over, or the lease was lost. */
  signal: AbortSignal;
};

export type JobHandler<P extends JsonValue = JsonValue> = (job: JobContext<P>) => Promise<void>;

export type WorkOptions = { concurrency?: number };

export type RecurringOptions = {
  everyMs: number;
  /** The shop recorded on each run (recurring jobs are usually app-wide). */
  shop?: string;
  payload?: JsonValue;
};

export type StopOptions = { graceMs?: number };

export interface JobQueue {
  readonly kind: "embedded" | "pg-boss";
  /** Returns the job id, or null when `singletonKey` matched a queued or active job. Throws on non-JSON data. */
  enqueue<P extends JsonValue>(name: string, data: JobData<P>, options?: EnqueueOptions): Promise<string | null>;
  /**
   * `enqueue` for each job, in order, with the same options (each its own singletonKey): ids, null where a key matched
   * a queued or active job (or an earlier one of the list). One round trip or a few, not one per job, where the
   * adapter allows (pg-boss; decision 0199).
   */
  enqueueMany<P extends JsonValue>(name: string, jobs: readonly { data: JobData<P>; singletonKey?: string }[], options?: Omit<EnqueueOptions, "singletonKey">): Promise<(string | null)[]>;
  /** Registers the handler for `name`; jobs run once `start()` was called. */
  work<P extends JsonValue>(name: string, handler: JobHandler<P>, options?: WorkOptions): Promise<void>;
  /** Enqueues `name` every `everyMs` across all instances together, never while a previous run is queued or active. */
  recurring(name: string, options: RecurringOptions): Promise<void>;
  /** The payloads of the shop's jobs of this name still to run: queued (also delayed, or waiting for a retry) or running. */
  livePayloads(name: string, shop: string): Promise<JsonValue[]>;
  /** Deletes every job of this shop, whatever its state (shop/redact: nothing of an erased shop stays). */
  forgetShop(shop: string): Promise<number>;
  start(): Promise<void>;
  /** Stops taking jobs and waits up to `graceMs` for running handlers; the ones still running are left to their lease. */
  stop(options?: StopOptions): Promise<void>;
}

export const DEFAULT_RETRY_LIMIT = 2;
export const DEFAULT_RETRY_BACKOFF_MS = 1000;

/** Checks name and data; throws a plain Error naming the job (a programming error, never merchant-facing). */
export function checkJob(name: string, data: unknown): JobData {
  if (!/^[a-zA-Z0-9_.-]{1,100}$/.test(name)) throw new Error(`Job name "${name}" must be 1-100 letters, digits, _ . -`);
  const parsed = jobDataSchema.safeParse(data);
  if (!parsed.success) throw new Error(`Job "${name}": data must be { shop, payload } with a JSON-only payload`);
  return parsed.data as JobData;
}

/** The retry limit an enqueue asks for (or the default), checked: a whole number, 0 or more. */
export function retryLimitOf(name: string, options: { retryLimit?: number }): number {
  const retryLimit = options.retryLimit ?? DEFAULT_RETRY_LIMIT;
  if (!Number.isInteger(retryLimit) || retryLimit < 0) throw new Error(`Job "${name}": retryLimit must be >= 0`);
  return retryLimit;
}

export function backoffDelayMs(baseMs: number, attempt: number): number {
  return baseMs * 2 ** Math.max(0, attempt - 1);
}
