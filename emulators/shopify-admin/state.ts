/**
 * The emulator's in-memory store: one ShopState per seeded shop, JSON-serialisable so that it can be persisted
 * to SHOPIFY_EMULATOR_DATA and restored after a restart.
 */
import type { ParsedSeed, SeedAddress, SeedShop } from "./seed";
import { toCents, toGrams, type WeightUnit } from "./util";

export interface VariantState {
  id: number;
  productId: number;
  title: string;
  sku: string | null;
  priceCents: number;
  requiresShipping: boolean;
  isGiftCard: boolean;
  weight: { value: number; unit: WeightUnit };
  harmonizedSystemCode: string | null;
  countryCodeOfOrigin: string | null;
  inventoryItemId: number;
}

export interface ProductState {
  id: number;
  title: string;
  vendor: string;
  productType: string;
  variantIds: number[];
}

export interface LineItemState {
  id: number;
  variantId: number | null;
  productId: number | null;
  title: string;
  variantTitle: string | null;
  sku: string | null;
  vendor: string | null;
  quantity: number;
  currentQuantity: number;
  priceCents: number;
  unitDiscountCents: number;
  orderDiscountCents: number;
  taxRate: number;
  requiresShipping: boolean;
  isGiftCard: boolean;
  /** The location the line ships from (the shop's location unless the seed assigned another). */
  locationId: number;
}

export interface OrderState {
  id: number;
  number: number;
  name: string;
  createdAt: string;
  processedAt: string;
  updatedAt: string;
  email: string | null;
  phone: string | null;
  customer: { id: number; firstName: string | null; lastName: string | null; email: string | null; phone: string | null } | null;
  presentmentCurrencyCode: string;
  exchangeRate: number;
  shippingAddress: SeedAddress | null;
  billingAddress: SeedAddress | null;
  shippingLine: { title: string; code: string | null; priceCents: number; carrierIdentifier: string | null; source: string | null } | null;
  lineItems: LineItemState[];
  cancelledAt: string | null;
  cancelReason: string | null;
  closedAt: string | null;
  note: string | null;
  tags: string[];
  financialStatus: string;
  test: boolean;
}

export type FulfillmentOrderStatus = "OPEN" | "IN_PROGRESS" | "CLOSED" | "CANCELLED" | "ON_HOLD" | "SCHEDULED" | "INCOMPLETE";

export interface FulfillmentOrderState {
  id: number;
  orderId: number;
  status: FulfillmentOrderStatus;
  deliveryMethod: "SHIPPING" | "NONE";
  /** The assigned location (`assignedLocation.location`). */
  locationId: number;
  createdAt: string;
  updatedAt: string;
  lineItems: { id: number; lineItemId: number; totalQuantity: number; remainingQuantity: number }[];
}

export interface TrackingInfo {
  company: string | null;
  number: string | null;
  url: string | null;
}

export interface FulfillmentState {
  id: number;
  orderId: number;
  name: string;
  status: "SUCCESS" | "CANCELLED";
  createdAt: string;
  updatedAt: string;
  trackingInfo: TrackingInfo[];
  notifyCustomer: boolean;
  message: string | null;
  lineItems: { id: number; lineItemId: number; fulfillmentOrderId: number; fulfillmentOrderLineItemId: number; quantity: number }[];
}

export interface MetafieldState {
  id: number;
  ownerGid: string;
  namespace: string;
  key: string;
  type: string;
  value: string;
  createdAt: string;
  updatedAt: string;
}

export interface MetafieldDefinitionState {
  id: number;
  ownerType: string;
  namespace: string;
  key: string;
  name: string;
  type: string;
  description: string | null;
  pinned: boolean;
  /** Admin, storefront and customer-account access; absent on definitions created through the API here. */
  access?: { admin: "MERCHANT_READ" | "MERCHANT_READ_WRITE" | "PRIVATE" | "PUBLIC_READ" | "PUBLIC_READ_WRITE"; storefront: "NONE" | "PUBLIC_READ"; customerAccount: "NONE" | "READ" | "READ_WRITE" };
  /** Declared in shopify.app.toml: managed by the app's configuration, not through the API. */
  fromAppConfig?: boolean;
}

