/**
 * The recurring ticks' claimer (decision 0214), on SQLite and PostgreSQL: one winner per interval across instances,
 * and no statement at all while the next tick is known not to be due.
 */
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createPrismaClient } from "../db.server";
import { createTestDatabaseUrl } from "../../test/helpers/test-db";
import { createPostgresTestDatabase } from "../../test/helpers/test-postgres";
import { createTickClaimer, ensureSchedule } from "./schedule.server";
import { sql, sqlRunner, type SqlRunner } from "./sql.server";

type Fixture = { runner(): SqlRunner; close(): Promise<void> };

async function sqlite(): Promise<Fixture> {
  const { url, cleanup } = createTestDatabaseUrl();
  const clients: ReturnType<typeof createPrismaClient>[] = [];
  return {
    runner() {
      const client = createPrismaClient(url);
      clients.push(client);
      return sqlRunner(client, "sqlite");
    },
    async close() {
      for (const client of clients) await client.$disconnect();
      cleanup();
    },
  };
}

async function postgres(): Promise<Fixture> {
  const { url, drop } = await createPostgresTestDatabase();
  const pools: pg.Pool[] = [];
  return {
    runner() {
      const pool = new pg.Pool({ connectionString: url, max: 2 });
      pool.on("error", () => undefined);
      pools.push(pool);
      return sqlRunner(pool, "postgresql");
    },
    async close() {
      for (const pool of pools) await pool.end();
      await drop();
    },
  };
}

/** The runner, counting the statements run through it. */
function counted(runner: SqlRunner): SqlRunner & { statements: number } {
  const wrapped = {
    dialect: runner.dialect,
    statements: 0,
    query: <T>(statement: Parameters<SqlRunner["query"]>[0]) => ((wrapped.statements += 1), runner.query<T>(statement)),
    execute: (statement: Parameters<SqlRunner["execute"]>[0]) => ((wrapped.statements += 1), runner.execute(statement)),
  };
  return wrapped;
}

const T0 = Date.UTC(2026, 10, 27, 9);
const EVERY = 60_000;

describe.each([
  ["SQLite", sqlite],
  ["PostgreSQL", postgres],
] as const)("recurring ticks on %s", (_label, make) => {
  let fixture: Fixture;
  afterEach(async () => fixture?.close());

  it("wins each interval once across two instances, and runs no statement before the next tick is due", async () => {
    fixture = await make();
    const a = counted(fixture.runner());
    const b = counted(fixture.runner());
    await ensureSchedule(a, "reconcile", EVERY, T0);
    const claimA = createTickClaimer(a);
    const claimB = createTickClaimer(b);
    a.statements = 0;

    expect(await claimA("reconcile", T0, EVERY)).toBe(true);
    expect(a.statements).toBe(1); // the UPDATE, which returned the next time
    // B loses the same tick: its UPDATE matches nothing, then it reads the stored next time once.
    expect(await claimB("reconcile", T0 + 10, EVERY)).toBe(false);
    expect(b.statements).toBe(2);

    // Until the next tick is due, neither instance asks the database.
    for (const at of [T0 + 1, T0 + 30_000, T0 + EVERY - 1]) {
      expect(await claimA("reconcile", at, EVERY)).toBe(false);
      expect(await claimB("reconcile", at, EVERY)).toBe(false);
    }
    expect([a.statements, b.statements]).toEqual([1, 2]);

    // Due: B wins it this time; A, which still holds the old next time, asks, loses and learns the new one.
    expect(await claimB("reconcile", T0 + EVERY, EVERY)).toBe(true);
    expect(await claimA("reconcile", T0 + EVERY + 5, EVERY)).toBe(false);
    expect(await claimA("reconcile", T0 + 2 * EVERY - 1, EVERY)).toBe(false);
    expect([a.statements, b.statements]).toEqual([3, 3]);
    expect(await claimA("reconcile", T0 + 2 * EVERY, EVERY)).toBe(true);
  });

  it("asks again when the kept time is more than an interval ahead (the stored one was lowered by hand)", async () => {
    fixture = await make();
    const a = counted(fixture.runner());
    await ensureSchedule(a, "reconcile", EVERY, T0);
    const claim = createTickClaimer(a);
    expect(await claim("reconcile", T0, EVERY)).toBe(true);
    // An operator forces a run; the instance, whose interval is now a second, no longer trusts the minute it kept.
    await a.execute(sql`UPDATE "JobSchedule" SET "nextRunMs" = ${BigInt(T0 + 5)}, "intervalMs" = 1000 WHERE "name" = 'reconcile'`);
    expect(await claim("reconcile", T0 + 5, 1000)).toBe(true);
  });

  it("keeps asking while no schedule row exists, and claims once one is written", async () => {
    fixture = await make();
    const a = counted(fixture.runner());
    const claim = createTickClaimer(a);
    expect(await claim("later", T0, EVERY)).toBe(false);
    expect(await claim("later", T0 + 1, EVERY)).toBe(false);
    expect(a.statements).toBe(4);
    await ensureSchedule(a, "later", EVERY, T0 + 1);
    expect(await claim("later", T0 + 1, EVERY)).toBe(true);
  });
});
