/**
 * Shopify points per label for `npm run bench`: each of the demo's orders labelled the way a merchant does it from
 * its page (page load, "Create label", page reload), through the app's real code (the library's Admin client, the
 * label-service client, the purchase and fulfillment layers) against the Shopify emulator and the label sandbox.
 * Every Admin call's `extensions.cost` is counted: points requested (what the bucket must hold before the call runs)
 * and spent (actual cost, after the refund), per operation and per label.
 */
import "@shopify/shopify-app-remix/adapters/node";
import { DEMO_SHIPPING_SETTINGS } from "../app/demo/seed-demo-shop.server";
import { createLabelServiceClient } from "../app/label-service";
import { labelContextFromAdmin } from "../app/labels/context.server";
import { labelOrder } from "../app/labels/label-order.server";
import { loadOrderLabel } from "../app/labels/order-label.server";
import { saveShippingSettings } from "../app/settings/shipping-settings.server";
import type { AdminGraphqlClient } from "../app/shopify/admin-client";
import { costRecorder, type OperationPoints } from "../test/helpers/cost-recorder";
import { DEMO_ACCOUNT, startLabelSandbox } from "../emulators/label-sandbox/server";
import { startShopifyEmulator } from "../emulators/shopify-admin/server";
import { DEMO_SHOP, DEMO_TOKEN } from "../emulators/shopify-admin/test-helpers";
import { createTestDatabase } from "../test/helpers/test-db";
import { realAdminFor } from "../test/helpers/real-admin";

export interface LabelPointsResult {
  orders: number;
  labelled: number;
  byOperation: Map<string, OperationPoints>;
  /** Per labelled order: points requested and spent over every Admin call of its page load, create, reload. */
  perLabel: { requested: number; actual: number; calls: number }[];
}

export async function benchLabelPoints(limit = 64): Promise<LabelPointsResult> {
  // A Plus-sized bucket: this counts points; pacing and waiting are measured elsewhere.
  const [emulator, sandbox] = await Promise.all([startShopifyEmulator({ port: 0, plan: "plus" }), startLabelSandbox({ port: 0 })]);
  const database = createTestDatabase();
  const db = database.prisma;
  try {
    const admin = await realAdminFor(emulator.url, db, DEMO_SHOP, DEMO_TOKEN);
    await saveShippingSettings(db, DEMO_SHOP, DEMO_SHIPPING_SETTINGS);
    const service = createLabelServiceClient({
      shop: DEMO_SHOP,
      environment: "staging",
      account: { baseUrl: sandbox.url, ...DEMO_ACCOUNT },
      tokenCache: undefined,
      options: { generateTimeoutMs: 10_000, defaultTimeoutMs: 10_000 },
    });
    const health = (await (await fetch(`${emulator.url}/__admin/health`)).json()) as { shops: string[] };
    if (!health.shops.includes(DEMO_SHOP)) throw new Error("the emulator does not serve the demo shop");
    const seedOrders = await listOrderIds(admin, limit);
    const byOperation = new Map<string, OperationPoints>();
    const perLabel: LabelPointsResult["perLabel"] = [];
    for (const orderId of seedOrders) {
      const tally = new Map<string, OperationPoints>();
      const counted = costRecorder(admin, tally);
      await loadOrderLabel(db, counted, DEMO_SHOP, orderId);
      const context = await labelContextFromAdmin(DEMO_SHOP, counted, { database: db, service: async () => service });
      const outcome = await labelOrder(context, { orderId });
      await loadOrderLabel(db, counted, DEMO_SHOP, orderId);
      const labelled = outcome.kind === "labelled" && !outcome.alreadyLabelled && outcome.fulfillment?.status === "created";
      if (!labelled) continue;
      let requested = 0;
      let actual = 0;
      let calls = 0;
      for (const [name, points] of tally) {
        requested += points.requested;
        actual += points.actual;
        calls += points.calls;
        const total = byOperation.get(name) ?? { calls: 0, requested: 0, actual: 0, throttled: 0 };
        byOperation.set(name, {
          calls: total.calls + points.calls,
          requested: total.requested + points.requested,
          actual: total.actual + points.actual,
          throttled: total.throttled + points.throttled,
        });
      }
      perLabel.push({ requested, actual, calls });
    }
    return { orders: seedOrders.length, labelled: perLabel.length, byOperation, perLabel };
  } finally {
    await Promise.allSettled([emulator.close(), sandbox.close(), database.close()]);
  }
}

/** The demo shop's order ids, oldest first (a plain list query, not counted). */
async function listOrderIds(admin: AdminGraphqlClient, limit: number): Promise<string[]> {
  const response = await admin.graphql(`#graphql
    query BenchOrderIds { orders(first: 100, sortKey: CREATED_AT) { nodes { id } } }`);
  const body = (await response.json()) as { data: { orders: { nodes: { id: string }[] } } };
  return body.data.orders.nodes.map((node) => node.id).slice(0, limit);
}

export function printLabelPoints(result: LabelPointsResult): void {
  const sum = (pick: (row: { requested: number; actual: number; calls: number }) => number) => result.perLabel.reduce((total, row) => total + pick(row), 0);
  const n = Math.max(1, result.labelled);
  console.log(`\nShopify points per label (page load + Create label + reload), ${result.labelled} of ${result.orders} demo orders labelled`);
  console.log("operation                            calls/label   requested/call   actual/call   requested/actual");
  for (const [name, points] of [...result.byOperation].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(
      `${name.padEnd(36)} ${(points.calls / n).toFixed(2).padStart(11)} ${(points.requested / points.calls).toFixed(1).padStart(16)} ${(points.actual / points.calls).toFixed(1).padStart(13)} ${(points.requested / Math.max(1, points.actual)).toFixed(2).padStart(18)}`,
    );
  }
  const requested = result.perLabel.map((row) => row.requested);
  const actual = result.perLabel.map((row) => row.actual);
  console.log(
    `per label: ${(sum((row) => row.calls) / n).toFixed(1)} Admin calls, requested ${(sum((row) => row.requested) / n).toFixed(0)} points (min ${Math.min(...requested)}, max ${Math.max(...requested)}), spent ${(sum((row) => row.actual) / n).toFixed(1)} (min ${Math.min(...actual)}, max ${Math.max(...actual)})`,
  );
}
