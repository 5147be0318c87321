/**
 * The app's real inputs to /readyz and /metrics: its Prisma client, the migrations shipped with it, and this
 * process's job queue. Routes call these; the modules they wrap take plain dependencies and are tested alone.
 */
import db from "../db.server";
import { DEFAULT_DATABASE_URL } from "../db-url";
import { jobsState } from "../jobs/boot.server";
import { appMetrics } from "./metrics.server";
import { databaseMetricsSource } from "./metrics-source.server";
import { checkReadiness, migrationFolders, type Readiness } from "./readiness.server";

let expected: string[] | undefined;

export function appReadiness(): Promise<Readiness> {
  const url = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  return checkReadiness({
    db,
    expectedMigrations: () => (expected ??= migrationFolders(url)),
    jobsState,
  });
}

/** The process's metrics, reading the app's database at scrape time. */
export function metricsWithAppSource() {
  const metrics = appMetrics();
  metrics.setSource(databaseMetricsSource(db, process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL));
  return metrics;
}
