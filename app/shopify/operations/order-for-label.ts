import { z } from "zod";
import type {
  OrderForLabelFulfillmentOrderLinesQuery,
  OrderForLabelFulfillmentOrdersQuery,
  OrderForLabelLineItemsQuery,
  OrderForLabelQuery,
} from "../../types/admin.generated";
import { runAdmin, type AdminGraphqlClient, type MatchesGenerated } from "../admin-client";
import { pageInfoSchema, readToEnd } from "./paging";

/**
 * One order, with what a label needs: address, items with customs data and weights, shipping paid, what remains.
 *
 * Page sizes are set for the orders merchants label (decision 0071): Shopify reserves the *requested* cost (page size
 * x what one item costs) before running a query, so a query sized for the largest order costs every order that much.
 * The first page holds up to 3 line items and 1 fulfillment order (3 lines each); larger orders are read on with the
 * follow-up queries below, so no line is ever dropped.
 */
export const ORDER_FOR_LABEL_QUERY = `#graphql
  query OrderForLabel($id: ID!) {
    order(id: $id) {
      id
      name
      email
      phone
      cancelledAt
      displayFulfillmentStatus
      currencyCode
      presentmentCurrencyCode
      shippingAddress {
        firstName
        lastName
        name
        company
        address1
        address2
        city
        zip
        provinceCode
        countryCodeV2
        phone
      }
      tags
      shippingLine {
        title
        code
      }
      currentSubtotalPriceSet {
        shopMoney {
          amount
        }
      }
      totalShippingPriceSet {
        shopMoney {
          amount
          currencyCode
        }
        presentmentMoney {
          amount
          currencyCode
        }
      }
      lineItems(first: 3) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          id
          title
          name
          sku
          quantity
          currentQuantity
          requiresShipping
          isGiftCard
          priceAfterAllDiscountsBeforeTaxesSet {
            shopMoney {
              amount
              currencyCode
            }
            presentmentMoney {
              amount
              currencyCode
            }
          }
          product {
            id
          }
          variant {
            id
            inventoryItem {
              id
              harmonizedSystemCode
              countryCodeOfOrigin
              requiresShipping
              measurement {
                weight {
                  unit
                  value
                }
              }
            }
          }
        }
      }
      fulfillmentOrders(first: 1) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          id
          status
          deliveryMethod {
            methodType
          }
          supportedActions {
            action
          }
          assignedLocation {
            name
            countryCode
            location {
              id
            }
          }
          lineItems(first: 3) {
            pageInfo {
              hasNextPage
              endCursor
            }
            nodes {
              id
              remainingQuantity
              totalQuantity
              lineItem {
                id
              }
            }
          }
        }
      }
    }
  }
`;

/** The order's line items after the first page (orders with more lines than the first page holds). */
export const ORDER_LINE_ITEMS_PAGE_QUERY = `#graphql
  query OrderForLabelLineItems($id: ID!, $first: Int!, $after: String!) {
    order(id: $id) {
      lineItems(first: $first, after: $after) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          id
          title
          name
          sku
          quantity
          currentQuantity
          requiresShipping
          isGiftCard
          priceAfterAllDiscountsBeforeTaxesSet {
            shopMoney {
              amount
              currencyCode
            }
            presentmentMoney {
              amount
              currencyCode
            }
          }
          product {
            id
          }
          variant {
            id
            inventoryItem {
              id
              harmonizedSystemCode
              countryCodeOfOrigin
              requiresShipping
              measurement {
                weight {
                  unit
                  value
                }
              }
            }
          }
        }
      }
    }
  }
`;

/** The order's fulfillment orders after the first (split shipments, several locations, earlier fulfillments). */
export const ORDER_FULFILLMENT_ORDERS_PAGE_QUERY = `#graphql
  query OrderForLabelFulfillmentOrders($id: ID!, $first: Int!, $after: String!) {
    order(id: $id) {
      fulfillmentOrders(first: $first, after: $after) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          id
          status
          deliveryMethod {
            methodType
          }
          supportedActions {
            action
          }
          assignedLocation {
            name
            countryCode
            location {
              id
            }
          }
          lineItems(first: 3) {
            pageInfo {
              hasNextPage
              endCursor
            }
            nodes {
              id
              remainingQuantity
              totalQuantity
              lineItem {
                id
              }
            }
          }
        }
      }
    }
  }
`;

