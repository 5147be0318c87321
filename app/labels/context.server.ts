/**
 * The per-shop labelling context (`LabelContext`), built from a request's admin (a page, an API call) or from the
 * shop's offline session (a bulk job's item, the reconciler). The environment and settings may be given frozen (a
 * bulk job's snapshot); otherwise they are the shop's current ones, read once here and not again per call.
 */
import { createHash } from "node:crypto";
import db from "../db.server";
import { statements } from "../db-direct.server";
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

/** The Shopify library refreshes an offline token that expires within this time before it hands the session over. */
const TOKEN_REFRESH_MARGIN_MS = 5 * 60_000;

/**
 * A shop's clients kept by one app process for background work that labels many orders of the same shop (a bulk
 * job's items). Building them per item read the offline session and the label-service account through Prisma's
 * query engine and decrypted the password, about 1.8 ms each time. A kept client is used only while what it was built
 * from is unchanged (`ClientStamps`: one small statement each per item), and for SHOP_CLIENTS_KEPT_MS at most. A
 * failed load is not kept: the next item loads again.
 */
export interface ShopClientCache {
  admin(shop: string, maxWaitMs?: number): Promise<AdminGraphqlClient>;
  service(shop: string, environment: LabelEnvironment): ReturnType<LabelContext["service"]>;
}

/**
 * What a shop's clients are built from, as a short text that changes when they must be built again; null: build one
 * for this item and keep none.
 */
export interface ClientStamps {
  /** The offline session's token. Null when there is none (the library's load then fails as it always did: an
   * uninstalled shop's items buy nothing) or when it expires soon enough to be refreshed at the next load. */
  admin(shop: string): Promise<string | null>;
  /** When the shop's label-service account was last saved (a new password gets a new client at once); null: none. */
  service(shop: string, environment: LabelEnvironment): Promise<string | null>;
}

export function databaseClientStamps(database: PrismaClient = db, options: { now?: () => number } = {}): ClientStamps {
  const now = options.now ?? Date.now;
  // The client is looked up per call, not here: building the stamps at boot must not open the database.
  return {
    async admin(shop) {
      // The library's offline session id for a shop (shopify-api's getOfflineId).
      const rows = await statements(database).$queryRaw<{ accessToken: string; expires: Date | string | number | null }[]>`SELECT "accessToken", "expires" FROM "Session" WHERE "id" = ${`offline_${shop}`}`;
      const row = rows[0];
      if (!row) return null;
      // Within the library's refresh margin: the next load refreshes it. A kept client is checked again by each item,
      // so none is used that close to the expiry.
      if (row.expires !== null && new Date(row.expires).getTime() - now() < TOKEN_REFRESH_MARGIN_MS) return null;
      return createHash("sha256").update(row.accessToken).digest("base64url");
    },
    async service(shop, environment) {
      const rows = await statements(database).$queryRaw<{ updatedAt: Date | string | number }[]>`SELECT "updatedAt" FROM "LabelServiceAccount" WHERE "shop" = ${shop} AND "environment" = ${environment}`;
      return rows[0] ? String(new Date(rows[0].updatedAt).getTime()) : null;
    },
  };
}

export function createShopClientCache(
  options: {
    ttlMs?: number;
    now?: () => number;
    stamps?: ClientStamps;
    loadAdmin?: (shop: string, maxWaitMs?: number) => Promise<AdminGraphqlClient>;
    loadService?: (shop: string, environment: LabelEnvironment) => ReturnType<LabelContext["service"]>;
  } = {},
): ShopClientCache {
  const kept = { ttlMs: options.ttlMs ?? SHOP_CLIENTS_KEPT_MS, maxEntries: 256, now: options.now };
  const admins = createTtlCache<AdminGraphqlClient>(kept);
  const services = createTtlCache<Awaited<ReturnType<LabelContext["service"]>>>(kept);
  const stamps = options.stamps ?? databaseClientStamps(db, { now: options.now });
  const loadAdmin = options.loadAdmin ?? offlineAdminFor;
  const loadService: (shop: string, environment: LabelEnvironment) => ReturnType<LabelContext["service"]> = options.loadService ?? labelServiceClientFor;
  // Loads not kept (a null stamp) are still shared while under way, by caches that keep nothing once a load is done:
  // items starting together near a token's expiry make one refresh, not one each with the same refresh token.
  const underWay = { ttlMs: 0, maxEntries: 256, now: options.now };
  const adminLoads = createTtlCache<AdminGraphqlClient>(underWay);
  const serviceLoads = createTtlCache<Awaited<ReturnType<LabelContext["service"]>>>(underWay);
  return {
    async admin(shop, maxWaitMs) {
      const stamp = await stamps.admin(shop);
      const key = `${shop}|${maxWaitMs ?? ""}`;
      if (stamp === null) return adminLoads.get(key, () => loadAdmin(shop, maxWaitMs));
      return admins.get(`${key}|${stamp}`, () => loadAdmin(shop, maxWaitMs));
    },
    async service(shop, environment) {
      const stamp = await stamps.service(shop, environment);
      const key = `${shop}|${environment}`;
      if (stamp === null) return serviceLoads.get(key, () => loadService(shop, environment));
      return services.get(`${key}|${stamp}`, () => loadService(shop, environment));
    },
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
