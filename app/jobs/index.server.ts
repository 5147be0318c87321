/**
 * The job queue's entry point. `DATABASE_URL` alone picks the adapter: `file:` -> embedded (a table in the app's
 * SQLite database), `postgresql://` -> pg-boss (several instances share the work). No other switch.
 */
import type { PrismaClient } from "../generated/prisma/client";
import { databaseKind } from "../db-url";
import { createEmbeddedQueue } from "./embedded-queue.server";
import { createPgBossQueue } from "./pgboss-queue.server";
import type { JobQueue } from "./types";

export type JobQueueConfig = {
  databaseUrl: string;
  /** The app's Prisma client (the embedded adapter stores its jobs through it). */
  prisma: PrismaClient;
  pollMs?: number;
  leaseMs?: number;
  onError?: (error: unknown) => void;
};

/** How long a claimed job is held without a heartbeat before another worker may take it (both adapters' default). */
export const QUEUE_LEASE_MS = 60_000;

export function createJobQueue(config: JobQueueConfig): JobQueue {
  const { databaseUrl, prisma, ...tuning } = config;
  if (databaseKind(databaseUrl) === "postgresql") return createPgBossQueue({ databaseUrl, ...tuning });
  return createEmbeddedQueue({ db: prisma, dialect: "sqlite", ...tuning });
}

export { RetryableJobError, TerminalJobError } from "./errors";
export { defineJob, enqueueJob, registerJobs, type JobDefinition } from "./registry";
export { createSemaphore, type Semaphore, type SemaphoreLease } from "./semaphore.server";
export type { EnqueueOptions, JobContext, JobData, JobHandler, JobQueue, JobTransaction, JsonValue } from "./types";
