import { z } from "zod";
import type { OrderSkusQuery } from "../../types/admin.generated";
import { runAdmin, type AdminGraphqlClient, type MatchesGenerated } from "../admin-client";

/** The SKUs of some orders (first 10 lines each), for printing in pick order; 25 orders per call keeps the query cost near 300 points. */
export const ORDER_SKUS_QUERY = `#graphql
  query OrderSkus($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on Order {
        id
        lineItems(first: 10) {
          nodes {
            sku
          }
        }
      }
    }
  }
`;

const dataSchema = z.object({
  nodes: z.array(
    z
      .object({ id: z.string().optional(), lineItems: z.object({ nodes: z.array(z.object({ sku: z.string().nullish() })) }).optional() })
      .nullable(),
  ),
});
const _generatedShapeIsAccepted: MatchesGenerated<OrderSkusQuery, typeof dataSchema> = true;

export async function fetchOrderSkus(admin: AdminGraphqlClient, orderIds: readonly string[]): Promise<Map<string, string[]>> {
  const skus = new Map<string, string[]>();
  const unique = [...new Set(orderIds)];
  for (let start = 0; start < unique.length; start += 25) {
    const data = await runAdmin(admin, "OrderSkus", ORDER_SKUS_QUERY, { ids: unique.slice(start, start + 25) }, dataSchema);
    for (const node of data.nodes) {
      if (!node?.id) continue;
      skus.set(node.id, (node.lineItems?.nodes ?? []).map((line) => line.sku?.trim() ?? "").filter(Boolean));
    }
  }
  return skus;
}
