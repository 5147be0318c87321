/**
 * /metrics: off without a token, 401 without the right bearer, else Prometheus text with the counters the app
 * records and the figures read from the database at scrape time (purchase attempts, the embedded queue).
 */
import { afterAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/helpers/test-db";
import { databaseMetricsSource } from "./metrics-source.server";
import { metricsResponse } from "./endpoints.server";
import { createMetrics } from "./metrics.server";

const database = createTestDatabase();
afterAll(() => database.close());

const scrape = (token: string | undefined, header?: string, metrics = createMetrics()) =>
  metricsResponse(new Request("https://app.test/metrics", { headers: header ? { authorization: header } : {} }), token, () => metrics.registry);

describe("GET /metrics", () => {
  it("is off (404) unless METRICS_TOKEN is set", async () => {
    expect((await scrape(undefined, "Bearer anything")).status).toBe(404);
    expect((await scrape("", "Bearer ")).status).toBe(404);
  });

  it("is 401 without the token or with another one", async () => {
    expect((await scrape("s3cret")).status).toBe(401);
    expect((await scrape("s3cret", "Bearer s3cre")).status).toBe(401);
    expect((await scrape("s3cret", "Basic s3cret")).status).toBe(401);
  });

  it("answers the Prometheus text format with the recorded counters", async () => {
    const metrics = createMetrics();
    metrics.labelServiceCalls.inc({ operation: "generate_label", outcome: "http_2xx" });
    metrics.labelServiceSeconds.observe({ operation: "generate_label", outcome: "http_2xx" }, 0.3);
    metrics.shopifyThrottleWaits.inc();
    metrics.shopifyThrottleWaitSeconds.inc(1.5);
    metrics.reconcilerOutcomes.inc({ outcome: "adopted" });
    const response = await scrape("s3cret", "Bearer s3cret", metrics);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    const text = await response.text();
    expect(text).toContain('etiquette_label_service_calls_total{operation="generate_label",outcome="http_2xx"} 1');
    expect(text).toContain('etiquette_label_service_call_seconds_bucket{le="0.5",operation="generate_label",outcome="http_2xx"} 1');
    expect(text).toContain("etiquette_shopify_throttle_waits_total 1");
    expect(text).toContain("etiquette_shopify_throttle_wait_seconds_total 1.5");
    expect(text).toContain('etiquette_reconciler_outcomes_total{outcome="adopted"} 1');
  });

  it("reads labels bought, refused and pending by environment, and the queue's depth and oldest wait, from the database", async () => {
    const db = database.prisma;
    const attempt = (id: string, environment: string, status: string) =>
      db.purchaseAttempt.create({
        data: {
          id,
          shop: "shop-a.myshopify.com",
          orderId: `gid://shopify/Order/${id}`,
          orderName: `#${id}`,
          environment,
          customReference: `ref-${id}`,
          orderSlot: `slot-${id}`,
          labelIndex: 1,
          status,
          requestJson: "{}",
        },
      });
    await attempt("1", "staging", "CREATED");
    await attempt("2", "staging", "CREATED");
    await attempt("3", "production", "CREATED");
    await attempt("4", "production", "REJECTED");
    await attempt("5", "staging", "PENDING");
    const now = 1_800_000_000_000;
    const job = (id: string, state: string, createdAtMs: number) =>
      db.$executeRawUnsafe(
        `INSERT INTO "Job" ("id", "name", "shop", "payload", "state", "runAfterMs", "attempts", "maxAttempts", "backoffMs", "createdAtMs") VALUES (?, 'label-order', 's', '{}', ?, 0, 0, 3, 1000, ?)`,
        id,
        state,
        createdAtMs,
      );
    await job("j1", "queued", now - 90_000);
    await job("j2", "queued", now - 10_000);
    await job("j3", "active", now - 5_000);
    await job("j4", "failed", now - 500_000);

    const metrics = createMetrics({ now: () => now });
    metrics.setSource(databaseMetricsSource(db, database.url));
    const text = await (await scrape("t", "Bearer t", metrics)).text();
    expect(text).toContain('etiquette_purchase_attempts{environment="staging",status="CREATED"} 2');
    expect(text).toContain('etiquette_purchase_attempts{environment="production",status="CREATED"} 1');
    expect(text).toContain('etiquette_purchase_attempts{environment="production",status="REJECTED"} 1');
    expect(text).toContain('etiquette_purchase_attempts{environment="staging",status="PENDING"} 1');
    expect(text).toContain('etiquette_jobs{state="queued"} 2');
    expect(text).toContain('etiquette_jobs{state="active"} 1');
    expect(text).toContain('etiquette_jobs{state="failed"} 1');
    expect(text).toContain("etiquette_oldest_queued_job_age_seconds 90");
  });
});
