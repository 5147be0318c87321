/**
 * Starts this process's job queue with the app's real clients. Called from entry.server.tsx at module load, which
 * happens at process start: `remix-serve` imports the server build before listening, and in dev the Vite plugin
 * dev/start-server-build.ts loads it as soon as the dev server listens.
 *
 * One queue per process: a dev-server reload (new code) stops the running queue, then starts a new one. SIGTERM and
 * SIGINT stop it with a bounded grace (running handlers get STOP_GRACE_MS, then are left to their lease); the
 * process then ends as it would have (remix-serve closes its server), and at the latest EXIT_AFTER_STOP_MS later.
 */
import { reconcileTimings } from "../config.server";
import db from "../db.server";
import { DEFAULT_DATABASE_URL } from "../db-url";
import { bulkRunDeps } from "../bulk/boot.server";
import { reconcilerDeps } from "../labels/reconcile-boot.server";
import { startJobQueue } from "./start.server";
import type { JobQueue } from "./types";

export const STOP_GRACE_MS = 25_000;
const EXIT_AFTER_STOP_MS = 2_000;

export interface RunningJobs {
  /** Resolves once this queue has started (after the one it replaced stopped). */
  ready: Promise<JobQueue | undefined>;
  reconcileIntervalMs: number;
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
  const log = (message: string) => console.warn(`[jobs] ${message}`);
  let stopped = false;
  const ready = (previous?.stop(STOP_GRACE_MS) ?? Promise.resolve())
    .then(async () => {
      if (stopped) return undefined;
      const databaseUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
      return startJobQueue({
        databaseUrl,
        prisma: db,
        reconcileIntervalMs,
        reconciler: reconcilerDeps(),
        bulk: bulkRunDeps(databaseUrl),
        onError: (error) => log(`queue error: ${error instanceof Error ? error.message : String(error)}`),
      });
    })
    .catch((error: unknown) => {
      log(`the job queue did not start: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    });
  const running: RunningJobs = {
    ready,
    reconcileIntervalMs,
    async stop(graceMs = STOP_GRACE_MS) {
      stopped = true;
      if (globalThis.__etiquetteJobs === running) globalThis.__etiquetteJobs = undefined;
      await (await ready)?.stop({ graceMs });
    },
  };
  globalThis.__etiquetteJobs = running;
  stopOnSignals();
  return running;
}

function stopOnSignals(): void {
  if (globalThis.__etiquetteJobsSignals) return;
  globalThis.__etiquetteJobsSignals = true;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      void (globalThis.__etiquetteJobs?.stop(STOP_GRACE_MS) ?? Promise.resolve()).finally(() => {
        // Listening to the signal removed its default exit: leave the process a moment to end on its own.
        setTimeout(() => process.exit(signal === "SIGINT" ? 130 : 143), EXIT_AFTER_STOP_MS).unref();
      });
    });
  }
}
