/**
 * The per-shop labelling context (`LabelContext`), built from a request's admin (a page, an API call) or from the
 * shop's offline session (a bulk job's item, the reconciler). The environment and settings may be given frozen (a
 * bulk job's snapshot); otherwise they are the shop's current ones, read once here and not again per call.
 */
import db from "../db.server";
import type { PrismaClient } from "../generated/prisma/client";
import { getEnvironment } from "../settings/environment.server";
import { loadShippingSettings } from "../settings/shipping-settings.server";
import type { ShippingSettings } from "../shipping/settings";
import { withShopifyBudget, type AdminGraphqlClient } from "../shopify/admin-client";
import { createTtlCache } from "../ttl-cache";
import type { LabelEnvironment } from "./environments";
import { labelServiceClientFor } from "./gateway.server";
import type { LabelContext } from "./label-order.server";
import type { LabelServicePort } from "./purchase.server";

export interface ContextOptions {
  environment?: LabelEnvironment;
  settings?: ShippingSettings;
  /** Replaces the label-service client (tests, the chaos campaign). */
  service?: LabelContext["service"];
  database?: PrismaClient;
  /** Where background work keeps the shop's clients between items (see createShopClientCache). */
  clients?: ShopClientCache;
}

/** From an authenticated request's admin client (already paced by the shop's budget, see requireAdmin). */
export async function labelContextFromAdmin(shop: string, admin: AdminGraphqlClient, options: ContextOptions = {}): Promise<LabelContext> {
  const database = options.database ?? db;
  const [environment, settings] = await Promise.all([
    options.environment ?? getEnvironment(database, shop).then((state) => state.environment),
    options.settings ?? loadShippingSettings(database, shop),
  ]);
  let client: ReturnType<LabelContext["service"]> | undefined;
  return {
    shop,
    db: database,
    admin,
    environment,
    settings,
    service: options.service ?? (() => (client ??= options.clients ? options.clients.service(shop, environment) : labelServiceClientFor(shop, environment))),
  };
}

/** From the shop's offline session: background work (a job's item, the reconciler), which may wait longer for Shopify. */
export async function labelContextForShop(shop: string, options: ContextOptions & { maxWaitMs?: number } = {}): Promise<LabelContext> {
  const admin = options.clients ? await options.clients.admin(shop, options.maxWaitMs) : await offlineAdminFor(shop, options.maxWaitMs);
  return labelContextFromAdmin(shop, admin, options);
}

/** How long background work keeps a shop's offline Admin client and label-service client (decision 0225). */
export const SHOP_CLIENTS_KEPT_MS = 30_000;

/**
 * A shop's clients kept for SHOP_CLIENTS_KEPT_MS by one app process, for background work that labels many orders of
 * the same shop (a bulk job's items). Building them per item read the offline session and the label-service account
 * through Prisma's query engine and decrypted the password each time. Kept this long, the clients stay right:
 * - the offline session the Admin client was built with has at least 5 minutes left (the Shopify library refreshes
 *   a token that expires sooner before it hands the session over);
 * - a label-service login saved meanwhile is used by the items that start after the kept client expires, as the
 *   account's semaphore key already is (run-item.server.ts).
 * A failed load is not kept: the next item loads again.
 */
export interface ShopClientCache {
  admin(shop: string, maxWaitMs?: number): Promise<AdminGraphqlClient>;
  service(shop: string, environment: LabelEnvironment): ReturnType<LabelContext["service"]>;
}

export function createShopClientCache(
  options: {
    ttlMs?: number;
    now?: () => number;
    loadAdmin?: (shop: string, maxWaitMs?: number) => Promise<AdminGraphqlClient>;
    loadService?: (shop: string, environment: LabelEnvironment) => ReturnType<LabelContext["service"]>;
  } = {},
): ShopClientCache {
  const kept = { ttlMs: options.ttlMs ?? SHOP_CLIENTS_KEPT_MS, maxEntries: 256, now: options.now };
  const admins = createTtlCache<AdminGraphqlClient>(kept);
  const services = createTtlCache<Awaited<ReturnType<LabelContext["service"]>>>(kept);
  const loadAdmin = options.loadAdmin ?? offlineAdminFor;
  const loadService = options.loadService ?? labelServiceClientFor;
  return {
    admin: (shop, maxWaitMs) => admins.get(`${shop}|${maxWaitMs ?? ""}`, () => loadAdmin(shop, maxWaitMs)),
    service: (shop, environment) => services.get(`${shop}|${environment}`, () => loadService(shop, environment)),
  };
}

/**
 * The shop's offline-session Admin client, paced by the shop's Shopify budget (a background caller may wait longer
 * than a page: 30 s by default). Imported lazily: the Shopify app configuration is only needed when it is used.
 */
export async function offlineAdminFor(shop: string, maxWaitMs = 30_000): Promise<AdminGraphqlClient> {
  const { unauthenticated } = await import("../shopify.server");
  const { admin } = await unauthenticated.admin(shop);
  return withShopifyBudget(admin, { shop, maxWaitMs });
}

/**
 * Per-shop clients for a background pass over many shops (the reconciler), built the same way as a context's: the
 * label-service client for the environment a purchase was made in (not the shop's current one), the offline Admin
 * client paced by the shop's budget, and the shop's notification setting.
 */
export interface ShopClients {
  serviceFor: (shop: string, environment: LabelEnvironment) => Promise<LabelServicePort>;
  adminFor: (shop: string) => Promise<AdminGraphqlClient>;
  notifyCustomerFor: (shop: string) => Promise<boolean>;
}

export function backgroundShopClients(database: PrismaClient = db): ShopClients {
  return {
    serviceFor: (shop, environment) => labelServiceClientFor(shop, environment),
    adminFor: (shop) => offlineAdminFor(shop),
    notifyCustomerFor: async (shop) => (await loadShippingSettings(database, shop)).notifyCustomer,
  };
}
