import { z } from "zod";
import type { OrderRowLinesQuery, OrderRowLocationsQuery, OrdersToShipQuery } from "../../types/admin.generated";
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
      edges {
        cursor
        node {
          id
          name
          createdAt
          displayFulfillmentStatus
          totalWeight
          shippingAddress {
            name
            city
            zip
            countryCodeV2
          }
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
  shippingAddress: z
    .object({ name: z.string().nullish(), city: z.string().nullish(), zip: z.string().nullish(), countryCodeV2: z.string().nullish() })
    .nullish(),
});
export type OrderToShip = z.infer<typeof orderRowSchema>;

const dataSchema = z.object({
  orders: z.object({
    edges: z.array(z.object({ cursor: z.string(), node: orderRowSchema })),
    pageInfo: z.object({
      hasNextPage: z.boolean(),
      hasPreviousPage: z.boolean(),
      startCursor: z.string().nullish(),
      endCursor: z.string().nullish(),
    }),
  }),
});
export type OrdersPage = z.infer<typeof dataSchema>["orders"];

const _generatedShapeIsAccepted: MatchesGenerated<OrdersToShipQuery, typeof dataSchema> = true;

export const ORDERS_PAGE_SIZE = 25;

/** Which orders Shopify is asked for: the open ones still to ship, or any order (labelled ones may be shipped). */
export type OrdersScope = "to_ship" | "any";

/**
 * The merchant's words as Shopify free-text terms (Shopify's `default` search: order name, customer, addresses...).
 * Characters that would turn a word into Shopify syntax (a field, a group, a quote, a negation, a connective) are
 * dropped, so "10 OR status:any" stays three plain words and can never widen the search.
 */
export function searchTerms(text: string | undefined): string[] {
  return (text ?? "")
    .split(/\s+/)
    .map((word) => word.replace(/[^\p{L}\p{N}#._@'-]/gu, "").replace(/^[-']+/, "").replace(/'/g, ""))
    .filter((word) => word && !["AND", "OR", "NOT"].includes(word));
}

/** Shopify search syntax for a page of the orders list. */
export function ordersSearch(options: { text?: string; scope?: OrdersScope; minId?: string } = {}): string {
  // "unfulfilled" = nothing shipped yet or partially shipped: both still need a parcel.
  const parts = options.scope === "any" ? ["status:any"] : ["fulfillment_status:unfulfilled", "status:open"];
  const legacyId = options.minId?.split("/").pop();
  if (legacyId && /^[0-9]+$/.test(legacyId)) parts.push(`id:>=${legacyId}`);
  parts.push(...searchTerms(options.text));
  return parts.join(" ");
}

export async function fetchOrdersPage(
  admin: AdminGraphqlClient,
  options: { after?: string; before?: string; query: string; pageSize?: number },
): Promise<OrdersPage> {
  const size = options.pageSize ?? ORDERS_PAGE_SIZE;
  const variables = options.before
    ? { last: size, before: options.before, query: options.query }
    : { first: size, after: options.after ?? null, query: options.query };
  const data = await runAdmin(admin, "OrdersToShip", ORDERS_TO_SHIP_QUERY, variables, dataSchema);
  return data.orders;
}

/**
 * Whether the listed orders hold something to ship, read only for the rows shown (at most a page): line items cost
 * about 7 points per order, so the list does not read them for every order it scans.
 */
export const ORDER_ROW_LINES_QUERY = `#graphql
  query OrderRowLines($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on Order {
        id
        lineItems(first: 5) {
          nodes {
            requiresShipping
            isGiftCard
          }
          pageInfo {
            hasNextPage
          }
        }
      }
    }
  }
`;

const lineSchema = z.object({ requiresShipping: z.boolean(), isGiftCard: z.boolean() });
const linesDataSchema = z.object({
  nodes: z.array(
    z
      .object({
        id: z.string(),
        lineItems: z.object({ nodes: z.array(lineSchema), pageInfo: z.object({ hasNextPage: z.boolean() }) }),
      })
      .nullable(),
  ),
});
const _generatedLinesShapeIsAccepted: MatchesGenerated<OrderRowLinesQuery, typeof linesDataSchema> = true;

export interface OrderRowLines {
  lineItems: z.infer<typeof lineSchema>[];
  /** False when the order has more lines than were read. */
  complete: boolean;
}

export async function fetchOrderRowLines(admin: AdminGraphqlClient, ids: readonly string[]): Promise<Map<string, OrderRowLines>> {
  if (ids.length === 0) return new Map();
  const data = await runAdmin(admin, "OrderRowLines", ORDER_ROW_LINES_QUERY, { ids: [...ids] }, linesDataSchema);
  return new Map(
    data.nodes.flatMap((node) =>
      node ? [[node.id, { lineItems: node.lineItems.nodes, complete: !node.lineItems.pageInfo.hasNextPage }] as const] : [],
    ),
  );
}

/**
 * Where the listed orders ship from, read only for orders holding a label of one location (an order shipping from
 * several, decision 0115): the list then tells "1 of 2 labelled" from "labelled". Each fulfillment order's location,
 * status and whether Shopify still lets it be fulfilled; no line items.
 */
export const ORDER_ROW_LOCATIONS_QUERY = `#graphql
  query OrderRowLocations($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on Order {
        id
        fulfillmentOrders(first: 10) {
          nodes {
            status
            deliveryMethod {
              methodType
            }
            supportedActions {
              action
            }
            assignedLocation {
              name
              location {
                id
              }
            }
          }
        }
      }
    }
  }
`;

const rowFulfillmentOrderSchema = z.object({
  status: z.string(),
  deliveryMethod: z.object({ methodType: z.string() }).nullish(),
  supportedActions: z.array(z.object({ action: z.string() })),
  assignedLocation: z.object({ name: z.string(), location: z.object({ id: z.string() }).nullish() }),
});
const locationsDataSchema = z.object({
  nodes: z.array(z.object({ id: z.string(), fulfillmentOrders: z.object({ nodes: z.array(rowFulfillmentOrderSchema) }) }).nullable()),
});
const _generatedLocationsShapeIsAccepted: MatchesGenerated<OrderRowLocationsQuery, typeof locationsDataSchema> = true;

export type RowFulfillmentOrder = z.infer<typeof rowFulfillmentOrderSchema>;

export async function fetchOrderRowLocations(admin: AdminGraphqlClient, ids: readonly string[]): Promise<Map<string, RowFulfillmentOrder[]>> {
  if (ids.length === 0) return new Map();
  const data = await runAdmin(admin, "OrderRowLocations", ORDER_ROW_LOCATIONS_QUERY, { ids: [...ids] }, locationsDataSchema);
  return new Map(data.nodes.flatMap((node) => (node ? [[node.id, node.fulfillmentOrders.nodes] as const] : [])));
}

