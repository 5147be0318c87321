import { z } from "zod";
import type { ShopPlanQuery } from "../../types/admin.generated";
import { runAdmin, type AdminGraphqlClient, type MatchesGenerated } from "../admin-client";

/**
 * Whether the shop is a partner development store (`shop.plan.partnerDevelopment`, Admin API 2026-10): a store made
 * for testing, whose customers are not real buyers. Staging (test) labels may reach Shopify only there (decision 0170).
 */
export const SHOP_PLAN_QUERY = `#graphql
  query ShopPlan {
    shop {
      plan {
        partnerDevelopment
      }
    }
  }
`;

const dataSchema = z.object({ shop: z.object({ plan: z.object({ partnerDevelopment: z.boolean() }) }) });
const _generatedShapeIsAccepted: MatchesGenerated<ShopPlanQuery, typeof dataSchema> = true;

export async function fetchIsDevelopmentStore(admin: AdminGraphqlClient): Promise<boolean> {
  return (await runAdmin(admin, "ShopPlan", SHOP_PLAN_QUERY, {}, dataSchema)).shop.plan.partnerDevelopment;
}
