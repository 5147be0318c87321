/** The figures /metrics reads from the database at each scrape (exact across restarts and app instances). */
import { databaseKind } from "../db-url";
import type { PrismaClient } from "../generated/prisma/client";
import { sql } from "../jobs/sql.server";
import type { MetricsSource } from "./metrics.server";

/** Counts read at scrape time. The job figures are the embedded queue's (SQLite); pg-boss keeps its own tables. */
export function databaseMetricsSource(database: Pick<PrismaClient, "purchaseAttempt" | "$queryRaw">, url: string): MetricsSource {
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

