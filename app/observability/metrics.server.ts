/**
 * Prometheus metrics (prom-client), served by GET /metrics (app/routes/metrics.ts) when METRICS_TOKEN is set.
 *
 * Counted where they happen (call these from your module; no other registry):
 *   labelServiceCall(operation, outcome, seconds)   every label-service HTTP call (purchase latency = generate_label)
 *   shopifyThrottleWait(seconds)                     each wait for Shopify's cost bucket to refill
 *   reconcilerOutcome(outcome)                       each reconciled purchase (created, absent, unknown, review, ...)
 * Read from the database at scrape time (exact across restarts and instances):
 *   etiquette_purchase_attempts{environment,status} labels bought (CREATED), refused (REJECTED), pending, unknown, ...
 *   etiquette_jobs{state}, etiquette_oldest_queued_job_age_seconds   the embedded queue (SQLite)
 */
import client, { Counter, Gauge, Histogram, Registry } from "prom-client";

export type MetricsSource = {
  /** Purchase attempts counted by environment and status. */
  purchaseAttempts(): Promise<{ environment: string; status: string; count: number }[]>;
  /** Jobs counted by state, and the creation time (epoch ms) of the oldest queued job; undefined when not known. */
  jobs(): Promise<{ states: { state: string; count: number }[]; oldestQueuedAtMs: number | null } | undefined>;
};

export type AppMetrics = {
  registry: Registry;
  labelServiceCalls: Counter<"operation" | "outcome">;
  labelServiceSeconds: Histogram<"operation" | "outcome">;
  shopifyThrottleWaits: Counter;
  shopifyThrottleWaitSeconds: Counter;
  reconcilerOutcomes: Counter<"outcome">;
  /** Set the database reader used at scrape time (boot does it; tests pass their own). */
  setSource(source: MetricsSource | undefined): void;
};

export function createMetrics(options: { now?: () => number; processMetrics?: boolean } = {}): AppMetrics {
  const now = options.now ?? Date.now;
  const registry = new Registry();
  if (options.processMetrics) client.collectDefaultMetrics({ register: registry, prefix: "etiquette_" });
  let source: MetricsSource | undefined;

  const labelServiceCalls = new Counter({
    name: "etiquette_label_service_calls_total",
    help: "Label-service HTTP calls by operation and outcome",
    labelNames: ["operation", "outcome"] as const,
    registers: [registry],
  });
  const labelServiceSeconds = new Histogram({
    name: "etiquette_label_service_call_seconds",
    help: "Label-service call duration (generate_label is the purchase latency)",
    labelNames: ["operation", "outcome"] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
    registers: [registry],
  });
  const shopifyThrottleWaits = new Counter({
    name: "etiquette_shopify_throttle_waits_total",
    help: "Waits for Shopify's GraphQL cost bucket to refill",
    registers: [registry],
  });
  const shopifyThrottleWaitSeconds = new Counter({
    name: "etiquette_shopify_throttle_wait_seconds_total",
    help: "Time spent waiting for Shopify's GraphQL cost bucket",
    registers: [registry],
  });
  const reconcilerOutcomes = new Counter({
    name: "etiquette_reconciler_outcomes_total",
    help: "Purchases the reconciler looked at, by outcome",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });

  new Gauge({
    name: "etiquette_purchase_attempts",
    help: "Purchase attempts by environment and status (CREATED = bought, REJECTED = refused, PENDING/UNKNOWN = waiting)",
    labelNames: ["environment", "status"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of (await source?.purchaseAttempts()) ?? []) this.set({ environment: row.environment, status: row.status }, row.count);
    },
  });

  new Gauge({
    name: "etiquette_jobs",
    help: "Jobs in the embedded queue by state (queued = depth, active = running, failed)",
    labelNames: ["state"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of (await source?.jobs())?.states ?? []) this.set({ state: row.state }, row.count);
    },
  });
  new Gauge({
    name: "etiquette_oldest_queued_job_age_seconds",
    help: "Age of the oldest job waiting to run (0 when none waits)",
    registers: [registry],
    async collect() {
      // prom-client collects the gauges concurrently, so this one reads its own figure.
      const oldest = (await source?.jobs())?.oldestQueuedAtMs;
      this.set(oldest == null ? 0 : Math.max(0, (now() - oldest) / 1000));
    },
  });

  return {
    registry,
    labelServiceCalls,
    labelServiceSeconds,
    shopifyThrottleWaits,
    shopifyThrottleWaitSeconds,
    reconcilerOutcomes,
    setSource(next) {
      source = next;
    },
  };
}

declare global {
  var __etiquetteMetrics: AppMetrics | undefined;
}

/** The process's metrics (one registry, also across Vite dev-server reloads). */
export function appMetrics(): AppMetrics {
  globalThis.__etiquetteMetrics ??= createMetrics({ processMetrics: true });
  return globalThis.__etiquetteMetrics;
}

export function labelServiceCall(operation: string, outcome: string, seconds: number): void {
  const metrics = appMetrics();
  metrics.labelServiceCalls.inc({ operation, outcome });
  metrics.labelServiceSeconds.observe({ operation, outcome }, seconds);
}

export function shopifyThrottleWait(seconds: number): void {
  const metrics = appMetrics();
  metrics.shopifyThrottleWaits.inc();
  metrics.shopifyThrottleWaitSeconds.inc(seconds);
}

export function reconcilerOutcome(outcome: string): void {
  appMetrics().reconcilerOutcomes.inc({ outcome });
}
