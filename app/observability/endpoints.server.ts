/**
 * The operator endpoints' answers, as plain functions (the routes only wire them): no authentication for the health
 * checks, a bearer token for /metrics, never shop data, never cached.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { Registry } from "prom-client";
import type { Readiness } from "./readiness.server";

const NO_STORE = { "cache-control": "no-store" };

export function healthResponse(): Response {
  return Response.json({ status: "ok" }, { headers: NO_STORE });
}

export function readinessResponse(readiness: Readiness): Response {
  return Response.json(
    { status: readiness.ready ? "ready" : "not ready", checks: readiness.checks },
    { status: readiness.ready ? 200 : 503, headers: NO_STORE },
  );
}

function sameSecret(given: string, expected: string): boolean {
  // Hashes have one length, so the comparison takes the same time whatever was sent.
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * GET /metrics: 404 unless METRICS_TOKEN is set (metrics are off), 401 without `Authorization: Bearer <token>`,
 * else the registry in Prometheus' text format.
 */
export async function metricsResponse(request: Request, token: string | undefined, registry: () => Registry): Promise<Response> {
  if (!token) return new Response("Not Found", { status: 404, headers: NO_STORE });
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer (.+)$/i.exec(header.trim());
  if (!match?.[1] || !sameSecret(match[1], token)) {
    return new Response("Unauthorized", { status: 401, headers: { ...NO_STORE, "www-authenticate": 'Bearer realm="metrics"' } });
  }
  const metrics = registry();
  return new Response(await metrics.metrics(), { headers: { ...NO_STORE, "content-type": metrics.contentType } });
}
