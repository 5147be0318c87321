/**
 * Recurring jobs, shared by both adapters: a JobSchedule row per name holds the next due time. Claiming a tick is
 * one conditional UPDATE, so among all instances exactly one wins each interval (a loser reads the stored time once,
 * see createTickClaimer); the winner then enqueues the run with a singleton key, so a run never starts while the
 * previous one is queued or active.
 */
import { sql, unsynced, type SqlRunner } from "./sql.server";

export const RECURRING_SINGLETON_KEY = "recurring";

export async function ensureSchedule(db: SqlRunner, name: string, everyMs: number, now: number): Promise<void> {
  await db.execute(sql`INSERT INTO "JobSchedule" ("name", "intervalMs", "nextRunMs") VALUES (${name}, ${everyMs}, ${BigInt(now)})
    ON CONFLICT ("name") DO UPDATE SET "intervalMs" = excluded."intervalMs"`);
}

/** Whether this instance won the tick of `name` (run every `everyMs`) due at or before `now`. */
export type TickClaimer = (name: string, now: number, everyMs: number) => Promise<boolean>;

/** A stored next time as the drivers return a BIGINT (libSQL a bigint or number, pg a string). */
type NextRow = { next: bigint | number | string };

/**
 * One instance's claimer of recurring ticks (decision 0214). A claim moves the stored next time to `now + interval`,
 * where `now` is at least the time it replaces, so the stored time only ever moves forward: a time read once is a
 * lower bound for good, and before it no tick can be due. The claimer keeps the time it last saw per name (the one
 * it set when it won, else the stored one, read once after a lost claim) and runs no statement before it; the queue
 * polls every half second, so without this each poll was one UPDATE per recurring name. A kept time more than one
 * interval ahead is not trusted (the row was lowered by hand, or written by an instance whose clock ran ahead): the
 * claimer asks the database, as it did before.
 */
export function createTickClaimer(db: SqlRunner): TickClaimer {
  const notBefore = new Map<string, number>();
  return async (name, now, everyMs) => {
    const kept = notBefore.get(name);
    if (kept !== undefined && now < kept && kept - now <= everyMs) return false;
    // The cast types the parameter: PostgreSQL would take it as an integer from "intervalMs" and refuse a clock in ms.
    const won = await db.query<NextRow>(sql`${unsynced}UPDATE "JobSchedule" SET "nextRunMs" = CAST(${BigInt(now)} AS BIGINT) + "intervalMs"
      WHERE "name" = ${name} AND "nextRunMs" <= ${BigInt(now)} RETURNING "nextRunMs" AS "next"`);
    const next = won[0] ?? (await db.query<NextRow>(sql`SELECT "nextRunMs" AS "next" FROM "JobSchedule" WHERE "name" = ${name}`))[0];
    if (next) notBefore.set(name, Number(next.next));
    else notBefore.delete(name);
    return won.length === 1;
  };
}
