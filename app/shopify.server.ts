/**
 * The one place shopifyApp() is configured. Admin API version pinned to 2026-10.
 * Webhooks are declared in shopify.app.toml (app-specific subscriptions), not registered here.
 */
import "@shopify/shopify-app-remix/adapters/node";
import { ApiVersion, AppDistribution, LogSeverity, shopifyApp } from "@shopify/shopify-app-remix/server";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import { config } from "./config.server";
import prisma from "./db.server";
import { installDemoAdminEndpoint } from "./demo/admin-endpoint.server";
import { installAdminTransport } from "./shopify/admin-transport.server";
import { databaseKind } from "./db-url";
import { useShopifyBudget } from "./shopify/admin-client";
import { createDatabaseShopifyBudget } from "./shopify/budget-store.server";
import { moduleLogger } from "./observability/logger.server";

export const API_VERSION = ApiVersion.October26;

const env = config();

// Admin GraphQL documents go through the lean transport (decision 0213); demo mode's rewrite wraps it.
installAdminTransport();

if (env.ETIQUETTE_DEMO && env.SHOPIFY_ADMIN_EMULATOR_URL) {
  // Demo only (refused in production by config): the same Admin client code, pointed at the local emulator.
  installDemoAdminEndpoint(env.SHOPIFY_ADMIN_EMULATOR_URL);
}

// One Shopify budget per shop for every worker and instance (decision 0180): Admin calls are paced through the database.
useShopifyBudget(createDatabaseShopifyBudget({ db: prisma, dialect: databaseKind(env.DATABASE_URL) }));

// LOG_LEVEL (pino's names) as the Shopify library's severities; its lines go to the app's JSON log.
const LOG_LEVELS = {
  trace: LogSeverity.Debug,
  debug: LogSeverity.Debug,
  info: LogSeverity.Info,
  warn: LogSeverity.Warning,
  error: LogSeverity.Error,
  fatal: LogSeverity.Error,
  silent: LogSeverity.Error,
} as const;

function shopifyLibraryLog(severity: LogSeverity, message: string): void {
  const log = moduleLogger("shopify-library");
  if (severity === LogSeverity.Error) log.error(message);
  else if (severity === LogSeverity.Warning) log.warn(message);
  else if (severity === LogSeverity.Info) log.info(message);
  else log.debug(message);
}

const shopify = shopifyApp({
  apiKey: env.SHOPIFY_API_KEY,
  apiSecretKey: env.SHOPIFY_API_SECRET,
  apiVersion: API_VERSION,
  scopes: env.SCOPES?.split(",").map((scope) => scope.trim()),
  appUrl: env.SHOPIFY_APP_URL,
  authPathPrefix: "/auth",
  sessionStorage: new PrismaSessionStorage(prisma),
  distribution: AppDistribution.AppStore,
  isEmbeddedApp: true,
  logger: { level: LOG_LEVELS[env.LOG_LEVEL], log: shopifyLibraryLog },
  future: { unstable_newEmbeddedAuthStrategy: true, expiringOfflineAccessTokens: true },
  ...(env.SHOP_CUSTOM_DOMAIN ? { customShopDomains: [env.SHOP_CUSTOM_DOMAIN] } : {}),
});

export default shopify;
export const addDocumentResponseHeaders = shopify.addDocumentResponseHeaders;
export const authenticate = shopify.authenticate;
export const unauthenticated = shopify.unauthenticated;
export const login = shopify.login;
export const sessionStorage = shopify.sessionStorage;
