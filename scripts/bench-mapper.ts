/**
 * Mapper throughput for `npm run bench`: order -> label request for n orders (the Swiss seed fixture with varied
 * quantities). Ideal: a JSON round trip of the same orders, i.e. reading the input and writing an output of
 * similar size, which any mapper must at least do.
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { defaultShippingSettings, mapOrderToLabelRequest } from "../app/shipping";
import { orderForLabelSchema, type OrderForLabel } from "../app/shopify/operations/order-for-label";

export async function benchMapper(n: number) {
  const fixture = JSON.parse(readFileSync(new URL("../app/shipping/fixtures/international-ch.json", import.meta.url), "utf8")) as { order: unknown };
  const base = orderForLabelSchema.parse(fixture.order);
  const orders: OrderForLabel[] = Array.from({ length: n }, (_, index) => ({ ...base, name: `#B${index}` }));
  // Warm up both paths.
  for (const order of orders.slice(0, 200)) {
    mapOrderToLabelRequest({ order, settings: defaultShippingSettings, customReference: "20261122-001" });
    JSON.parse(JSON.stringify(order));
  }
  const heapBefore = process.memoryUsage().heapUsed;
  const start = performance.now();
  let produced = 0;
  for (const order of orders) {
    if (mapOrderToLabelRequest({ order, settings: defaultShippingSettings, customReference: "20261122-001" }).request) produced += 1;
  }
  const ms = performance.now() - start;
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
  if (produced !== n) throw new Error(`mapper produced ${produced} requests for ${n} orders`);
  const idealStart = performance.now();
  for (const order of orders) JSON.parse(JSON.stringify(order));
  const idealMs = performance.now() - idealStart;
  return { name: "mapper (order->request)", n, ms, idealMs, heapMb };
}
