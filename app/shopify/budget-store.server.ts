/**
 * Each shop's Shopify budget shared by every worker and app instance through the database: one `ShopifyBucket` row
 * per shop. A reservation is one `INSERT … ON CONFLICT DO UPDATE … RETURNING` (atomic on SQLite and PostgreSQL):
 * it restores points for the time elapsed, takes the call's cost (a debt when the points are not there yet, so later
 * callers queue behind it) and answers how long to wait. Settling gives back what the answer shows was not spent and
 * corrects the expectation from Shopify's `throttleStatus`. Same rules as `InProcessShopifyBudget` (budget.ts).
 */
import { ASSUMED_BUCKET, refundOf, type Reservation, type ShopifyBudget, type ThrottleStatus } from "./budget";
import { rawSql, sql, sqlRunner, type Dialect, type SqlTarget } from "../jobs/sql.server";

export type DatabaseBudgetConfig = {
  db: SqlTarget;
  dialect: Dialect;
  now?: () => number;
  /** What a shop is assumed to have before its first answer (default: Shopify's Standard plan). */
  assumed?: ThrottleStatus;
  /**
   * Points reserved by calls that never settle (their process died) are forgotten this long after the last
   * reservation's bound. Default 2 minutes.
   */
  pendingGraceMs?: number;
};

type Row = { available: number | string; restoreRate: number | string; settles?: number | string | bigint };

export function createDatabaseShopifyBudget(config: DatabaseBudgetConfig): ShopifyBudget & { expectedAvailable(shop: string): Promise<number> } {
  const db = sqlRunner(config.db, config.dialect);
  const now = config.now ?? Date.now;
  const assumed = config.assumed ?? ASSUMED_BUCKET;
  const grace = config.pendingGraceMs ?? 120_000;
  const least = rawSql(config.dialect === "postgresql" ? "LEAST" : "MIN");
  const greatest = rawSql(config.dialect === "postgresql" ? "GREATEST" : "MAX");
  const double = rawSql("DOUBLE PRECISION");

  const livePending = (at: number) => sql`(CASE WHEN "ShopifyBucket"."pendingUntilMs" < ${BigInt(at)} THEN 0 ELSE "ShopifyBucket"."pending" END)`;
  /**
   * The row's points restored up to `at`, never back in time, and never above the bucket less what calls in flight
   * still hold: Shopify's bucket stops filling at its maximum *before* those calls arrive and are charged.
   */
  const restored = (at: number) =>
    sql`${least}("ShopifyBucket"."maximum" - ${livePending(at)}, "ShopifyBucket"."available" + CAST(${greatest}(0, ${BigInt(at)} - "ShopifyBucket"."atMs") AS ${double}) * "ShopifyBucket"."restoreRate" / 1000.0)`;

  const waitFor = (available: number, restoreRate: number) => (available >= 0 ? 0 : Math.ceil((-available / restoreRate) * 1000));

  async function expectedAvailable(shop: string): Promise<number> {
    const at = now();
    const rows = await db.query<Row>(sql`SELECT ${restored(at)} AS "available", "restoreRate" FROM "ShopifyBucket" WHERE "shop" = ${shop}`);
    return rows[0] ? Number(rows[0].available) : assumed.currentlyAvailable;
  }

  return {
    expectedAvailable,

    async reserve(shop: string, cost: number, maxWaitMs: number): Promise<Reservation> {
      const at = now();
      const holdUntil = BigInt(at + Math.max(0, maxWaitMs) + grace);
      const rows = await db.query<Row>(sql`INSERT INTO "ShopifyBucket"
          ("shop", "available", "maximum", "restoreRate", "atMs", "pending", "pendingUntilMs", "observedAtMs")
        VALUES (${shop}, ${assumed.currentlyAvailable - cost}, ${assumed.maximumAvailable}, ${assumed.restoreRate}, ${BigInt(at)}, ${cost}, ${holdUntil}, 0)
        ON CONFLICT ("shop") DO UPDATE SET
          "available" = ${restored(at)} - ${cost},
          "pending" = ${livePending(at)} + ${cost},
          "pendingUntilMs" = ${greatest}("ShopifyBucket"."pendingUntilMs", ${holdUntil}),
          "atMs" = ${greatest}("ShopifyBucket"."atMs", ${BigInt(at)})
        WHERE (${cost} - ${restored(at)}) * 1000.0 <= ${Math.max(0, maxWaitMs)} * "ShopifyBucket"."restoreRate"
        RETURNING "available", "restoreRate", "settles"`);
      const row = rows[0];
      if (row) return { granted: true, waitMs: waitFor(Number(row.available), Number(row.restoreRate)), ticket: Number(row.settles ?? 0) };
      const current = await db.query<Row>(sql`SELECT ${restored(at)} AS "available", "restoreRate" FROM "ShopifyBucket" WHERE "shop" = ${shop}`);
      const available = Number(current[0]?.available ?? 0);
      return { granted: false, waitMs: waitFor(available - cost, Number(current[0]?.restoreRate ?? assumed.restoreRate)) };
    },

    async settle(shop: string, reserved: number, status: ThrottleStatus | undefined, spent?: number, ticket?: number): Promise<void> {
      const at = now();
      const refund = refundOf(reserved, spent);
      const pendingAfter = sql`${greatest}(0, ${livePending(at)} - ${reserved})`;
      const expected = sql`${least}("ShopifyBucket"."maximum" - ${pendingAfter}, ${restored(at)} + ${refund})`;
      if (!status) {
        await db.execute(sql`UPDATE "ShopifyBucket" SET "available" = ${expected}, "pending" = ${pendingAfter}, "settles" = "ShopifyBucket"."settles" + 1,
            "atMs" = ${greatest}("ShopifyBucket"."atMs", ${BigInt(at)})
          WHERE "shop" = ${shop}`);
        return;
      }
      const reported = sql`(${status.currentlyAvailable} - ${pendingAfter})`;
      // Upwards only when nothing else is in flight and no other answer came in since this call's reservation.
      const fresh = ticket === undefined ? sql`1 = 1` : sql`"ShopifyBucket"."settles" = ${ticket}`;
      await db.execute(sql`UPDATE "ShopifyBucket" SET
          "available" = CASE WHEN ${pendingAfter} = 0 AND ${fresh} THEN ${reported} ELSE ${least}(${expected}, ${reported}) END,
          "settles" = "ShopifyBucket"."settles" + 1,
          "pending" = ${pendingAfter},
          "maximum" = ${status.maximumAvailable},
          "restoreRate" = ${status.restoreRate},
          "atMs" = ${greatest}("ShopifyBucket"."atMs", ${BigInt(at)}),
          "observedAtMs" = ${BigInt(at)}
        WHERE "shop" = ${shop}`);
    },
  };
}
