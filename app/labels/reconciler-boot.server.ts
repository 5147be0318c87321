/**
 * Starts the background reconciler with the app's real clients. Called from entry.server.tsx at module load, which
 * happens at process start: `remix-serve` imports the server build before listening, and in dev the Vite plugin
 * dev/start-server-build.ts loads it as soon as the dev server listens.
 */
import db from "../db.server";
import { loadShippingSettings } from "../settings/shipping-settings.server";
import { withShopifyBudget } from "../shopify/admin-client";
import { unauthenticated } from "../shopify.server";
import { labelServiceClientFor } from "./gateway.server";
import { startReconciler } from "./reconciler.server";

export function bootReconciler(): void {
  startReconciler({
    db,
    serviceFor: (shop, environment) => labelServiceClientFor(shop, environment),
    // Paced by the shop's Shopify budget; a background pass may wait longer than a page.
    adminFor: async (shop) => withShopifyBudget((await unauthenticated.admin(shop)).admin, { shop, maxWaitMs: 30_000 }),
    notifyCustomerFor: async (shop) => (await loadShippingSettings(db, shop)).notifyCustomer,
    log: (message) => console.warn(`[reconciler] ${message}`),
  });
}
