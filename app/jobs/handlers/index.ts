/**
 * Every job the app runs, one definition per file (`<name>.job.ts`, made with defineJob from ../registry).
 * The next session adds here: the recurring reconciler and the bulk-label item job.
 */
import type { JobDefinition } from "../registry";

export const JOBS: readonly JobDefinition[] = [];
