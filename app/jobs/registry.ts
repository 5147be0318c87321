/**
 * Handlers are declared one per file in app/jobs/handlers/<name>.job.ts with defineJob, listed in
 * app/jobs/handlers/index.ts, and registered on a queue with registerJobs. The payload is checked with the job's
 * zod schema before the handler runs; a payload that does not match can never succeed, so it is terminal.
 */
import type { z } from "zod";
import { TerminalJobError } from "./errors";
import type { JobContext, JobQueue, JsonValue } from "./types";

export type JobDefinition<S extends z.ZodType = z.ZodType> = {
  name: string;
  payload: S;
  concurrency?: number;
  /** Retry limit used by `enqueueJob` when the caller gives none. */
  retryLimit?: number;
  handle(job: Omit<JobContext, "payload"> & { payload: z.infer<S> }): Promise<void>;
};

export function defineJob<S extends z.ZodType>(definition: JobDefinition<S>): JobDefinition<S> {
  return definition;
}

export async function registerJobs(queue: JobQueue, definitions: readonly JobDefinition[]): Promise<void> {
  const names = new Set<string>();
  for (const definition of definitions) {
    if (names.has(definition.name)) throw new Error(`Two job definitions are named "${definition.name}"`);
    names.add(definition.name);
    await queue.work(
      definition.name,
      async (job) => {
        const parsed = definition.payload.safeParse(job.payload);
        if (!parsed.success) throw new TerminalJobError(`Job "${definition.name}" ${job.id}: payload does not match its schema`);
        await definition.handle({ ...job, payload: parsed.data });
      },
      { concurrency: definition.concurrency ?? 1 },
    );
  }
}

/** Enqueues with the definition's payload type checked at compile time and its default retry limit. */
export function enqueueJob<S extends z.ZodType>(
  queue: JobQueue,
  definition: JobDefinition<S>,
  data: { shop: string; payload: z.input<S> & JsonValue },
  options: Parameters<JobQueue["enqueue"]>[2] = {},
): Promise<string | null> {
  return queue.enqueue(definition.name, data, { retryLimit: definition.retryLimit, ...options });
}