export interface NotificationState {
  id: number;
  kind: "fulfillment_created" | "tracking_updated";
  orderId: number;
  orderName: string;
  fulfillmentId: number;
  recipient: string | null;
  trackingNumbers: string[];
  trackingUrls: string[];
  sentAt: string;
}

export interface ShopState {
  domain: string;
  accessToken: string;
  appId: string;
  info: Omit<SeedShop, "products" | "orders" | "metafields">;
  products: ProductState[];
  variants: VariantState[];
  orders: OrderState[];
  fulfillmentOrders: FulfillmentOrderState[];
  fulfillments: FulfillmentState[];
  metafields: MetafieldState[];
  definitions: MetafieldDefinitionState[];
  notifications: NotificationState[];
  counters: Record<"fulfillmentOrder" | "fulfillmentOrderLineItem" | "fulfillment" | "fulfillmentLineItem" | "metafield" | "definition" | "notification", number>;
}

export function nextId(shop: ShopState, kind: keyof ShopState["counters"]): number {
  shop.counters[kind] += 1;
  return shop.counters[kind];
}

export function shopGid(shop: ShopState): string {
  return `gid://shopify/Shop/${shopNumericId(shop)}`;
}

/** A stable numeric id derived from the domain (Shopify shop ids are numeric). */
export function shopNumericId(shop: { domain: string }): number {
  let hash = 7;
  for (const char of shop.domain) hash = (hash * 31 + char.charCodeAt(0)) % 2_000_000_000;
  return 60_000_000_000 + hash;
}

/** Builds the runtime state of every shop from a validated seed. Seeded fulfillments are applied here. */
export function buildState(seed: ParsedSeed): ShopState[] {
  return seed.shops.map(buildShop);
}

