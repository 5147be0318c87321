import { z } from "zod";
import type {
  FulfillmentContextFulfillmentOrdersQuery,
  FulfillmentContextFulfillmentsQuery,
  FulfillmentContextLinesQuery,
  FulfillmentContextQuery,
  FulfillmentContextTrackingQuery,
  FulfillmentCreateMutation,
} from "../../types/admin.generated";
import { AdminApiError, assertNoUserErrors, runAdmin, type AdminGraphqlClient, type MatchesGenerated } from "../admin-client";
import { pageInfoSchema, readToEnd } from "./paging";

/**
 * What pushing a label needs: the order's fulfillments with their tracking (to adopt one carrying the label's number,
 * or to add a parcel's number to the latest) and its fulfillment orders (which ones can take the label).
 *
 * Sized for the orders being labelled (decision 0071): 2 fulfillments of 2 tracking numbers, 1 fulfillment order of 3
 * lines. `fulfillmentsCount` and the page infos say when there is more; the rest is then read with the queries below,
 * so the check for an existing fulfillment never misses one.
 */
export const FULFILLMENT_CONTEXT_QUERY = `#graphql
  query FulfillmentContext($id: ID!) {
    order(id: $id) {
      id
      name
      fulfillmentsCount {
        count
      }
      fulfillments(first: 2) {
        id
        status
        trackingInfo(first: 2) {
          company
          number
          url
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
          lineItems(first: 3) {
            pageInfo {
              hasNextPage
              endCursor
            }
            nodes {
              id
              remainingQuantity
            }
          }
        }
      }
    }
  }
`;

/** All of an order's fulfillments, when it has more than the first query reads (one call, sized by the count). */
export const FULFILLMENT_CONTEXT_FULFILLMENTS_QUERY = `#graphql
  query FulfillmentContextFulfillments($id: ID!, $first: Int!) {
    order(id: $id) {
      fulfillments(first: $first) {
        id
        status
        trackingInfo(first: 2) {
          company
          number
          url
        }
      }
    }
  }
`;

/** Every tracking number of one fulfillment (read when its first page came back full). */
export const FULFILLMENT_TRACKING_QUERY = `#graphql
  query FulfillmentContextTracking($id: ID!) {
    fulfillment(id: $id) {
      id
      trackingInfo(first: 100) {
        company
        number
        url
      }
    }
  }
`;

/** The order's fulfillment orders after the first. */
export const FULFILLMENT_CONTEXT_FULFILLMENT_ORDERS_QUERY = `#graphql
  query FulfillmentContextFulfillmentOrders($id: ID!, $first: Int!, $after: String!) {
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
          lineItems(first: 3) {
            pageInfo {
              hasNextPage
              endCursor
            }
            nodes {
              id
              remainingQuantity
            }
          }
        }
      }
    }
  }
`;

/** A fulfillment order's lines after its first page. */
export const FULFILLMENT_CONTEXT_LINES_QUERY = `#graphql
  query FulfillmentContextLines($id: ID!, $first: Int!, $after: String!) {
    fulfillmentOrder(id: $id) {
      lineItems(first: $first, after: $after) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          id
          remainingQuantity
        }
      }
    }
  }
`;

const trackingSchema = z.object({ company: z.string().nullish(), number: z.string().nullish(), url: z.string().nullish() });
const fulfillmentSchema = z.object({ id: z.string(), status: z.string(), trackingInfo: z.array(trackingSchema) });
const contextLineSchema = z.object({ id: z.string(), remainingQuantity: z.number() });
const contextLinePageSchema = z.object({ nodes: z.array(contextLineSchema), pageInfo: pageInfoSchema });
const contextFulfillmentOrderFields = {
  id: z.string(),
  status: z.string(),
  deliveryMethod: z.object({ methodType: z.string() }).nullish(),
  supportedActions: z.array(z.object({ action: z.string() })),
};
const contextFulfillmentOrderPageSchema = z.object({
  nodes: z.array(z.object({ ...contextFulfillmentOrderFields, lineItems: contextLinePageSchema })),
  pageInfo: pageInfoSchema,
});

