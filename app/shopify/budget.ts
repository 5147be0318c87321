/**
 * Each shop's Admin API budget (Shopify's leaky bucket, per app and shop), tracked from what Shopify reports on every
 * answer (`extensions.cost.throttleStatus`), so that a call waits *before* it is sent instead of being THROTTLED.
 *
 * `ShopifyBudget` is the small interface; `InProcessShopifyBudget` keeps it in this process's memory (tests, scripts),
 * `createDatabaseShopifyBudget` (budget-store.server.ts) in the database, one budget per shop for every worker and
 * app instance (like the label-service concurrency).
 * Both operations are single atomic steps on one shop's record, which is what a store (a row updated with
 * `UPDATE … RETURNING`, a Redis script) can do too.
 */

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

export interface Reservation {
  granted: boolean;
  waitMs: number;
  /**
   * How many answers the shop's budget had settled when this reservation was taken. Passed back to `settle`: an
   * answer may set the expectation *upwards* only when no other answer came in meanwhile (a later call's answer may
   * already include charges this one's status does not).
   */
  ticket?: number;
}

export interface ShopifyBudget {
  /**
   * Takes `cost` points from the shop's expected bucket and answers how long (ms) to wait before sending: 0 when the
   * points are there now. Points not there yet are taken as a debt, so later callers queue behind this one. When the
   * wait would exceed `maxWaitMs`, nothing is taken and `granted` is false.
   */
  reserve(shop: string, cost: number, maxWaitMs: number): Promise<Reservation>;
  /**
   * The answer to a call that reserved `reserved` points has arrived. `spent` is what Shopify charged
   * (`actualQueryCost`; 0 for a THROTTLED answer, which is not executed; unknown when no answer came): the difference
   * is given back. Shopify's status then corrects the expectation downwards (it is the truth, less what other calls
   * still in flight have reserved), and sets it outright when no other call is in flight.
   */
  settle(shop: string, reserved: number, status: ThrottleStatus | undefined, spent?: number, ticket?: number): Promise<void>;
}

/** What a shop is assumed to have before its first answer: Shopify's smallest bucket (Standard and Basic plans). */
export const ASSUMED_BUCKET: ThrottleStatus = { maximumAvailable: 2000, currentlyAvailable: 2000, restoreRate: 100 };

/** Points given back when an answer shows the call spent less than it reserved (nothing when it is not known). */
export function refundOf(reserved: number, spent: number | undefined): number {
  return typeof spent === "number" && Number.isFinite(spent) ? Math.max(0, reserved - spent) : 0;
}

interface ShopBucket {
  maximum: number;
  restoreRate: number;
  /** Expected points at `at`, after every reservation; negative while callers wait for points. */
  available: number;
  at: number;
  /** Points reserved by calls whose answer has not arrived yet. */
  pending: number;
  /** Answers settled so far. */
  settles: number;
}

export class InProcessShopifyBudget implements ShopifyBudget {
  private readonly shops = new Map<string, ShopBucket>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly assumed: ThrottleStatus = ASSUMED_BUCKET,
  ) {}

  private bucket(shop: string): ShopBucket {
    const at = this.now();
    let bucket = this.shops.get(shop);
    if (!bucket) {
      bucket = { maximum: this.assumed.maximumAvailable, restoreRate: this.assumed.restoreRate, available: this.assumed.currentlyAvailable, at, pending: 0, settles: 0 };
      this.shops.set(shop, bucket);
    }
    const elapsedSeconds = Math.max(0, at - bucket.at) / 1000;
    // Never above the bucket less what calls in flight hold: Shopify's stops filling before they arrive and pay.
    bucket.available = Math.min(bucket.maximum - bucket.pending, bucket.available + elapsedSeconds * bucket.restoreRate);
    bucket.at = at;
    return bucket;
  }

  async reserve(shop: string, cost: number, maxWaitMs: number): Promise<Reservation> {
    const bucket = this.bucket(shop);
    const waitMs = bucket.available >= cost ? 0 : Math.ceil(((cost - bucket.available) / bucket.restoreRate) * 1000);
    if (waitMs > maxWaitMs) return { granted: false, waitMs };
    bucket.available -= cost;
    bucket.pending += cost;
    return { granted: true, waitMs, ticket: bucket.settles };
  }

  async settle(shop: string, reserved: number, status: ThrottleStatus | undefined, spent?: number, ticket?: number): Promise<void> {
    const bucket = this.bucket(shop);
    const fresh = ticket === undefined || ticket === bucket.settles;
    bucket.settles += 1;
    bucket.pending = Math.max(0, bucket.pending - reserved);
    bucket.available = Math.min(bucket.maximum - bucket.pending, bucket.available + refundOf(reserved, spent));
    if (!status) return;
    bucket.maximum = status.maximumAvailable;
    bucket.restoreRate = status.restoreRate;
    const reported = status.currentlyAvailable - bucket.pending;
    bucket.available = bucket.pending === 0 && fresh ? reported : Math.min(bucket.available, reported);
  }

  /** For tests and the bench: the shop's expected points now. */
  expectedAvailable(shop: string): number {
    return this.bucket(shop).available;
  }
}
