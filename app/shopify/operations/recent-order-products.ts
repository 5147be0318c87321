import { z } from "zod";
import type { RecentOrderProductsQuery } from "../../types/admin.generated";
import { runAdmin, type AdminGraphqlClient, type MatchesGenerated } from "../admin-client";

/**
 * The products of the shop's most recent orders (Customs descriptions lists them to be described in English): the
 * product's id and title per line item, nothing else.
 */
export const RECENT_ORDER_PRODUCTS_QUERY = `#graphql
  query RecentOrderProducts {
    orders(first: 25, sortKey: CREATED_AT, reverse: true, query: "status:any") {
      nodes {
        lineItems(first: 10) {
          nodes {
            title
            product {
              id
              title
            }
          }
        }
      }
    }
  }
`;

const dataSchema = z.object({
  orders: z.object({
    nodes: z.array(
      z.object({
        lineItems: z.object({
          nodes: z.array(z.object({ title: z.string(), product: z.object({ id: z.string(), title: z.string() }).nullish() })),
        }),
      }),
    ),
  }),
});

const _generatedShapeIsAccepted: MatchesGenerated<RecentOrderProductsQuery, typeof dataSchema> = true;

export interface SeenProduct {
  productId: string;
  title: string;
  /** How many of the recent orders hold it. */
  orderCount: number;
}

/** The distinct products of the last 25 orders, the most ordered first (then by title). */
export async function fetchRecentOrderProducts(admin: AdminGraphqlClient): Promise<SeenProduct[]> {
  const data = await runAdmin(admin, "RecentOrderProducts", RECENT_ORDER_PRODUCTS_QUERY, {}, dataSchema);
  const seen = new Map<string, SeenProduct>();
  for (const order of data.orders.nodes) {
    const inOrder = new Set<string>();
    for (const line of order.lineItems.nodes) {
      if (!line.product || inOrder.has(line.product.id)) continue;
      inOrder.add(line.product.id);
      const entry = seen.get(line.product.id) ?? { productId: line.product.id, title: line.product.title, orderCount: 0 };
      entry.orderCount += 1;
      seen.set(line.product.id, entry);
    }
  }
  return [...seen.values()].sort((a, b) => b.orderCount - a.orderCount || a.title.localeCompare(b.title));
}
