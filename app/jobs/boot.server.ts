/**
 * Starts this process's job queue with the app's real clients. Called from entry.server.tsx at module load, which
 * happens at process start: server.mjs (or remix-serve) imports the server build before listening, and in dev the
 * Vite plugin dev/start-server-build.ts loads it as soon as the dev server listens.
 *
 * One queue per process: a dev-server reload (new code) stops the running queue, then starts a new one. SIGTERM and
 * SIGINT stop it with a bounded grace (running handlers get STOP_GRACE_MS, then are left to their lease), then the
 * database client is closed; the process then ends as it would have (the server closed), and at the latest
 * EXIT_AFTER_STOP_MS later: exit code 0 after SIGTERM (a requested stop), 130 after SIGINT.
 * `jobsState()` tells /readyz whether this process's queue is running.
 */
import { reconcileTimings } from "../config.server";
import db from "../db.server";
import { DEFAULT_DATABASE_URL } from "../db-url";
import { bulkRunDeps } from "../bulk/boot.server";
import { reconcilerDeps } from "../labels/reconcile-boot.server";
import { startJobQueue } from "./start.server";
import { errorFields, moduleLogger } from "../observability/logger.server";
import type { JobsState } from "../observability/readiness.server";
import type { JobQueue } from "./types";

export const STOP_GRACE_MS = 25_000;
const EXIT_AFTER_STOP_MS = 2_000;

export interface RunningJobs {
  /** Resolves once this queue has started (after the one it replaced stopped). */
  ready: Promise<JobQueue | undefined>;
  reconcileIntervalMs: number;
  state(): JobsState;
  stop(graceMs?: number): Promise<void>;
}

declare global {
  // One queue per process, also across Vite dev-server module reloads (a reloaded module replaces it).
  var __etiquetteJobs: RunningJobs | undefined;
  var __etiquetteJobsSignals: boolean | undefined;
}

export function bootJobs(): RunningJobs {
  const previous = globalThis.__etiquetteJobs;
  const reconcileIntervalMs = reconcileTimings().intervalMs;
  const log = moduleLogger("jobs");
  let stopped = false;
  let state: JobsState = "starting";
  const ready = (previous?.stop(STOP_GRACE_MS) ?? Promise.resolve())
    .then(async () => {
      if (stopped) return undefined;
      const databaseUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
      const queue = await startJobQueue({
        databaseUrl,
        prisma: db,
        reconcileIntervalMs,
        reconciler: reconcilerDeps(),
        bulk: bulkRunDeps(databaseUrl),
        onError: (error) => log.error(errorFields(error), "job queue error"),
      });
      if (!stopped) state = "running";
      log.info({ queue: queue.kind }, "job queue started");
      return queue;
    })
    .catch((error: unknown) => {
      state = "failed";
      log.error(errorFields(error), "the job queue did not start");
      return undefined;
    });
  const running: RunningJobs = {
    ready,
    reconcileIntervalMs,
    state: () => state,
    async stop(graceMs = STOP_GRACE_MS) {
      stopped = true;
      if (state !== "failed") state = "stopping";
      if (globalThis.__etiquetteJobs === running) globalThis.__etiquetteJobs = undefined;
      await (await ready)?.stop({ graceMs });
      if (state !== "failed") state = "stopped";
    },
  };
  globalThis.__etiquetteJobs = running;
  stopOnSignals();
  return running;
}

/** The state of this process's queue, for /readyz ("stopped" when none was booted). */
export function jobsState(): JobsState {
  return globalThis.__etiquetteJobs?.state() ?? "stopped";
}

/** Stops the queue: no new job; running ones get `graceMs`, then are left to their lease. */
export async function stopJobs(graceMs = STOP_GRACE_MS): Promise<void> {
  const log = moduleLogger("shutdown");
  const started = Date.now();
  try {
    await (globalThis.__etiquetteJobs?.stop(graceMs) ?? Promise.resolve());
    log.info({ durationMs: Date.now() - started }, "job queue stopped");
  } catch (error) {
    log.error(errorFields(error), "job queue did not stop cleanly");
  }
}

export async function closeDatabase(): Promise<void> {
  const log = moduleLogger("shutdown");
  try {
    await db.$disconnect();
    log.info("database closed");
  } catch (error) {
    log.error(errorFields(error), "database did not close cleanly");
  }
}

/** Stops the queue (bounded grace), then closes the database client. The signal handlers call it. */
export async function shutdownJobsAndDatabase(graceMs = STOP_GRACE_MS): Promise<void> {
  await stopJobs(graceMs);
  await closeDatabase();
}

/**
 * Without a server that handles the signals itself (server.mjs sets __etiquetteJobsSignals before loading the build,
 * and calls stopJobs/closeDatabase once its in-flight requests are answered), this process stops on its own.
 */
function stopOnSignals(): void {
  if (globalThis.__etiquetteJobsSignals) return;
  globalThis.__etiquetteJobsSignals = true;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      moduleLogger("shutdown").info({ signal }, "stopping: no new jobs, running ones get the grace period");
      void shutdownJobsAndDatabase(STOP_GRACE_MS).finally(() => {
        // Listening to the signal removed its default exit: leave the process a moment to end on its own
        // (the server finishes its in-flight requests), then end it. SIGTERM is a requested stop: exit 0.
        process.exitCode = signal === "SIGINT" ? 130 : 0;
        setTimeout(() => process.exit(), EXIT_AFTER_STOP_MS).unref();
      });
    });
  }
}
