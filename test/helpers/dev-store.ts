/**
 * For tests of the Shopify step itself: a development store whose merchant turned "fulfil with test labels" on, so a
 * staging label is pushed to Shopify (decision 0170; the default, skipping, is proven in shopify-step.server.test.ts).
 */
import type { PrismaClient } from "../../app/generated/prisma/client";

/** A mockAdmin handler answering the shop's plan as a partner development store. */
export const developmentStorePlan = { ShopPlan: () => ({ data: { shop: { plan: { partnerDevelopment: true } } } }) };

export async function fulfilTestLabelsOn(db: PrismaClient, ...shops: string[]): Promise<void> {
  for (const shop of shops) {
    await db.shopSettings.upsert({ where: { shop }, create: { shop, fulfilTestLabels: true }, update: { fulfilTestLabels: true } });
  }
}
