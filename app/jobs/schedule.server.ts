/**
 * Recurring jobs, shared by both adapters: a JobSchedule row per name holds the next due time. Claiming a tick is
 * one conditional UPDATE, so among all instances exactly one wins each interval; the winner then enqueues the run
 * with a singleton key, so a run never starts while the previous one is queued or active.
 */
import { sql, type SqlRunner } from "./sql.server";

export const RECURRING_SINGLETON_KEY = "recurring";

export async function ensureSchedule(db: SqlRunner, name: string, everyMs: number, now: number): Promise<void> {
  await db.execute(sql`INSERT INTO "JobSchedule" ("name", "intervalMs", "nextRunMs") VALUES (${name}, ${everyMs}, ${BigInt(now)})
    ON CONFLICT ("name") DO UPDATE SET "intervalMs" = excluded."intervalMs"`);
}

/** True when this instance won the tick due at or before `now` (and moved the next one `intervalMs` ahead). */
export async function claimDueTick(db: SqlRunner, name: string, now: number): Promise<boolean> {
  // The cast types the parameter: PostgreSQL would take it as an integer from "intervalMs" and refuse a clock in ms.
  const rows = await db.query<{ name: string }>(sql`UPDATE "JobSchedule" SET "nextRunMs" = CAST(${BigInt(now)} AS BIGINT) + "intervalMs"
    WHERE "name" = ${name} AND "nextRunMs" <= ${BigInt(now)} RETURNING "name"`);
  return rows.length === 1;
}
