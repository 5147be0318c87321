/**
 * The app's real Admin client (shopify-app-remix's `unauthenticated.admin`, i.e. @shopify/shopify-api's GraphQL
 * client) on the app's Admin transport, pointed at a running Shopify Admin emulator the same way demo mode does it.
 */
import "@shopify/shopify-app-remix/adapters/node";
import { ApiVersion, AppDistribution, shopifyApp } from "@shopify/shopify-app-remix/server";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import { installDemoAdminEndpoint } from "../../app/demo/admin-endpoint.server";
import type { PrismaClient } from "../../app/generated/prisma/client";

export async function realAdminFor(emulatorUrl: string, db: PrismaClient, shop: string, accessToken: string) {
  installDemoAdminEndpoint(emulatorUrl);
  await db.session.upsert({
    where: { id: `offline_${shop}` },
    create: { id: `offline_${shop}`, shop, state: "test", accessToken, scope: "read_orders,write_orders" },
    update: { accessToken },
  });
  const app = shopifyApp({
    apiKey: "test-key",
    apiSecretKey: "test-secret",
    appUrl: "https://app.test",
    apiVersion: ApiVersion.October26,
    sessionStorage: new PrismaSessionStorage(db),
    distribution: AppDistribution.AppStore,
    isEmbeddedApp: true,
    future: { unstable_newEmbeddedAuthStrategy: true },
  });
  const { admin } = await app.unauthenticated.admin(shop);
  return admin;
}
