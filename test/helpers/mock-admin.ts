/**
 * An Admin GraphQL client for unit tests: answers by operation name, and first validates every document against
 * the pinned 2026-10 schema, so a document Shopify would reject fails here too.
 */
import { getOperationAST, parse, validate } from "graphql";
import { loadAdminSchema } from "../../shopify-schema/load";
import type { AdminGraphqlClient } from "../../app/shopify/admin-client";

export type OperationHandler = (variables: Record<string, unknown>) => unknown;

export interface MockAdmin extends AdminGraphqlClient {
  calls: { operationName: string; variables: Record<string, unknown> }[];
}

export function mockAdmin(handlers: Record<string, OperationHandler>): MockAdmin {
  const calls: MockAdmin["calls"] = [];
  return {
    calls,
    async graphql(query, options) {
      const document = parse(query);
      const errors = validate(loadAdminSchema(), document);
      if (errors.length) throw new Error(`Invalid Admin document: ${errors.map((error) => error.message).join("; ")}`);
      const operationName = getOperationAST(document)?.name?.value;
      if (!operationName) throw new Error("Admin documents must be named operations");
      const variables = options?.variables ?? {};
      calls.push({ operationName, variables });
      const handler = handlers[operationName];
      if (!handler) throw new Error(`No mock for operation ${operationName}`);
      const result = handler(variables);
      const body = result instanceof Response ? result : Response.json(result);
      return body;
    },
  };
}

/**
 * The FulfillmentContext answer for an order not fulfilled yet, with one open shipping fulfillment order of one line
 * (ids end with `n`).
 */
export function unfulfilledOrderContext(order: { id: string; name: string; n: number }) {
  return {
    data: {
      order: {
        id: order.id,
        name: order.name,
        fulfillments: [],
        fulfillmentOrders: {
          nodes: [
            {
              id: `gid://shopify/FulfillmentOrder/${order.n}`,
              status: "OPEN",
              deliveryMethod: { methodType: "SHIPPING" },
              supportedActions: [{ action: "CREATE_FULFILLMENT" }],
              lineItems: { nodes: [{ id: `gid://shopify/FulfillmentOrderLineItem/${order.n}`, remainingQuantity: 1 }], pageInfo: { hasNextPage: false } },
            },
          ],
          pageInfo: { hasNextPage: false },
        },
      },
    },
  };
}
