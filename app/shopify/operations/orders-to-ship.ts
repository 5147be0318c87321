import { z } from "zod";
import type { OrdersToShipQuery } from "../../types/admin.generated";
import { runAdmin, type AdminGraphqlClient, type MatchesGenerated } from "../admin-client";

export const ORDERS_TO_SHIP_QUERY = `#graphql
  query OrdersToShip($first: Int, $last: Int, $after: String, $before: String, $query: String) {
    orders(
      first: $first
      last: $last
      after: $after
      before: $before
      query: $query
      sortKey: CREATED_AT
      reverse: true
    ) {
      nodes {
        id
        name
        createdAt
        displayFulfillmentStatus
        totalWeight
        shippingAddress {
          city
          countryCodeV2
        }
      }
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
    }
  }
`;

const orderRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  displayFulfillmentStatus: z.string(),
  totalWeight: z
    .union([z.string(), z.number()])
    .nullish()
    .transform((value) => (value == null ? null : Number(value))),
  shippingAddress: z.object({ city: z.string().nullish(), countryCodeV2: z.string().nullish() }).nullish(),
});
export type OrderToShip = z.infer<typeof orderRowSchema>;

const dataSchema = z.object({
  orders: z.object({
    nodes: z.array(orderRowSchema),
    pageInfo: z.object({
      hasNextPage: z.boolean(),
      hasPreviousPage: z.boolean(),
      startCursor: z.string().nullish(),
      endCursor: z.string().nullish(),
    }),
  }),
});

const _generatedShapeIsAccepted: MatchesGenerated<OrdersToShipQuery, typeof dataSchema> = true;

export const ORDERS_PAGE_SIZE = 25;

/** Shopify search syntax for open orders that still need shipping, optionally narrowed to an order name. */
export function ordersToShipSearch(nameFilter?: string): string {
  // "unfulfilled" = nothing shipped yet or partially shipped: both still need a parcel.
  const parts = ["fulfillment_status:unfulfilled", "status:open"];
  const name = nameFilter?.trim().replace(/^#/, "").replace(/[^\p{L}\p{N}_-]/gu, "");
  if (name) parts.push(`name:${name}`);
  return parts.join(" ");
}

export async function fetchOrdersToShip(
  admin: AdminGraphqlClient,
  options: { after?: string; before?: string; name?: string },
) {
  const variables = options.before
    ? { last: ORDERS_PAGE_SIZE, before: options.before, query: ordersToShipSearch(options.name) }
    : { first: ORDERS_PAGE_SIZE, after: options.after ?? null, query: ordersToShipSearch(options.name) };
  const data = await runAdmin(admin, "OrdersToShip", ORDERS_TO_SHIP_QUERY, variables, dataSchema);
  return data.orders;
}
