/**
 * The reconciler's real clients, for the recurring job (app/jobs/handlers/reconcile-labels.job.ts) that the job
 * queue's boot (app/jobs/boot.server.ts) registers.
 */
import db from "../db.server";
import { loadShippingSettings } from "../settings/shipping-settings.server";
import { withShopifyBudget } from "../shopify/admin-client";
import { unauthenticated } from "../shopify.server";
import { labelServiceClientFor } from "./gateway.server";
import type { ReconcilerDeps } from "./reconciler.server";

export function reconcilerDeps(): ReconcilerDeps {
  return {
    db,
    serviceFor: (shop, environment) => labelServiceClientFor(shop, environment),
    // Paced by the shop's Shopify budget; a background pass may wait longer than a page.
    adminFor: async (shop) => withShopifyBudget((await unauthenticated.admin(shop)).admin, { shop, maxWaitMs: 30_000 }),
    notifyCustomerFor: async (shop) => (await loadShippingSettings(db, shop)).notifyCustomer,
    log: (message) => console.warn(`[reconciler] ${message}`),
  };
}
