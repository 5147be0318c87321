import { z } from "zod";
import type { OrderForLabelQuery } from "../../types/admin.generated";
import { runAdmin, type AdminGraphqlClient, type MatchesGenerated } from "../admin-client";

/** One order, with what a label needs: address, items with customs data and weights, shipping paid, what remains. */
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
      shippingLine {
        title
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
      lineItems(first: 50) {
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
      fulfillmentOrders(first: 5) {
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
          }
          lineItems(first: 50) {
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

const money = z.object({ amount: z.string(), currencyCode: z.string() });
const moneyBag = z.object({ shopMoney: money, presentmentMoney: money });

export const orderForLabelSchema = z.object({
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
  shippingLine: z.object({ title: z.string() }).nullish(),
  totalShippingPriceSet: moneyBag,
  lineItems: z.object({
    nodes: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        name: z.string(),
        sku: z.string().nullish(),
        quantity: z.number().int(),
        currentQuantity: z.number().int(),
        requiresShipping: z.boolean(),
        isGiftCard: z.boolean(),
        priceAfterAllDiscountsBeforeTaxesSet: moneyBag,
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
      }),
    ),
  }),
  fulfillmentOrders: z.object({
    nodes: z.array(
      z.object({
        id: z.string(),
        status: z.string(),
        deliveryMethod: z.object({ methodType: z.string() }).nullish(),
        supportedActions: z.array(z.object({ action: z.string() })),
        assignedLocation: z.object({ name: z.string(), countryCode: z.string() }),
        lineItems: z.object({
          nodes: z.array(
            z.object({
              id: z.string(),
              remainingQuantity: z.number().int(),
              totalQuantity: z.number().int(),
              lineItem: z.object({ id: z.string() }),
            }),
          ),
        }),
      }),
    ),
  }),
});
export type OrderForLabel = z.infer<typeof orderForLabelSchema>;
export type OrderLineItem = OrderForLabel["lineItems"]["nodes"][number];

const dataSchema = z.object({ order: orderForLabelSchema.nullish() });
const _generatedShapeIsAccepted: MatchesGenerated<OrderForLabelQuery, typeof dataSchema> = true;

export async function fetchOrderForLabel(admin: AdminGraphqlClient, orderId: string): Promise<OrderForLabel | null> {
  const data = await runAdmin(admin, "OrderForLabel", ORDER_FOR_LABEL_QUERY, { id: orderId }, dataSchema);
  return data.order ?? null;
}
