/** The figures /metrics reads from the database at each scrape (exact across restarts and app instances). */
import { databaseKind } from "../db-url";
import type { PrismaClient } from "../generated/prisma/client";
import { sql } from "../jobs/sql.server";
import type { MetricsSource } from "./metrics.server";

/**
 * Counts read at scrape time. The job figures come from the queue the URL picks: the embedded queue's "Job" table on
 * SQLite, pg-boss's own job table on PostgreSQL (its created and retry states are "queued"; a job waiting for its
 * start_after is not yet queued).
 */
export function databaseMetricsSource(
  database: Pick<PrismaClient, "purchaseAttempt" | "$queryRaw">,
  url: string,
): MetricsSource {
  return {
    async purchaseAttempts() {
      const groups = await database.purchaseAttempt.groupBy({ by: ["environment", "status"], _count: { _all: true } });
      return groups.map((group) => ({
        environment: group.environment,
        status: group.status,
        count: group._count._all,
      }));
    },
    async jobs() {
      if (databaseKind(url) !== "sqlite") return pgBossJobs(database);
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

/** pg-boss 10's job table (schema "pgboss"); undefined before pg-boss created it (the queue has not started yet). */
async function pgBossJobs(database: Pick<PrismaClient, "$queryRaw">) {
  try {
    const states = await database.$queryRaw<{ state: string; count: number | bigint }[]>(
      sql`SELECT CASE WHEN "state" IN ('created', 'retry') THEN 'queued' ELSE "state"::text END AS "state", COUNT(*) AS "count"
          FROM pgboss.job WHERE LEFT("name", 2) <> '__' GROUP BY 1`,
    );
    const oldest = await database.$queryRaw<{ at: number | bigint | null }[]>(
      sql`SELECT (EXTRACT(EPOCH FROM MIN("created_on")) * 1000)::bigint AS "at"
          FROM pgboss.job WHERE "state" IN ('created', 'retry') AND "start_after" <= now() AND LEFT("name", 2) <> '__'`,
    );
    const at = oldest[0]?.at;
    return {
      states: states.map((row) => ({ state: row.state, count: Number(row.count) })),
      oldestQueuedAtMs: at == null ? null : Number(at),
    };
  } catch {
    return undefined;
  }
}
