/**
 * The app's print dependencies: one label file cache per process, and the running job queue (if any).
 */
import type { JobQueue } from "../jobs/types";
import { moduleLogger } from "../observability/logger.server";
import { createLabelFiles, type LabelFiles } from "./label-files.server";

declare global {
  var __etiquetteLabelFiles: LabelFiles | undefined;
}

/** How often this process removes its expired cached label files (they hold recipients' addresses). */
const LABEL_FILE_SWEEP_MS = 60 * 60 * 1000;

export function appLabelFiles(): LabelFiles {
  if (!globalThis.__etiquetteLabelFiles) {
    const log = moduleLogger("print");
    const files = createLabelFiles({ onRemoveError: (file, error) => log.warn({ file, err: error }, "label file cache: a file could not be removed") });
    globalThis.__etiquetteLabelFiles = files;
    // Each instance keeps its own disk cache, so each sweeps its own: once now (entry.server.tsx calls this at process
    // start: files left by an earlier run), then every hour. The timer does not keep the process alive.
    const sweep = () => void files.sweep().catch((error: unknown) => log.warn({ err: error }, "label file cache sweep failed"));
    sweep();
    setInterval(sweep, LABEL_FILE_SWEEP_MS).unref();
  }
  return globalThis.__etiquetteLabelFiles;
}

/** The queue started by jobs/boot.server.ts, or null when none runs (then files are built during the request). */
export async function runningQueue(): Promise<JobQueue | null> {
  return (await globalThis.__etiquetteJobs?.ready) ?? null;
}
