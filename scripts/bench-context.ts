/**
 * A bulk item's clients for `npm run bench` (decision 0225): what building the shop's offline Admin client and its
 * label-service client costs per item, as every item did before, against taking them from the clients an app process
 * keeps for 30 s. Built as in production: the Shopify library's `unauthenticated.admin` (the offline session read
 * from Prisma's session storage), paced by the shop's budget; the label-service account read and its password
 * decrypted, then the client made. SQLite, nothing sent anywhere. Ideal: the kept clients, as an item now takes them
 * (one small statement each to check that what they were built from is unchanged, then a map lookup).
 */
import "@shopify/shopify-app-remix/adapters/node";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { ApiVersion, AppDistribution, shopifyApp } from "@shopify/shopify-app-remix/server";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import { createPrismaClient } from "../app/db.server";
import { createLabelServiceClient } from "../app/label-service";
import { loadLabelServiceCredentials } from "../app/labels/accounts.server";
import { createShopClientCache, databaseClientStamps } from "../app/labels/context.server";
import type { LabelEnvironment } from "../app/labels/environments";
import { createSecretBox } from "../app/security/secret-box.server";
import { withShopifyBudget } from "../app/shopify/admin-client";
import { migrateSqliteFile } from "../test/helpers/test-db";

const SHOP = "bench-context.myshopify.com";

export async function benchItemContext(dir: string, n: number) {
  const file = path.join(dir, "context.sqlite");
  migrateSqliteFile(file);
  const db = createPrismaClient(`file:${file}`);
  try {
    const box = createSecretBox(new Map([[1, randomBytes(32)]]), 1);
    await db.session.create({ data: { id: `offline_${SHOP}`, shop: SHOP, state: "bench", accessToken: "shpat_bench", scope: "read_orders,write_orders" } });
    await db.labelServiceAccount.create({ data: { shop: SHOP, environment: "staging", email: "bench@etiquette.test", passwordCiphertext: box.encrypt("bench-password").ciphertext, keyVersion: 1 } });
    const app = shopifyApp({
      apiKey: "bench-key",
      apiSecretKey: "bench-secret",
      appUrl: "https://app.test",
      apiVersion: ApiVersion.October26,
      sessionStorage: new PrismaSessionStorage(db),
      distribution: AppDistribution.AppStore,
      isEmbeddedApp: true,
      logger: { level: 0, log: () => undefined },
      future: { unstable_newEmbeddedAuthStrategy: true, expiringOfflineAccessTokens: true },
    });
    // What labelContextForShop built for every item before decision 0225 (offlineAdminFor, labelServiceClientFor).
    const loadAdmin = async (shop: string, maxWaitMs?: number) => withShopifyBudget((await app.unauthenticated.admin(shop)).admin, { shop, maxWaitMs });
    const loadService = async (shop: string, environment: LabelEnvironment) => {
      const credentials = (await loadLabelServiceCredentials(db, box, shop, environment))!;
      return createLabelServiceClient({ shop, environment, account: { baseUrl: "http://127.0.0.1:9", ...credentials }, options: { generateTimeoutMs: 1000, defaultTimeoutMs: 1000 } });
    };
    const kept = createShopClientCache({ loadAdmin, loadService, stamps: databaseClientStamps(db) });
    const perItem = async () => Promise.all([loadAdmin(SHOP, 30_000), loadService(SHOP, "staging")]);
    const fromKept = async () => Promise.all([kept.admin(SHOP, 30_000), kept.service(SHOP, "staging")]);
    const time = async (work: () => Promise<unknown>) => {
      for (let i = 0; i < 50; i++) await work();
      const start = performance.now();
      for (let i = 0; i < n; i++) await work();
      return performance.now() - start;
    };
    const heapBefore = process.memoryUsage().heapUsed;
    const ms = await time(perItem);
    const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
    const idealMs = await time(fromKept);
    return { name: "item clients, built", n, ms, idealMs, heapMb };
  } finally {
    await db.$disconnect();
  }
}