const contextSchema = z.object({
  order: z
    .object({
      id: z.string(),
      name: z.string(),
      fulfillmentsCount: z.object({ count: z.number().int() }).nullish(),
      fulfillments: z.array(fulfillmentSchema),
      fulfillmentOrders: contextFulfillmentOrderPageSchema,
    })
    .nullish(),
});
const fulfillmentsData = z.object({ order: z.object({ fulfillments: z.array(fulfillmentSchema) }).nullish() });
const trackingData = z.object({ fulfillment: z.object({ id: z.string(), trackingInfo: z.array(trackingSchema) }).nullish() });
const fulfillmentOrdersData = z.object({ order: z.object({ fulfillmentOrders: contextFulfillmentOrderPageSchema }).nullish() });
const linesData = z.object({ fulfillmentOrder: z.object({ lineItems: contextLinePageSchema }).nullish() });
const _contextMatches: MatchesGenerated<FulfillmentContextQuery, typeof contextSchema> = true;
const _fulfillmentsMatch: MatchesGenerated<FulfillmentContextFulfillmentsQuery, typeof fulfillmentsData> = true;
const _trackingMatches: MatchesGenerated<FulfillmentContextTrackingQuery, typeof trackingData> = true;
const _fulfillmentOrdersMatch: MatchesGenerated<FulfillmentContextFulfillmentOrdersQuery, typeof fulfillmentOrdersData> = true;
const _linesMatch: MatchesGenerated<FulfillmentContextLinesQuery, typeof linesData> = true;

export interface FulfillmentContext {
  id: string;
  name: string;
  fulfillments: z.infer<typeof fulfillmentSchema>[];
  fulfillmentOrders: {
    nodes: (Omit<z.infer<typeof contextFulfillmentOrderPageSchema>["nodes"][number], "lineItems"> & { lineItems: { nodes: z.infer<typeof contextLineSchema>[] } })[];
  };
}

/** The largest `$first` each follow-up query is sent with (the emulator's contract test prices them at it). */
export const PAGE_SIZE_LIMITS = {
  FULFILLMENT_CONTEXT_FULFILLMENTS_QUERY: 250,
  FULFILLMENT_CONTEXT_FULFILLMENT_ORDERS_QUERY: 10,
  FULFILLMENT_CONTEXT_LINES_QUERY: 100,
} as const;

/** Tracking lists read with `trackingInfo(first: 2)`: a full one may have more. */
const TRACKING_FIRST_PAGE = 2;
/** Shopify's `fulfillments(first:)` is a plain list (no cursor): its count sizes the second read. */
const MAX_FULFILLMENTS = PAGE_SIZE_LIMITS.FULFILLMENT_CONTEXT_FULFILLMENTS_QUERY;

