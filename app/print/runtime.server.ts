/**
 * The app's print dependencies: one label file cache per process, and the running job queue (if any).
 */
import type { JobQueue } from "../jobs/types";
import { createLabelFiles, type LabelFiles } from "./label-files.server";

declare global {
  var __etiquetteLabelFiles: LabelFiles | undefined;
}

export function appLabelFiles(): LabelFiles {
  globalThis.__etiquetteLabelFiles ??= createLabelFiles();
  return globalThis.__etiquetteLabelFiles;
}

/** The queue started by jobs/boot.server.ts, or null when none runs (then files are built during the request). */
export async function runningQueue(): Promise<JobQueue | null> {
  return (await globalThis.__etiquetteJobs?.ready) ?? null;
}
