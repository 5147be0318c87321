/** Builders of orders in the shape of ORDER_FOR_LABEL_QUERY's result, for tests and the preview's fixtures. */
import type { OrderForLabel } from "../shopify/operations/order-for-label";

export interface TestLine {
  title: string;
  quantity: number;
  /** Line total after discounts, before taxes, presentment money. */
  total: string;
  currentQuantity?: number;
  remaining?: number;
  weight?: { value: number; unit: string } | null;
  hsCode?: string | null;
  origin?: string | null;
  giftCard?: boolean;
  requiresShipping?: boolean;
  /** The product's id (a gid); none for a custom item. */
  productId?: string | null;
}

export function testOrder(options: {
  name?: string;
  country?: string;
  zip?: string;
  currency?: string;
  shipping?: string;
  lines?: TestLine[];
  address?: Partial<NonNullable<OrderForLabel["shippingAddress"]>> | null;
  email?: string | null;
  phone?: string | null;
  cancelled?: boolean;
}): OrderForLabel {
  const currency = options.currency ?? "EUR";
  const lines = options.lines ?? [{ title: "Book", quantity: 1, total: "20.00", weight: { value: 500, unit: "GRAMS" }, hsCode: "490199", origin: "FR" }];
  const money = (amount: string) => ({ shopMoney: { amount, currencyCode: "EUR" }, presentmentMoney: { amount, currencyCode: currency } });
  return {
    id: "gid://shopify/Order/1",
    name: options.name ?? "#1001",
    email: options.email === undefined ? "client@example.com" : options.email,
    phone: options.phone ?? null,
    cancelledAt: options.cancelled ? "2026-11-20T10:00:00Z" : null,
    displayFulfillmentStatus: "UNFULFILLED",
    currencyCode: "EUR",
    presentmentCurrencyCode: currency,
    shippingAddress:
      options.address === null
        ? null
        : {
            firstName: "Zoé",
            lastName: "Martin",
            name: "Zoé Martin",
            company: null,
            address1: "5 avenue Foch",
            address2: null,
            city: "Lyon",
            zip: options.zip ?? "69006",
            provinceCode: null,
            countryCodeV2: options.country ?? "FR",
            phone: null,
            ...options.address,
          },
    shippingLine: { title: "Standard" },
    totalShippingPriceSet: money(options.shipping ?? "4.90"),
    lineItems: {
      nodes: lines.map((line, index) => ({
        id: `gid://shopify/LineItem/${index + 1}`,
        title: line.title,
        name: line.title,
        sku: null,
        quantity: line.quantity,
        currentQuantity: line.currentQuantity ?? line.quantity,
        requiresShipping: line.requiresShipping ?? true,
        isGiftCard: line.giftCard ?? false,
        priceAfterAllDiscountsBeforeTaxesSet: money(line.total),
        product: line.productId ? { id: line.productId } : null,
        variant: {
          id: `gid://shopify/ProductVariant/${index + 1}`,
          inventoryItem: {
            id: `gid://shopify/InventoryItem/${index + 1}`,
            harmonizedSystemCode: line.hsCode ?? null,
            countryCodeOfOrigin: line.origin ?? null,
            requiresShipping: line.requiresShipping ?? true,
            measurement: { weight: line.weight === undefined ? { value: 500, unit: "GRAMS" } : line.weight },
          },
        },
      })),
    },
    fulfillmentOrders: {
      nodes: [
        {
          id: "gid://shopify/FulfillmentOrder/1",
          status: "OPEN",
          supportedActions: [{ action: "CREATE_FULFILLMENT" }],
          assignedLocation: { name: "Paris", countryCode: "FR" },
          lineItems: {
            nodes: lines.map((line, index) => ({
              id: `gid://shopify/FulfillmentOrderLineItem/${index + 1}`,
              remainingQuantity: line.remaining ?? line.currentQuantity ?? line.quantity,
              totalQuantity: line.quantity,
              lineItem: { id: `gid://shopify/LineItem/${index + 1}` },
            })),
          },
        },
      ],
    },
  };
}