/** A fulfillment order's line items after its first page. */
export const FULFILLMENT_ORDER_LINE_ITEMS_PAGE_QUERY = `#graphql
  query OrderForLabelFulfillmentOrderLines($id: ID!, $first: Int!, $after: String!) {
    fulfillmentOrder(id: $id) {
      lineItems(first: $first, after: $after) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          id
          remainingQuantity
          totalQuantity
          lineItem {
            id
          }
        }
      }
    }
  }
`;

const money = z.object({ amount: z.string(), currencyCode: z.string() });
const moneyBag = z.object({ shopMoney: money, presentmentMoney: money });

const lineItemSchema = z.object({
  id: z.string(),
  title: z.string(),
  name: z.string(),
  sku: z.string().nullish(),
  quantity: z.number().int(),
  currentQuantity: z.number().int(),
  requiresShipping: z.boolean(),
  isGiftCard: z.boolean(),
  priceAfterAllDiscountsBeforeTaxesSet: moneyBag,
  product: z.object({ id: z.string() }).nullish(),
  variant: z
    .object({
      id: z.string(),
      inventoryItem: z.object({
        id: z.string(),
        harmonizedSystemCode: z.string().nullish(),
        countryCodeOfOrigin: z.string().nullish(),
        requiresShipping: z.boolean(),
        measurement: z.object({
          weight: z.object({ unit: z.string(), value: z.number() }).nullish(),
        }),
      }),
    })
    .nullish(),
});

const fulfillmentOrderLineSchema = z.object({
  id: z.string(),
  remainingQuantity: z.number().int(),
  totalQuantity: z.number().int(),
  lineItem: z.object({ id: z.string() }),
});

const fulfillmentOrderFields = {
  id: z.string(),
  status: z.string(),
  deliveryMethod: z.object({ methodType: z.string() }).nullish(),
  supportedActions: z.array(z.object({ action: z.string() })),
  assignedLocation: z.object({ name: z.string(), countryCode: z.string(), location: z.object({ id: z.string() }).nullish() }),
};

const orderFields = {
  id: z.string(),
  name: z.string(),
  email: z.string().nullish(),
  phone: z.string().nullish(),
  cancelledAt: z.string().nullish(),
  displayFulfillmentStatus: z.string(),
  currencyCode: z.string(),
  presentmentCurrencyCode: z.string(),
  shippingAddress: z
    .object({
      firstName: z.string().nullish(),
      lastName: z.string().nullish(),
      name: z.string().nullish(),
      company: z.string().nullish(),
      address1: z.string().nullish(),
      address2: z.string().nullish(),
      city: z.string().nullish(),
      zip: z.string().nullish(),
      provinceCode: z.string().nullish(),
      countryCodeV2: z.string().nullish(),
      phone: z.string().nullish(),
    })
    .nullish(),
  /** Read by the shipping rules (app/shipping/rules.ts): the checkout rate, the order's tags and value. */
  tags: z.array(z.string()).nullish(),
  shippingLine: z.object({ title: z.string(), code: z.string().nullish() }).nullish(),
  currentSubtotalPriceSet: z.object({ shopMoney: z.object({ amount: z.string() }) }).nullish(),
  totalShippingPriceSet: moneyBag,
};

/** The whole order as the app uses it: every line item and every fulfillment order, with all their lines. */
export const orderForLabelSchema = z.object({
  ...orderFields,
  lineItems: z.object({ nodes: z.array(lineItemSchema) }),
  fulfillmentOrders: z.object({
    nodes: z.array(z.object({ ...fulfillmentOrderFields, lineItems: z.object({ nodes: z.array(fulfillmentOrderLineSchema) }) })),
  }),
});
export type OrderForLabel = z.infer<typeof orderForLabelSchema>;
export type OrderLineItem = OrderForLabel["lineItems"]["nodes"][number];

const fulfillmentOrderPageSchema = z.object({
  nodes: z.array(z.object({ ...fulfillmentOrderFields, lineItems: z.object({ nodes: z.array(fulfillmentOrderLineSchema), pageInfo: pageInfoSchema }) })),
  pageInfo: pageInfoSchema,
});
const lineItemPageSchema = z.object({ nodes: z.array(lineItemSchema), pageInfo: pageInfoSchema });
const fulfillmentOrderLinePageSchema = z.object({ nodes: z.array(fulfillmentOrderLineSchema), pageInfo: pageInfoSchema });