/** The order's fulfillments (all, with all tracking numbers) and fulfillment orders (all, with all lines), or null. */
export async function fetchFulfillmentContext(admin: AdminGraphqlClient, orderId: string): Promise<FulfillmentContext | null> {
  const data = await runAdmin(admin, "FulfillmentContext", FULFILLMENT_CONTEXT_QUERY, { id: orderId }, contextSchema);
  const order = data.order;
  if (!order) return null;
  let fulfillments = order.fulfillments;
  const count = order.fulfillmentsCount?.count ?? fulfillments.length;
  if (count > fulfillments.length) {
    if (count > MAX_FULFILLMENTS) throw new AdminApiError("shape", `FulfillmentContext: order ${order.name} has ${count} fulfillments; not read`);
    const more = await runAdmin(admin, "FulfillmentContextFulfillments", FULFILLMENT_CONTEXT_FULFILLMENTS_QUERY, { id: orderId, first: count }, fulfillmentsData);
    fulfillments = more.order?.fulfillments ?? fulfillments;
  }
  const complete = [];
  for (const fulfillment of fulfillments) {
    if (fulfillment.trackingInfo.length < TRACKING_FIRST_PAGE) {
      complete.push(fulfillment);
      continue;
    }
    const full = await runAdmin(admin, "FulfillmentContextTracking", FULFILLMENT_TRACKING_QUERY, { id: fulfillment.id }, trackingData);
    complete.push({ ...fulfillment, trackingInfo: full.fulfillment?.trackingInfo ?? fulfillment.trackingInfo });
  }
  const fulfillmentOrderPages = await readToEnd(order.fulfillmentOrders, `FulfillmentContext ${order.name} fulfillment orders`, async (after, first) => {
    const page = await runAdmin(admin, "FulfillmentContextFulfillmentOrders", FULFILLMENT_CONTEXT_FULFILLMENT_ORDERS_QUERY, { id: orderId, first, after }, fulfillmentOrdersData);
    return page.order?.fulfillmentOrders ?? null;
  }, PAGE_SIZE_LIMITS.FULFILLMENT_CONTEXT_FULFILLMENT_ORDERS_QUERY);
  const fulfillmentOrders: FulfillmentContext["fulfillmentOrders"]["nodes"] = [];
  for (const fulfillmentOrder of fulfillmentOrderPages) {
    const lines = await readToEnd(fulfillmentOrder.lineItems, `FulfillmentContext ${order.name} fulfillment order lines`, async (after, first) => {
      const page = await runAdmin(admin, "FulfillmentContextLines", FULFILLMENT_CONTEXT_LINES_QUERY, { id: fulfillmentOrder.id, first, after }, linesData);
      return page.fulfillmentOrder?.lineItems ?? null;
    }, PAGE_SIZE_LIMITS.FULFILLMENT_CONTEXT_LINES_QUERY);
    fulfillmentOrders.push({ ...fulfillmentOrder, lineItems: { nodes: lines } });
  }
  return { id: order.id, name: order.name, fulfillments: complete, fulfillmentOrders: { nodes: fulfillmentOrders } };
}

export const FULFILLMENT_CREATE_MUTATION = `#graphql
  mutation FulfillmentCreate($fulfillment: FulfillmentInput!) {
    fulfillmentCreate(fulfillment: $fulfillment) {
      fulfillment {
        id
        status
      }
      userErrors {
        field
        message
      }
    }
  }
`;

const createSchema = z.object({
  fulfillmentCreate: z
    .object({
      fulfillment: z.object({ id: z.string(), status: z.string() }).nullish(),
      userErrors: z.array(z.object({ field: z.array(z.string()).nullish(), message: z.string() })),
    })
    .nullish(),
});
const _createMatches: MatchesGenerated<FulfillmentCreateMutation, typeof createSchema> = true;

export interface FulfillmentCreateInput {
  fulfillmentOrderIds: readonly string[];
  tracking: { company: string; number: string; url?: string };
  notifyCustomer: boolean;
}

export async function createFulfillment(admin: AdminGraphqlClient, input: FulfillmentCreateInput): Promise<{ id: string }> {
  const data = await runAdmin(
    admin,
    "FulfillmentCreate",
    FULFILLMENT_CREATE_MUTATION,
    {
      fulfillment: {
        // No line items listed: Shopify fulfils everything that remains on each fulfillment order.
        lineItemsByFulfillmentOrder: input.fulfillmentOrderIds.map((fulfillmentOrderId) => ({ fulfillmentOrderId })),
        trackingInfo: {
          company: input.tracking.company,
          number: input.tracking.number,
          ...(input.tracking.url ? { url: input.tracking.url } : {}),
        },
        notifyCustomer: input.notifyCustomer,
      },
    },
    createSchema,
  );
  const payload = data.fulfillmentCreate;
  assertNoUserErrors("FulfillmentCreate", payload?.userErrors ?? []);
  if (!payload?.fulfillment) throw new Error("FulfillmentCreate returned no fulfillment and no error");
  return { id: payload.fulfillment.id };
}

export const ORDER_METAFIELDS_SET_MUTATION = `#graphql
  mutation OrderLabelMetafieldSet($metafields: [MetafieldsSetInput!]!) {
    metafieldsSet(metafields: $metafields) {
      metafields {
        id
      }
      userErrors {
        field
        message
      }
    }
  }
`;

