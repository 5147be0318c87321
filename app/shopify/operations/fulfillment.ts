import { z } from "zod";
import type { FulfillmentContextQuery, FulfillmentCreateMutation } from "../../types/admin.generated";
import { assertNoUserErrors, runAdmin, type AdminGraphqlClient, type MatchesGenerated } from "../admin-client";

export const FULFILLMENT_CONTEXT_QUERY = `#graphql
  query FulfillmentContext($id: ID!) {
    order(id: $id) {
      id
      name
      fulfillments(first: 20) {
        id
        status
        trackingInfo(first: 5) {
          company
          number
          url
        }
      }
      fulfillmentOrders(first: 10) {
        nodes {
          id
          status
          deliveryMethod {
            methodType
          }
          supportedActions {
            action
          }
          lineItems(first: 50) {
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

const contextSchema = z.object({
  order: z
    .object({
      id: z.string(),
      name: z.string(),
      fulfillments: z.array(
        z.object({
          id: z.string(),
          status: z.string(),
          trackingInfo: z.array(
            z.object({ company: z.string().nullish(), number: z.string().nullish(), url: z.string().nullish() }),
          ),
        }),
      ),
      fulfillmentOrders: z.object({
        nodes: z.array(
          z.object({
            id: z.string(),
            status: z.string(),
            deliveryMethod: z.object({ methodType: z.string() }).nullish(),
            supportedActions: z.array(z.object({ action: z.string() })),
            lineItems: z.object({ nodes: z.array(z.object({ id: z.string(), remainingQuantity: z.number() })) }),
          }),
        ),
      }),
    })
    .nullish(),
});
const _contextMatches: MatchesGenerated<FulfillmentContextQuery, typeof contextSchema> = true;
export type FulfillmentContext = NonNullable<z.infer<typeof contextSchema>["order"]>;

export async function fetchFulfillmentContext(admin: AdminGraphqlClient, orderId: string): Promise<FulfillmentContext | null> {
  const data = await runAdmin(admin, "FulfillmentContext", FULFILLMENT_CONTEXT_QUERY, { id: orderId }, contextSchema);
  return data.order ?? null;
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