const dataSchema = z.object({
  order: z.object({ ...orderFields, lineItems: lineItemPageSchema, fulfillmentOrders: fulfillmentOrderPageSchema }).nullish(),
});
const lineItemsPageData = z.object({ order: z.object({ lineItems: lineItemPageSchema }).nullish() });
const fulfillmentOrdersPageData = z.object({ order: z.object({ fulfillmentOrders: fulfillmentOrderPageSchema }).nullish() });
const fulfillmentOrderLinesPageData = z.object({ fulfillmentOrder: z.object({ lineItems: fulfillmentOrderLinePageSchema }).nullish() });
const _generatedShapeIsAccepted: MatchesGenerated<OrderForLabelQuery, typeof dataSchema> = true;
const _linesPageIsAccepted: MatchesGenerated<OrderForLabelLineItemsQuery, typeof lineItemsPageData> = true;
const _fulfillmentOrdersPageIsAccepted: MatchesGenerated<OrderForLabelFulfillmentOrdersQuery, typeof fulfillmentOrdersPageData> = true;
const _fulfillmentOrderLinesPageIsAccepted: MatchesGenerated<OrderForLabelFulfillmentOrderLinesQuery, typeof fulfillmentOrderLinesPageData> = true;

/**
 * The largest `$first` each follow-up query is sent with (at most ~450 requested points, under Shopify's 1,000 per
 * query; the emulator's contract test prices each document at this bound).
 */
export const PAGE_SIZE_LIMITS = {
  ORDER_LINE_ITEMS_PAGE_QUERY: 50,
  ORDER_FULFILLMENT_ORDERS_PAGE_QUERY: 10,
  FULFILLMENT_ORDER_LINE_ITEMS_PAGE_QUERY: 100,
} as const;

/** The order with every line item and fulfillment order line (paged past the first page when needed), or null. */
export async function fetchOrderForLabel(admin: AdminGraphqlClient, orderId: string): Promise<OrderForLabel | null> {
  const data = await runAdmin(admin, "OrderForLabel", ORDER_FOR_LABEL_QUERY, { id: orderId }, dataSchema);
  const order = data.order;
  if (!order) return null;
  const lineItems = await readToEnd(order.lineItems, `OrderForLabel ${order.name} line items`, async (after, first) => {
    const page = await runAdmin(admin, "OrderForLabelLineItems", ORDER_LINE_ITEMS_PAGE_QUERY, { id: orderId, first, after }, lineItemsPageData);
    return page.order?.lineItems ?? null;
  }, PAGE_SIZE_LIMITS.ORDER_LINE_ITEMS_PAGE_QUERY);
  const fulfillmentOrderPages = await readToEnd(order.fulfillmentOrders, `OrderForLabel ${order.name} fulfillment orders`, async (after, first) => {
    const page = await runAdmin(admin, "OrderForLabelFulfillmentOrders", ORDER_FULFILLMENT_ORDERS_PAGE_QUERY, { id: orderId, first, after }, fulfillmentOrdersPageData);
    return page.order?.fulfillmentOrders ?? null;
  }, PAGE_SIZE_LIMITS.ORDER_FULFILLMENT_ORDERS_PAGE_QUERY);
  const fulfillmentOrders = [];
  for (const fulfillmentOrder of fulfillmentOrderPages) {
    const lines = await readToEnd(fulfillmentOrder.lineItems, `OrderForLabel ${order.name} fulfillment order lines`, async (after, first) => {
      const page = await runAdmin(admin, "OrderForLabelFulfillmentOrderLines", FULFILLMENT_ORDER_LINE_ITEMS_PAGE_QUERY, { id: fulfillmentOrder.id, first, after }, fulfillmentOrderLinesPageData);
      return page.fulfillmentOrder?.lineItems ?? null;
    }, PAGE_SIZE_LIMITS.FULFILLMENT_ORDER_LINE_ITEMS_PAGE_QUERY);
    fulfillmentOrders.push({ ...fulfillmentOrder, lineItems: { nodes: lines } });
  }
  return orderForLabelSchema.parse({ ...order, lineItems: { nodes: lineItems }, fulfillmentOrders: { nodes: fulfillmentOrders } });
}
