/** Starts the background reconciler with the app's real clients (called from entry.server.tsx). */
import db from "../db.server";
import { loadShippingSettings } from "../settings/shipping-settings.server";
import { unauthenticated } from "../shopify.server";
import { labelServiceClientFor } from "./gateway.server";
import { startReconciler } from "./reconciler.server";

export function bootReconciler(): void {
  startReconciler({
    db,
    serviceFor: (shop, environment) => labelServiceClientFor(shop, environment),
    adminFor: async (shop) => (await unauthenticated.admin(shop)).admin,
    notifyCustomerFor: async (shop) => (await loadShippingSettings(db, shop)).notifyCustomer,
    log: (message) => console.warn(`[reconciler] ${message}`),
  });
}
