/**
 * Each shop's Shopify budget shared by every worker and app instance through the database: one `ShopifyBucket` row
 * per shop (decision 0180). A process does not go to the row for every Admin call (decision 0193): it takes a
 * *lease* of points in one statement (about a second of its recent demand, bounded by what the row has plus a
 * quarter second of restore), hands them to its calls from memory, and writes what the answers taught (refunds,
 * Shopify's `throttleStatus`) in batches: with its next lease, or at most every `flushMs`. A lease left unused for
 * `idleMs` goes back to the row. A THROTTLED answer, or a status showing fewer points than the lease holds, gives the
 * lease back and corrects the row at once.
 *
 * The row: `available` is what Shopify's bucket is expected to hold at `atMs` beyond every point held by a process
 * (leases and calls in flight, `pending`, forgotten `pendingGraceMs` past the last statement's bound when no process
 * comes back for them). Each statement is one atomic `UPDATE … RETURNING` on both databases: restore for the elapsed
 * time, apply the batch, correct from the status, then grant the lease (`leased`, 0 when refused).
 */
import { ASSUMED_BUCKET, refundOf, type Reservation, type ShopifyBudget, type ThrottleStatus } from "./budget";
import { rawSql, sql, sqlRunner, unsynced, type Dialect, type SqlTarget } from "../jobs/sql.server";
import { moduleLogger } from "../observability/logger.server";

export type DatabaseBudgetConfig = {
  db: SqlTarget;
  dialect: Dialect;
  now?: () => number;
  /** What a shop is assumed to have before its first answer (default: Shopify's Standard plan). */
  assumed?: ThrottleStatus;
  /**
   * Points held by a process that never comes back for them (it died) are forgotten this long after the bound of
   * the last statement that held points. Default 2 minutes.
   */
  pendingGraceMs?: number;
  /** A lease is sized for this long at the recent demand, at most this long of restore (default 1000 ms). */
  leaseMs?: number;
  /** A lease may take points the row does not have yet, up to this long of restore (default 250 ms). */
  aheadMs?: number;
  /** What answers taught is written at most this long after the first of them (default 500 ms; 0: at once). */
  flushMs?: number;
  /** A lease no call has drawn on for this long goes back to the row (default 500 ms). */
  idleMs?: number;
};

export type DatabaseShopifyBudget = ShopifyBudget & {
  /** The shop's expected points now, once this process has written what it knows and given its lease back. */
  expectedAvailable(shop: string): Promise<number>;
  /** Writes every shop's batch and gives every lease back (tests, shutdown). */
  flush(): Promise<void>;
};

/** One answer's throttleStatus, when it came, and how many statements this process had run when its call reserved. */
type Observation = { available: number; at: number; restoreRate: number; maximum: number; epoch: number | undefined };

/** This process's share of one shop's budget. */
type Local = {
  /** Points of the current lease not handed to a call yet. */
  lease: number;
  /** Handed out of the current lease so far. */
  leaseUsed: number;
  /** The row's points just before the lease was granted (negative: a debt, the lease's points come with restore). */
  leaseBase: number;
  leaseAt: number;
  restoreRate: number;
  maximum: number;
  /** Points reserved by this process's calls not answered yet. */
  inFlight: number;
  /** To write: points leaving the row's `pending` (answered calls, leases given back). */
  release: number;
  /** To write: points given back to the row's `available` (refunds, leases given back). */
  give: number;
  observations: Observation[];
  /** The row's `settles` after this process's last statement, and how many statements it has run. */
  seen: number;
  epoch: number;
  recent: { at: number; cost: number }[];
  lastReserveAt: number;
  /** When this process's last statement for the shop ran: what it holds is kept alive before the grace runs out. */
  lastSyncAt: number;
  running?: Promise<unknown>;
  timer?: ReturnType<typeof setTimeout>;
  rowExists: boolean;
};

type Row = {
  available: number | string;
  restoreRate: number | string;
  maximum: number | string;
  settles: number | string | bigint;
  leased: number | string;
  atMs: number | string | bigint;
};

type LeaseRequest = { need: number; want: number; maxWaitMs: number };

