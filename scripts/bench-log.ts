/**
 * One info line of the app's logger for `npm run bench` (decision 0227): a line as the Shopify Admin client writes one
 * per call, through `createLogger` (its redaction included) to /dev/null, synchronously as in production. Ideal: the
 * same line from a pino logger with the same base, time and level format, without the app's redaction and its
 * request-id mixin.
 */
import { performance } from "node:perf_hooks";
import pino, { type Logger } from "pino";
import { createLogger } from "../app/observability/logger.server";

export function benchLogLine(n: number) {
  const destination = pino.destination({ dest: "/dev/null", sync: true });
  const app = createLogger({ level: "info", destination }).child({ module: "shopify" });
  const bare = pino({ level: "info", base: { service: "etiquette" }, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) } }, destination).child({ module: "shopify" });
  const write = (logger: Logger) => {
    const start = performance.now();
    for (let i = 0; i < n; i++) logger.info({ operation: "FulfillmentCreate", shop: "bench.myshopify.com", durationMs: i % 500, outcome: "ok" }, "shopify admin call");
    return performance.now() - start;
  };
  write(app);
  write(bare);
  const heapBefore = process.memoryUsage().heapUsed;
  const ms = write(app);
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
  const idealMs = write(bare);
  return { name: "log line (info)", n, ms, idealMs, heapMb };
}
