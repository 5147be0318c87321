import { z } from "zod";
import type { RecentOrderFactsQuery } from "../../types/admin.generated";
import { runAdmin, type AdminGraphqlClient, type MatchesGenerated } from "../admin-client";

/**
 * What the shipping rules are matched against, for the shop's most recent orders (Settings > Shipping rules >
 * Simulate). Order-level fields only: about 4 points per order, never the line items.
 */
export const RECENT_ORDER_FACTS_QUERY = `#graphql
  query RecentOrderFacts($after: String) {
    orders(first: 50, after: $after, sortKey: CREATED_AT, reverse: true, query: "status:any") {
      nodes {
        id
        name
        tags
        currentTotalWeight
        shippingLine {
          title
          code
        }
        shippingAddress {
          countryCodeV2
          zip
        }
        currentSubtotalPriceSet {
          shopMoney {
            amount
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

const factsSchema = z.object({
  id: z.string(),
  name: z.string(),
  tags: z.array(z.string()),
  currentTotalWeight: z
    .union([z.string(), z.number()])
    .nullish()
    .transform((value) => (value == null ? 0 : Number(value))),
  shippingLine: z.object({ title: z.string(), code: z.string().nullish() }).nullish(),
  shippingAddress: z.object({ countryCodeV2: z.string().nullish(), zip: z.string().nullish() }).nullish(),
  currentSubtotalPriceSet: z.object({ shopMoney: z.object({ amount: z.string() }) }).nullish(),
});
export type RecentOrderFacts = z.infer<typeof factsSchema>;

const dataSchema = z.object({
  orders: z.object({
    nodes: z.array(factsSchema),
    pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullish() }),
  }),
});

const _generatedShapeIsAccepted: MatchesGenerated<RecentOrderFactsQuery, typeof dataSchema> = true;

/** The `count` most recent orders (any status), newest first, in pages of 50. */
export async function fetchRecentOrderFacts(admin: AdminGraphqlClient, count = 100): Promise<RecentOrderFacts[]> {
  const orders: RecentOrderFacts[] = [];
  let after: string | null = null;
  while (orders.length < count) {
    const data: z.infer<typeof dataSchema> = await runAdmin(admin, "RecentOrderFacts", RECENT_ORDER_FACTS_QUERY, { after }, dataSchema);
    orders.push(...data.orders.nodes.slice(0, count - orders.length));
    if (!data.orders.pageInfo.hasNextPage || !data.orders.pageInfo.endCursor) break;
    after = data.orders.pageInfo.endCursor;
  }
  return orders;
}