const metafieldsSchema = z.object({
  metafieldsSet: z
    .object({
      metafields: z.array(z.object({ id: z.string() })).nullish(),
      userErrors: z.array(z.object({ field: z.array(z.string()).nullish(), message: z.string() })),
    })
    .nullish(),
});

export const LABEL_METAFIELD = { namespace: "$app", key: "etiquette_label" } as const;

/** Writes the small label summary (JSON metafield) on the order, in the app's reserved namespace. */
/** Writes the app's label summary (any JSON document) on the order. */
export async function setOrderLabelMetafield(admin: AdminGraphqlClient, orderId: string, summary: unknown): Promise<void> {
  const data = await runAdmin(
    admin,
    "OrderLabelMetafieldSet",
    ORDER_METAFIELDS_SET_MUTATION,
    { metafields: [{ ownerId: orderId, ...LABEL_METAFIELD, type: "json", value: JSON.stringify(summary) }] },
    metafieldsSchema,
  );
  assertNoUserErrors("OrderLabelMetafieldSet", data.metafieldsSet?.userErrors ?? []);
}

/** The most metafields one `metafieldsSet` call takes (Shopify's limit). */
export const METAFIELDS_PER_SET = 25;

/**
 * Writes the app's label summary on several orders in one call (at most METAFIELDS_PER_SET; one per order), for the
 * price of one: a bulk job's summaries are written this way (decision 0185). All or nothing: a user error fails all.
 */
export async function setOrderLabelMetafields(admin: AdminGraphqlClient, summaries: readonly { orderId: string; summary: unknown }[]): Promise<void> {
  if (summaries.length === 0) return;
  if (summaries.length > METAFIELDS_PER_SET) throw new RangeError(`metafieldsSet takes at most ${METAFIELDS_PER_SET} metafields, not ${summaries.length}`);
  if (new Set(summaries.map((entry) => entry.orderId)).size !== summaries.length) throw new RangeError("one summary per order");
  const data = await runAdmin(
    admin,
    "OrderLabelMetafieldSet",
    ORDER_METAFIELDS_SET_MUTATION,
    { metafields: summaries.map((entry) => ({ ownerId: entry.orderId, ...LABEL_METAFIELD, type: "json", value: JSON.stringify(entry.summary) })) },
    metafieldsSchema,
  );
  assertNoUserErrors("OrderLabelMetafieldSet", data.metafieldsSet?.userErrors ?? []);
}

export const FULFILLMENT_TRACKING_UPDATE_MUTATION = `#graphql
  mutation FulfillmentTrackingUpdate($fulfillmentId: ID!, $trackingInfoInput: FulfillmentTrackingInput!, $notifyCustomer: Boolean) {
    fulfillmentTrackingInfoUpdate(fulfillmentId: $fulfillmentId, trackingInfoInput: $trackingInfoInput, notifyCustomer: $notifyCustomer) {
      fulfillment {
        id
      }
      userErrors {
        field
        message
      }
    }
  }
`;

const trackingUpdateSchema = z.object({
  fulfillmentTrackingInfoUpdate: z
    .object({
      fulfillment: z.object({ id: z.string() }).nullish(),
      userErrors: z.array(z.object({ field: z.array(z.string()).nullish(), message: z.string() })),
    })
    .nullish(),
});

/** Replaces a fulfillment's tracking with the given numbers and links (used to add an extra parcel's number). */
export async function updateFulfillmentTracking(
  admin: AdminGraphqlClient,
  input: { fulfillmentId: string; company: string; numbers: string[]; urls: string[]; notifyCustomer: boolean },
): Promise<void> {
  const data = await runAdmin(
    admin,
    "FulfillmentTrackingUpdate",
    FULFILLMENT_TRACKING_UPDATE_MUTATION,
    {
      fulfillmentId: input.fulfillmentId,
      trackingInfoInput: { company: input.company, numbers: input.numbers, urls: input.urls },
      notifyCustomer: input.notifyCustomer,
    },
    trackingUpdateSchema,
  );
  assertNoUserErrors("FulfillmentTrackingUpdate", data.fulfillmentTrackingInfoUpdate?.userErrors ?? []);
}