function buildShop(seedShop: SeedShop): ShopState {
  const { products: seedProducts, orders: seedOrders, metafields: seedMetafields, ...info } = seedShop;
  const shop: ShopState = {
    domain: seedShop.domain,
    accessToken: seedShop.accessToken,
    appId: seedShop.appId,
    info,
    products: [],
    variants: [],
    orders: [],
    fulfillmentOrders: [],
    fulfillments: [],
    metafields: [],
    definitions: [],
    notifications: [],
    counters: {
      fulfillmentOrder: 6_000_000_000,
      fulfillmentOrderLineItem: 6_100_000_000,
      fulfillment: 5_000_000_000,
      fulfillmentLineItem: 5_100_000_000,
      metafield: 2_000_000_000,
      definition: 3_000_000_000,
      notification: 0,
    },
  };
  for (const product of seedProducts) {
    shop.products.push({
      id: product.id,
      title: product.title,
      vendor: product.vendor || seedShop.name,
      productType: product.productType,
      variantIds: product.variants.map((variant) => variant.id),
    });
    for (const variant of product.variants) {
      shop.variants.push({
        id: variant.id,
        productId: product.id,
        title: variant.title,
        sku: variant.sku,
        priceCents: toCents(variant.price),
        requiresShipping: variant.requiresShipping,
        isGiftCard: variant.isGiftCard,
        weight: variant.weight,
        harmonizedSystemCode: variant.harmonizedSystemCode,
        countryCodeOfOrigin: variant.countryCodeOfOrigin,
        inventoryItemId: variant.inventoryItemId ?? variant.id + 1_000_000_000,
      });
    }
  }
  const ownerSeedMetafields: { ownerGid: string; mf: (typeof seedMetafields)[number]; at: string }[] = seedMetafields.map(
    (mf) => ({ ownerGid: shopGid(shop), mf, at: seedShop.createdAt }),
  );
  for (const seedOrder of seedOrders) {
    const lineItems: LineItemState[] = seedOrder.lineItems.map((line) => {
      const variant = line.variantId === null ? undefined : shop.variants.find((v) => v.id === line.variantId);
      const product = variant ? shop.products.find((p) => p.id === variant.productId) : undefined;
      const title = line.title ?? product?.title ?? "Custom item";
      const variantTitle = line.variantTitle !== undefined ? line.variantTitle : variant && variant.title !== "Default Title" ? variant.title : null;
      return {
        id: line.id,
        variantId: variant?.id ?? null,
        productId: product?.id ?? null,
        title,
        variantTitle,
        sku: line.sku !== undefined ? line.sku : (variant?.sku ?? null),
        vendor: line.vendor !== undefined ? line.vendor : (product?.vendor ?? null),
        quantity: line.quantity,
        currentQuantity: line.quantity - line.removedQuantity,
        priceCents: line.price !== undefined ? toCents(line.price) : (variant?.priceCents ?? 0),
        unitDiscountCents: toCents(line.unitDiscount),
        orderDiscountCents: toCents(line.orderDiscount),
        taxRate: line.taxRate,
        requiresShipping: line.requiresShipping ?? variant?.requiresShipping ?? true,
        isGiftCard: line.isGiftCard ?? variant?.isGiftCard ?? false,
        locationId: line.locationId ?? seedShop.location.id,
      };
    });
    const order: OrderState = {
      id: seedOrder.id,
      number: seedOrder.number,
      name: seedOrder.name ?? `#${seedOrder.number}`,
      createdAt: seedOrder.createdAt,
      processedAt: seedOrder.processedAt ?? seedOrder.createdAt,
      updatedAt: latest([seedOrder.createdAt, seedOrder.cancelledAt, seedOrder.closedAt, ...seedOrder.fulfillments.map((f) => f.createdAt)]),
      email: seedOrder.email,
      phone: seedOrder.phone,
      customer: seedOrder.customer,
      presentmentCurrencyCode: seedOrder.presentmentCurrencyCode ?? seedShop.currencyCode,
      exchangeRate: seedOrder.exchangeRate,
      shippingAddress: seedOrder.shippingAddress,
      billingAddress: seedOrder.billingAddress,
      shippingLine: seedOrder.shippingLine
        ? { ...seedOrder.shippingLine, priceCents: toCents(seedOrder.shippingLine.price) }
        : null,
      lineItems,
      cancelledAt: seedOrder.cancelledAt,
      cancelReason: seedOrder.cancelReason,
      closedAt: seedOrder.closedAt,
      note: seedOrder.note,
      tags: seedOrder.tags,
      financialStatus: seedOrder.financialStatus,
      test: seedOrder.test,
    };
    shop.orders.push(order);
    // Shopify splits an order into fulfillment orders by location (the shop's first), then by delivery method:
    // shippable items, then the rest.
    const locationIds = [seedShop.location.id, ...seedShop.locations.map((location) => location.id)];
    for (const [locationId, method] of locationIds.flatMap((locationId) => (["SHIPPING", "NONE"] as const).map((method) => [locationId, method] as const))) {
      const lines = lineItems.filter((line) => line.locationId === locationId && line.requiresShipping === (method === "SHIPPING") && line.currentQuantity > 0);
      if (lines.length === 0) continue;
      shop.fulfillmentOrders.push({
        id: nextId(shop, "fulfillmentOrder"),
        orderId: order.id,
        status: "OPEN",
        deliveryMethod: method,
        locationId,
        createdAt: order.createdAt,
        updatedAt: order.createdAt,
        lineItems: lines.map((line) => ({
          id: nextId(shop, "fulfillmentOrderLineItem"),
          lineItemId: line.id,
          totalQuantity: line.currentQuantity,
          remainingQuantity: line.currentQuantity,
        })),
      });
    }
    for (const seedFulfillment of seedOrder.fulfillments) {
      const wanted =
        seedFulfillment.lineItems ??
        fulfillmentOrdersOf(shop, order.id)
          .filter((fo) => fo.deliveryMethod === "SHIPPING")
          .flatMap((fo) => fo.lineItems.map((li) => ({ lineItemId: li.lineItemId, quantity: li.remainingQuantity })))
          .filter((entry) => entry.quantity > 0);
      const entries: FulfillmentState["lineItems"] = [];
      for (const want of wanted) {
        const fo = fulfillmentOrdersOf(shop, order.id).find((candidate) => candidate.lineItems.some((li) => li.lineItemId === want.lineItemId));
        const foLine = fo?.lineItems.find((li) => li.lineItemId === want.lineItemId);
        if (!fo || !foLine) continue;
        if (seedFulfillment.status === "SUCCESS") foLine.remainingQuantity -= want.quantity;
        entries.push({
          id: nextId(shop, "fulfillmentLineItem"),
          lineItemId: want.lineItemId,
          fulfillmentOrderId: fo.id,
          fulfillmentOrderLineItemId: foLine.id,
          quantity: want.quantity,
        });
      }
      const tracking =
        seedFulfillment.trackingNumber || seedFulfillment.trackingCompany || seedFulfillment.trackingUrl
          ? [{ company: seedFulfillment.trackingCompany, number: seedFulfillment.trackingNumber, url: seedFulfillment.trackingUrl }]
          : [];
      shop.fulfillments.push({
        id: nextId(shop, "fulfillment"),
        orderId: order.id,
        name: `${order.name}-F${shop.fulfillments.filter((f) => f.orderId === order.id).length + 1}`,
        status: seedFulfillment.status,
        createdAt: seedFulfillment.createdAt,
        updatedAt: seedFulfillment.createdAt,
        trackingInfo: tracking,
        notifyCustomer: false,
        message: null,
        lineItems: entries,
      });
    }
    for (const fo of fulfillmentOrdersOf(shop, order.id)) {
      if (order.cancelledAt) fo.status = "CLOSED";
      else refreshFulfillmentOrderStatus(fo);
    }
    for (const mf of seedOrder.metafields) ownerSeedMetafields.push({ ownerGid: `gid://shopify/Order/${order.id}`, mf, at: order.createdAt });
  }
  for (const { ownerGid, mf, at } of ownerSeedMetafields) {
    shop.metafields.push({ id: nextId(shop, "metafield"), ownerGid, ...mf, namespace: resolveNamespace(mf.namespace, shop.appId), createdAt: at, updatedAt: at });
  }
  return shop;
}

