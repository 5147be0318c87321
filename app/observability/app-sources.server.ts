/**
 * The app's real inputs to /readyz and /metrics: its Prisma client, the migrations shipped with it, and this
 * process's job queue. Routes call these; the modules they wrap take plain dependencies and are tested alone.
 */
import db from "../db.server";
import { databaseKind, DEFAULT_DATABASE_URL } from "../db-url";
import { jobsState } from "../jobs/boot.server";
import type { PrismaLike } from "../jobs/sql.server";
import { sql } from "../jobs/sql.server";
import type { MetricsSource } from "./metrics.server";
import { appMetrics } from "./metrics.server";
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

/** Counts read at scrape time. The job figures are the embedded queue's (SQLite); pg-boss keeps its own tables. */
export function databaseMetricsSource(database: PrismaLike & Pick<typeof db, "purchaseAttempt">, url: string): MetricsSource {
  return {
    async purchaseAttempts() {
      const groups = await database.purchaseAttempt.groupBy({ by: ["environment", "status"], _count: { _all: true } });
      return groups.map((group) => ({ environment: group.environment, status: group.status, count: group._count._all }));
    },
    async jobs() {
      if (databaseKind(url) !== "sqlite") return undefined;
      const states = await database.$queryRaw<{ state: string; count: number | bigint }[]>(
        sql`SELECT "state", COUNT(*) AS "count" FROM "Job" GROUP BY "state"`,
      );
      const oldest = await database.$queryRaw<{ at: number | bigint | null }[]>(
        sql`SELECT MIN("createdAtMs") AS "at" FROM "Job" WHERE "state" = 'queued'`,
      );
      const at = oldest[0]?.at;
      return {
        states: states.map((row) => ({ state: row.state, count: Number(row.count) })),
        oldestQueuedAtMs: at == null ? null : Number(at),
      };
    },
  };
}

/** The process's metrics, reading the app's database at scrape time. */
export function metricsWithAppSource() {
  const metrics = appMetrics();
  metrics.setSource(databaseMetricsSource(db, process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL));
  return metrics;
}