export function createDatabaseShopifyBudget(config: DatabaseBudgetConfig): DatabaseShopifyBudget {
  const db = sqlRunner(config.db, config.dialect);
  const now = config.now ?? Date.now;
  const assumed = config.assumed ?? ASSUMED_BUCKET;
  const grace = config.pendingGraceMs ?? 120_000;
  const leaseMs = config.leaseMs ?? 1000;
  const aheadMs = config.aheadMs ?? 250;
  const flushMs = config.flushMs ?? 500;
  const idleMs = config.idleMs ?? 500;
  const least = rawSql(config.dialect === "postgresql" ? "LEAST" : "MIN");
  const greatest = rawSql(config.dialect === "postgresql" ? "GREATEST" : "MAX");
  const double = rawSql("DOUBLE PRECISION");
  const num = (value: number) => sql`CAST(${value} AS ${double})`;
  const shops = new Map<string, Local>();
  const log = moduleLogger("shopify");

  function local(shop: string): Local {
    let state = shops.get(shop);
    if (!state) {
      state = {
        lease: 0,
        leaseUsed: 0,
        leaseBase: 0,
        leaseAt: 0,
        restoreRate: assumed.restoreRate,
        maximum: assumed.maximumAvailable,
        inFlight: 0,
        release: 0,
        give: 0,
        observations: [],
        seen: -1,
        epoch: 0,
        recent: [],
        lastReserveAt: 0,
        lastSyncAt: 0,
        rowExists: false,
      };
      shops.set(shop, state);
    }
    return state;
  }

  const livePending = (at: number) => sql`(CASE WHEN "ShopifyBucket"."pendingUntilMs" < ${BigInt(at)} THEN 0 ELSE "ShopifyBucket"."pending" END)`;
  /**
   * The row's points restored up to `at`, never back in time, and never above the bucket less what processes hold:
   * Shopify's bucket stops filling at its maximum *before* those points are spent.
   */
  const restored = (at: number) =>
    sql`${least}("ShopifyBucket"."maximum" - ${livePending(at)}, "ShopifyBucket"."available" + CAST(${greatest}(0, ${BigInt(at)} - "ShopifyBucket"."atMs") AS ${double}) * "ShopifyBucket"."restoreRate" / 1000.0)`;

  /** Shopify's figure carried forward to `at` at its restore rate: the most the bucket can hold then. */
  const projected = (observation: Observation, at: number) =>
    Math.min(observation.maximum, observation.available + (Math.max(0, at - observation.at) * observation.restoreRate) / 1000);

  /**
   * One statement: applies the batch taken from `state`, corrects from the observations, grants `lease` when asked.
   * The batch is put back when the statement fails, so nothing learnt is lost.
   */
  async function sync(shop: string, state: Local, request?: LeaseRequest): Promise<{ row: Row | undefined; granted: number }> {
    if (!state.rowExists) {
      if (!request) {
        // The row is gone (the shop's data was erased) and nothing is asked: the batch is moot, and writing it would
        // bring the erased shop's row back.
        state.release = 0;
        state.give = 0;
        state.observations = [];
        return { row: undefined, granted: 0 };
      }
      await db.execute(sql`INSERT INTO "ShopifyBucket" ("shop", "available", "maximum", "restoreRate", "atMs")
        VALUES (${shop}, ${num(assumed.currentlyAvailable)}, ${num(assumed.maximumAvailable)}, ${num(assumed.restoreRate)}, ${BigInt(now())})
        ON CONFLICT ("shop") DO NOTHING`);
      state.rowExists = true;
    }
    const at = now();
    const returned = request ? state.lease : 0;
    const batch = { release: state.release + returned, give: state.give + returned, observations: state.observations, epoch: state.epoch };
    const saved = { lease: state.lease, release: state.release, give: state.give, observations: batch.observations };
    state.release = 0;
    state.give = 0;
    state.observations = [];
    if (request) state.lease = 0;

    const latest = batch.observations.at(-1);
    const maximum = latest ? num(latest.maximum) : sql`"ShopifyBucket"."maximum"`;
    const restoreRate = latest ? num(latest.restoreRate) : sql`"ShopifyBucket"."restoreRate"`;
    const pending = sql`${greatest}(0, ${livePending(at)} - ${num(batch.release)})`;
    const refunded = sql`${least}(${maximum} - ${pending}, ${restored(at)} + ${num(batch.give)})`;
    let corrected = refunded;
    if (latest) {
      const reported = Math.min(...batch.observations.map((observation) => projected(observation, at)));
      // Upwards only when no process holds anything, no other status was written since this process's last
      // statement, and every answer came to a call reserved after it (older answers predate charges seen since).
      // (A caller that passes no ticket does not track answers' order: its answers count as fresh.)
      const untracked = batch.observations.every((observation) => observation.epoch === undefined);
      const fresh = untracked
        ? sql`1 = 1`
        : batch.observations.every((observation) => observation.epoch === undefined || observation.epoch === batch.epoch)
          ? sql`"ShopifyBucket"."settles" = ${state.seen}`
          : sql`1 = 0`;
      corrected = sql`(CASE WHEN ${pending} <= 0 AND ${fresh} THEN ${num(reported)} ELSE ${least}(${refunded}, ${num(reported)} - ${pending}) END)`;
    }
    let grant = sql`0`;
    if (request) {
      const allowed = sql`(${num(request.need)} - ${corrected}) * 1000.0 <= ${num(Math.max(0, request.maxWaitMs))} * ${restoreRate}`;
      // Points ahead of the row come with restore, and Shopify restores only up to its maximum: what the others hold
      // stays in the bucket, so no lease goes past the maximum less what is held (the call's own need excepted).
      const take = sql`${greatest}(${num(request.need)}, ${least}(${num(request.want)}, ${corrected} + ${restoreRate} * ${num(aheadMs / 1000)}, ${maximum} - ${pending}))`;
      grant = sql`(CASE WHEN ${allowed} THEN ${take} ELSE 0 END)`;
    }
    const holdUntil = BigInt(at + grace + (request ? Math.max(0, request.maxWaitMs) : 0));
    const holds = request || state.inFlight > 0 || state.lease > 0;
    let rows: Row[];
    try {
      rows = await db.query<Row>(sql`${unsynced}UPDATE "ShopifyBucket" SET
          "available" = ${corrected} - ${grant},
          "pending" = ${pending} + ${grant},
          "leased" = ${grant},
          "maximum" = ${maximum},
          "restoreRate" = ${restoreRate},
          "settles" = "ShopifyBucket"."settles" + ${latest ? 1 : 0},
          "pendingUntilMs" = ${holds ? sql`${greatest}("ShopifyBucket"."pendingUntilMs", ${holdUntil})` : sql`"ShopifyBucket"."pendingUntilMs"`},
          "observedAtMs" = ${latest ? sql`${BigInt(at)}` : sql`"ShopifyBucket"."observedAtMs"`},
          "atMs" = ${greatest}("ShopifyBucket"."atMs", ${BigInt(at)})
        WHERE "shop" = ${shop}
        RETURNING "available", "restoreRate", "maximum", "settles", "leased", "atMs"`);
    } catch (error) {
      if (request) state.lease = saved.lease;
      state.release += saved.release;
      state.give += saved.give;
      state.observations = [...saved.observations, ...state.observations];
      throw error;
    }
    const row = rows[0];
    if (!row) {
      // The row is gone (deleted with the shop's data): the batch is moot; a lease is asked again on a new row.
      state.rowExists = false;
      return request ? sync(shop, state, request) : { row: undefined, granted: 0 };
    }
    state.seen = Number(row.settles);
    state.lastSyncAt = at;
    state.epoch = batch.epoch + 1;
    state.restoreRate = Number(row.restoreRate);
    state.maximum = Number(row.maximum);
    const granted = request ? Number(row.leased) : 0;
    if (granted > 0) {
      state.lease = granted;
      state.leaseUsed = 0;
      state.leaseBase = Number(row.available) + granted;
      // The row's figure is as of its `atMs`: later than this clock's reading when another process wrote first.
      state.leaseAt = Math.max(at, Number(row.atMs));
    }
    return { row, granted };
  }

  /** Runs `work` once no other statement of this shop is running in this process. */
  async function exclusive<T>(state: Local, work: () => Promise<T>): Promise<T> {
    while (state.running) await state.running.catch(() => undefined);
    const running = work();
    state.running = running;
    try {
      return await running;
    } finally {
      if (state.running === running) state.running = undefined;
    }
  }

  /** Writes the batch (and gives the lease back when `returnLease`), unless there is nothing to write. */
  async function flushShop(shop: string, state: Local, returnLease: boolean): Promise<void> {
    await exclusive(state, async () => {
      if (returnLease && state.lease > 0) {
        state.release += state.lease;
        state.give += state.lease;
        state.lease = 0;
      }
      // A call that outlasts half the grace keeps what this process holds (its lease, its calls' points) alive on the
      // row; otherwise the other processes would forget them and could overspend the bucket.
      const holding = state.lease > 0 || state.inFlight > 0;
      const keepAlive = holding && now() - state.lastSyncAt >= grace / 2;
      if (state.release === 0 && state.give === 0 && state.observations.length === 0 && !keepAlive) return;
      await sync(shop, state);
    });
  }

  function schedule(shop: string, state: Local): void {
    if (state.timer) return;
    const due = state.release > 0 || state.give > 0 || state.observations.length > 0 || state.lease > 0 || state.inFlight > 0;
    if (!due) return;
    state.timer = setTimeout(() => {
      state.timer = undefined;
      const idle = now() - state.lastReserveAt >= idleMs && state.inFlight === 0;
      flushShop(shop, state, idle)
        .catch((error: unknown) => log.warn({ err: error, shop }, "shopify budget: could not write to the database"))
        .finally(() => schedule(shop, state));
    }, flushMs > 0 ? flushMs : idleMs); // (answers written at once: the timer only gives an idle lease back)
    state.timer.unref?.();
  }

  /** Points of the lease that Shopify's bucket holds now (a lease taken ahead of restore fills as time passes). */
  function leasePresent(state: Local, at: number): number {
    const filled = state.leaseBase + ((at - state.leaseAt) * state.restoreRate) / 1000 - state.leaseUsed;
    return Math.max(0, Math.min(state.lease, filled));
  }

  return {
    async expectedAvailable(shop: string): Promise<number> {
      const state = local(shop);
      await flushShop(shop, state, true);
      const at = now();
      const rows = await db.query<{ available: number | string }>(sql`SELECT ${restored(at)} AS "available" FROM "ShopifyBucket" WHERE "shop" = ${shop}`);
      return rows[0] ? Number(rows[0].available) : assumed.currentlyAvailable;
    },

    async flush(): Promise<void> {
      for (const [shop, state] of shops) {
        if (state.timer) clearTimeout(state.timer);
        state.timer = undefined;
        await flushShop(shop, state, true);
      }
    },

    async reserve(shop: string, cost: number, maxWaitMs: number): Promise<Reservation> {
      const state = local(shop);
      for (;;) {
        const at = now();
        if (state.lease >= cost) {
          // The last of these points is there once the restore has covered what the lease took beyond the row.
          const readyAt = state.leaseAt + (Math.max(0, state.leaseUsed + cost - state.leaseBase) / state.restoreRate) * 1000;
          const waitMs = Math.max(0, Math.ceil(readyAt - at));
          if (waitMs > maxWaitMs) return { granted: false, waitMs };
          state.lease -= cost;
          state.leaseUsed += cost;
          state.inFlight += cost;
          state.lastReserveAt = at;
          state.recent.push({ at, cost });
          schedule(shop, state);
          return { granted: true, waitMs, ticket: state.epoch };
        }
        if (state.running) {
          await state.running.catch(() => undefined);
          continue;
        }
        state.recent = state.recent.filter((entry) => at - entry.at < leaseMs);
        const demand = state.recent.reduce((sum, entry) => sum + entry.cost, 0);
        const extra = Math.min((state.restoreRate * leaseMs) / 1000, state.maximum / 4, Math.max(cost, demand));
        const { row, granted } = await exclusive(state, () => sync(shop, state, { need: cost, want: cost + extra, maxWaitMs }));
        if (granted > 0) continue;
        const available = Number(row?.available ?? 0);
        return { granted: false, waitMs: Math.ceil((Math.max(0, cost - available) / state.restoreRate) * 1000) };
      }
    },

    async settle(shop: string, reserved: number, status: ThrottleStatus | undefined, spent?: number, ticket?: number): Promise<void> {
      const state = local(shop);
      const at = now();
      state.inFlight = Math.max(0, state.inFlight - reserved);
      state.release += reserved;
      state.give += refundOf(reserved, spent);
      if (status) {
        state.observations.push({
          available: status.currentlyAvailable,
          at,
          restoreRate: status.restoreRate,
          maximum: status.maximumAvailable,
          epoch: ticket,
        });
        state.restoreRate = status.restoreRate;
        state.maximum = status.maximumAvailable;
        // THROTTLED (nothing spent), or Shopify has fewer points than this process's lease: the lease is not there.
        if ((spent === 0 && reserved > 0) || status.currentlyAvailable < leasePresent(state, at)) {
          await flushShop(shop, state, true);
          return;
        }
      }
      if (flushMs <= 0) await flushShop(shop, state, false);
      else schedule(shop, state);
    },
  };
}