function latest(values: (string | null | undefined)[]): string {
  return values.filter((v): v is string => !!v).reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
}

/** Every location of the shop, its primary one first. */
export function locationsOf(shop: ShopState): SeedShop["location"][] {
  return [shop.info.location, ...shop.info.locations];
}

/** A location of the shop by its numeric id (the primary one when the id is unknown). */
export function locationOf(shop: ShopState, id: number): SeedShop["location"] {
  return locationsOf(shop).find((location) => location.id === id) ?? shop.info.location;
}

/** `$app` and `$app:suffix` become `app--<appId>` and `app--<appId>--suffix`, as on Shopify. */
export function resolveNamespace(namespace: string, appId: string): string {
  if (namespace === "$app") return `app--${appId}`;
  if (namespace.startsWith("$app:")) return `app--${appId}--${namespace.slice(5)}`;
  return namespace;
}

export function fulfillmentOrdersOf(shop: ShopState, orderId: number): FulfillmentOrderState[] {
  return shop.fulfillmentOrders.filter((fo) => fo.orderId === orderId);
}

/** OPEN when nothing was fulfilled, IN_PROGRESS when partly, CLOSED when nothing remains. */
export function refreshFulfillmentOrderStatus(fo: FulfillmentOrderState): void {
  if (fo.status === "CANCELLED" || fo.status === "ON_HOLD") return;
  const remaining = fo.lineItems.reduce((sum, li) => sum + li.remainingQuantity, 0);
  const total = fo.lineItems.reduce((sum, li) => sum + li.totalQuantity, 0);
  fo.status = remaining === 0 ? "CLOSED" : remaining === total ? "OPEN" : "IN_PROGRESS";
}

/** The order's displayFulfillmentStatus, computed from what its live fulfillments cover. */
export function displayFulfillmentStatus(shop: ShopState, order: OrderState): string {
  const total = order.lineItems.reduce((sum, line) => sum + line.currentQuantity, 0);
  const fulfilled = shop.fulfillments
    .filter((f) => f.orderId === order.id && f.status === "SUCCESS")
    .reduce((sum, f) => sum + f.lineItems.reduce((s, li) => s + li.quantity, 0), 0);
  if (total === 0) return "FULFILLED";
  if (fulfilled === 0) return "UNFULFILLED";
  return fulfilled >= total ? "FULFILLED" : "PARTIALLY_FULFILLED";
}

/** Shipping weight of the order in grams (Order.totalWeight is in grams on Shopify). */
export function orderWeightGrams(shop: ShopState, order: OrderState): number {
  let grams = 0;
  for (const line of order.lineItems) {
    if (!line.requiresShipping || line.variantId === null) continue;
    const variant = shop.variants.find((v) => v.id === line.variantId);
    if (variant) grams += toGrams(variant.weight) * line.currentQuantity;
  }
  return Math.round(grams);
}
