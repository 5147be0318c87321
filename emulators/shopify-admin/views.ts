/**
 * GraphQL source objects built from the state. The emulator's field resolver (see execute.ts) only answers
 * fields that are OWN properties of these objects: a plain value, or a function called with the field's
 * arguments. Anything else in the schema fails with "Field Type.field is not emulated".
 */
import { createHash } from "node:crypto";
import type { GraphQLResolveInfo } from "graphql";
import { connection, type ConnectionArgs } from "./connection";
import { notEmulated, rejectArguments } from "./errors";
import { parseOrderSearch } from "./search";
import {
  displayFulfillmentStatus,
  fulfillmentOrdersOf,
  locationOf,
  locationsOf,
  orderWeightGrams,
  resolveNamespace,
  shopGid,
  type FulfillmentOrderState,
  type FulfillmentState,
  type LineItemState,
  type MetafieldDefinitionState,
  type MetafieldState,
  type OrderState,
  type ShopState,
  type VariantState,
} from "./state";
import { centsToDecimal, countryName, gid, parseGid } from "./util";
import type { SeedAddress } from "./seed";

export interface EmulatorContext {
  shop: ShopState;
  now: () => number;
  /** Called by mutations after they change the state (persistence). */
  changed: () => void;
  /** Search warnings collected while resolving, reported in `extensions.search`. */
  searchWarnings: { path: string; query: string; warnings: { field: string; message: string; code: string }[] }[];
  /** The shop's bulk operations (bulk.ts), when the server keeps them. */
  bulk?: {
    run(query: string): unknown;
    byId(id: number): View | null;
    current(): View | null;
  };
}

type Args = Record<string, unknown>;
type Resolver = (args: Args, ctx: EmulatorContext, info: GraphQLResolveInfo) => unknown;
export type View = { __typename: string } & Record<string, unknown>;

const cArgs = (args: Args): ConnectionArgs => args as ConnectionArgs;

function money(cents: number, currencyCode: string) {
  return { amount: centsToDecimal(cents), currencyCode };
}

function moneyBag(shop: ShopState, order: OrderState | null, cents: number) {
  const shopMoney = money(cents, shop.info.currencyCode);
  if (!order) return { shopMoney, presentmentMoney: shopMoney };
  return { shopMoney, presentmentMoney: money(Math.round(cents * order.exchangeRate), order.presentmentCurrencyCode) };
}

function addressLines(address: SeedAddress, withName: boolean, withCompany: boolean): string[] {
  const name = [address.firstName, address.lastName].filter(Boolean).join(" ");
  const cityLine = [address.zip, address.city].filter(Boolean).join(" ");
  return [
    withName ? name : null,
    withCompany ? address.company : null,
    address.address1,
    address.address2,
    cityLine || null,
    address.province,
    countryName(address.countryCode),
  ].filter((line): line is string => !!line);
}

export function mailingAddressView(address: SeedAddress, id: string): View {
  const name = [address.firstName, address.lastName].filter(Boolean).join(" ");
  return {
    __typename: "MailingAddress",
    id,
    firstName: address.firstName,
    lastName: address.lastName,
    name: name || null,
    company: address.company,
    address1: address.address1,
    address2: address.address2,
    city: address.city,
    zip: address.zip,
    province: address.province,
    provinceCode: address.provinceCode,
    country: countryName(address.countryCode),
    countryCodeV2: address.countryCode,
    phone: address.phone,
    formatted: (args: Args) => addressLines(address, args.withName === true, args.withCompany !== false),
    formattedArea: [address.city, address.province, countryName(address.countryCode)].filter(Boolean).join(", "),
    coordinatesValidated: false,
    latitude: null,
    longitude: null,
  };
}

function shopAddressView(shop: ShopState): View {
  const address = shop.info.address;
  return {
    __typename: "ShopAddress",
    id: gid("ShopAddress", 1),
    address1: address.address1,
    address2: address.address2,
    city: address.city,
    company: address.company,
    zip: address.zip,
    province: address.province,
    provinceCode: address.provinceCode,
    country: countryName(address.countryCode),
    countryCodeV2: address.countryCode,
    phone: address.phone,
    formatted: (args: Args) => addressLines(address, false, args.withCompany !== false),
    formattedArea: [address.city, address.province, countryName(address.countryCode)].filter(Boolean).join(", "),
    coordinatesValidated: false,
    latitude: null,
    longitude: null,
  };
}

export function locationView(shop: ShopState, id: number = shop.info.location.id): View {
  const loc = locationOf(shop, id);
  return {
    __typename: "Location",
    id: gid("Location", loc.id),
    legacyResourceId: String(loc.id),
    name: loc.name,
    isActive: true,
    shipsInventory: true,
    fulfillsOnlineOrders: true,
    address: {
      address1: loc.address.address1,
      address2: loc.address.address2,
      city: loc.address.city,
      country: countryName(loc.address.countryCode),
      countryCode: loc.address.countryCode,
      province: loc.address.province,
      provinceCode: loc.address.provinceCode,
      zip: loc.address.zip,
      phone: loc.address.phone,
      latitude: null,
      longitude: null,
      formatted: addressLines(loc.address, false, true),
    },
  };
}

function metafieldAccessors(ctx: EmulatorContext, ownerGid: string): Record<string, Resolver> {
  const { shop } = ctx;
  return {
    metafield: (args) => {
      let namespace = typeof args.namespace === "string" ? args.namespace : "$app";
      let key = String(args.key);
      if (args.namespace == null && key.includes(".")) {
        namespace = key.slice(0, key.lastIndexOf("."));
        key = key.slice(key.lastIndexOf(".") + 1);
      }
      const ns = resolveNamespace(namespace, shop.appId);
      const mf = shop.metafields.find((m) => m.ownerGid === ownerGid && m.namespace === ns && m.key === key);
      return mf ? metafieldView(ctx, mf) : null;
    },
    metafields: (args, _ctx, info) => {
      rejectArguments(info, args, ["first", "last", "after", "before", "reverse", "namespace", "keys"]);
      const ns = typeof args.namespace === "string" ? resolveNamespace(args.namespace, shop.appId) : null;
      const keys = Array.isArray(args.keys) ? (args.keys as string[]) : null;
      const list = shop.metafields.filter(
        (m) =>
          m.ownerGid === ownerGid &&
          (ns === null || m.namespace === ns) &&
          (keys === null || keys.some((k) => `${m.namespace}.${m.key}` === k.replace(/^\$app(:[^.]*)?\./, (p) => resolveNamespace(p.slice(0, -1), shop.appId) + "."))),
      );
      return connection(list, cArgs(args), (m) => ({ id: m.id, value: m.id }), (m) => metafieldView(ctx, m));
    },
  };
}

export function metafieldView(ctx: EmulatorContext, mf: MetafieldState): View {
  const owner = parseGid(mf.ownerGid);
  return {
    __typename: "Metafield",
    id: gid("Metafield", mf.id),
    legacyResourceId: String(mf.id),
    namespace: mf.namespace,
    key: mf.key,
    type: mf.type,
    value: mf.value,
    jsonValue: jsonValueOf(mf.type, mf.value),
    compareDigest: compareDigest(mf.value),
    createdAt: mf.createdAt,
    updatedAt: mf.updatedAt,
    ownerType: owner?.type === "Shop" ? "SHOP" : "ORDER",
    sizeInBytes: Buffer.byteLength(mf.value),
    definition: () => {
      const def = ctx.shop.definitions.find(
        (d) => d.namespace === mf.namespace && d.key === mf.key && d.ownerType === (owner?.type === "Shop" ? "SHOP" : "ORDER"),
      );
      return def ? metafieldDefinitionView(def) : null;
    },
    owner: () => {
      if (owner?.type === "Shop") return shopView(ctx);
      const order = ctx.shop.orders.find((o) => o.id === owner?.id);
      return order ? orderView(ctx, order) : null;
    },
  };
}

export function compareDigest(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

function jsonValueOf(type: string, value: string): unknown {
  if (type === "number_integer") return Number(value);
  if (type === "number_decimal") return value;
  if (type === "boolean") return value === "true";
  if (type === "json" || type.startsWith("list.") || ["money", "weight", "dimension", "volume", "rating"].includes(type)) {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value;
}

export function metafieldDefinitionView(def: MetafieldDefinitionState): View {
  return {
    __typename: "MetafieldDefinition",
    id: gid("MetafieldDefinition", def.id),
    name: def.name,
    namespace: def.namespace,
    key: def.key,
    description: def.description,
    ownerType: def.ownerType,
    pinnedPosition: def.pinned ? 1 : null,
    type: { name: def.type, category: typeCategory(def.type) },
    validations: [],
    useAsCollectionCondition: false,
    validationStatus: "ALL_VALID",
    // Definitions created through the API here take Shopify's default for an app namespace: private to the app.
    access: def.access ?? { admin: "PRIVATE", storefront: "NONE", customerAccount: "NONE" },
  };
}

function typeCategory(type: string): string {
  if (type.includes("text") || type === "url") return "TEXT";
  if (type.startsWith("number") || type === "rating") return "NUMBER";
  if (type.startsWith("date")) return "DATE_TIME";
  if (type === "boolean") return "TRUE_FALSE";
  if (type === "json") return "JSON";
  if (["weight", "volume", "dimension"].includes(type)) return "MEASUREMENT";
  if (type === "money") return "MONEY";
  return "REFERENCE";
}

export function shopView(ctx: EmulatorContext): View {
  const { shop } = ctx;
  const info = shop.info;
  return {
    __typename: "Shop",
    id: shopGid(shop),
    name: info.name,
    email: info.email,
    contactEmail: info.email,
    myshopifyDomain: shop.domain,
    url: `https://${shop.domain}`,
    currencyCode: info.currencyCode,
    enabledPresentmentCurrencies: [info.currencyCode, ...new Set(shop.orders.map((o) => o.presentmentCurrencyCode))].filter(
      (code, index, all) => all.indexOf(code) === index,
    ),
    ianaTimezone: info.ianaTimezone,
    taxesIncluded: info.taxesIncluded,
    weightUnit: info.weightUnit,
    unitSystem: info.weightUnit === "POUNDS" || info.weightUnit === "OUNCES" ? "IMPERIAL_SYSTEM" : "METRIC_SYSTEM",
    createdAt: info.createdAt,
    updatedAt: info.createdAt,
    billingAddress: shopAddressView(shop),
    shopAddress: shopAddressView(shop),
    plan: { __typename: "ShopPlan", partnerDevelopment: info.developmentStore, shopifyPlus: info.plan === "plus" },
    ...metafieldAccessors(ctx, shopGid(shop)),
  };
}

function customerView(customer: NonNullable<OrderState["customer"]>): View {
  const displayName = [customer.firstName, customer.lastName].filter(Boolean).join(" ") || customer.email || "";
  return {
    __typename: "Customer",
    id: gid("Customer", customer.id),
    firstName: customer.firstName,
    lastName: customer.lastName,
    displayName,
    email: customer.email,
    phone: customer.phone,
    defaultEmailAddress: customer.email ? { emailAddress: customer.email, validFormat: /.+@.+\..+/.test(customer.email) } : null,
    defaultPhoneNumber: customer.phone ? { phoneNumber: customer.phone } : null,
  };
}

function orderAmounts(shop: ShopState, order: OrderState) {
  let subtotal = 0;
  let discounts = 0;
  let tax = 0;
  for (const line of order.lineItems) {
    const after = lineAfterDiscounts(line);
    subtotal += after;
    discounts += line.unitDiscountCents * line.currentQuantity + orderDiscountShare(line);
    tax += shop.info.taxesIncluded ? after - after / (1 + line.taxRate) : after * line.taxRate;
  }
  const shipping = order.shippingLine?.priceCents ?? 0;
  return {
    subtotal,
    discounts,
    tax: Math.round(tax),
    shipping,
    total: subtotal + shipping + (shop.info.taxesIncluded ? 0 : Math.round(tax)),
  };
}

function orderDiscountShare(line: LineItemState): number {
  return Math.round((line.orderDiscountCents * line.currentQuantity) / line.quantity);
}

function lineAfterDiscounts(line: LineItemState): number {
  return (line.priceCents - line.unitDiscountCents) * line.currentQuantity - orderDiscountShare(line);
}

function unfulfilledQuantity(shop: ShopState, line: LineItemState): number {
  return shop.fulfillmentOrders
    .flatMap((fo) => (fo.status === "CLOSED" || fo.status === "CANCELLED" ? [] : fo.lineItems))
    .filter((li) => li.lineItemId === line.id)
    .reduce((sum, li) => sum + li.remainingQuantity, 0);
}

export function orderView(ctx: EmulatorContext, order: OrderState): View {
  const { shop } = ctx;
  const bag = (cents: number) => moneyBag(shop, order, cents);
  const amounts = orderAmounts(shop, order);
  const orderGid = gid("Order", order.id);
  const fulfillable = order.cancelledAt === null && fulfillmentOrdersOf(shop, order.id).some((fo) => fo.status === "OPEN" || fo.status === "IN_PROGRESS");
  return {
    __typename: "Order",
    id: orderGid,
    legacyResourceId: String(order.id),
    name: order.name,
    number: order.number,
    createdAt: order.createdAt,
    processedAt: order.processedAt,
    updatedAt: order.updatedAt,
    cancelledAt: order.cancelledAt,
    cancelReason: order.cancelReason,
    closed: order.closedAt !== null,
    closedAt: order.closedAt,
    confirmed: true,
    test: order.test,
    email: order.email,
    phone: order.phone,
    note: order.note,
    tags: order.tags,
    currencyCode: shop.info.currencyCode,
    presentmentCurrencyCode: order.presentmentCurrencyCode,
    taxesIncluded: shop.info.taxesIncluded,
    displayFinancialStatus: order.financialStatus,
    displayFulfillmentStatus: displayFulfillmentStatus(shop, order),
    fulfillable,
    requiresShipping: order.lineItems.some((line) => line.requiresShipping && line.currentQuantity > 0),
    customer: order.customer ? customerView(order.customer) : null,
    shippingAddress: order.shippingAddress ? mailingAddressView(order.shippingAddress, gid("MailingAddress", order.id * 10 + 1)) : null,
    billingAddress: order.billingAddress ? mailingAddressView(order.billingAddress, gid("MailingAddress", order.id * 10 + 2)) : null,
    billingAddressMatchesShippingAddress: JSON.stringify(order.billingAddress) === JSON.stringify(order.shippingAddress),
    shippingLine: order.shippingLine ? shippingLineView(shop, order) : null,
    shippingLines: (args: Args) =>
      connection(order.shippingLine ? [order] : [], cArgs(args), (o) => ({ id: o.id, value: o.id }), (o) => shippingLineView(shop, o)),
    totalShippingPriceSet: bag(amounts.shipping),
    currentShippingPriceSet: bag(amounts.shipping),
    subtotalPriceSet: bag(amounts.subtotal),
    currentSubtotalPriceSet: bag(amounts.subtotal),
    totalDiscountsSet: bag(amounts.discounts),
    currentTotalDiscountsSet: bag(amounts.discounts),
    totalTaxSet: bag(amounts.tax),
    currentTotalTaxSet: bag(amounts.tax),
    totalPriceSet: bag(amounts.total),
    currentTotalPriceSet: bag(amounts.total),
    subtotalLineItemsQuantity: order.lineItems.reduce((sum, line) => sum + line.quantity, 0),
    currentSubtotalLineItemsQuantity: order.lineItems.reduce((sum, line) => sum + line.currentQuantity, 0),
    totalWeight: String(orderWeightGrams(shop, order)),
    currentTotalWeight: String(orderWeightGrams(shop, order)),
    lineItems: (args: Args) =>
      connection(order.lineItems, cArgs(args), (line) => ({ id: line.id, value: order.lineItems.indexOf(line) }), (line) => lineItemView(ctx, order, line)),
    fulfillmentOrders: (args: Args, _ctx: EmulatorContext, info: GraphQLResolveInfo) => {
      rejectArguments(info, args, ["first", "last", "after", "before", "reverse", "displayable"]);
      return connection(fulfillmentOrdersOf(shop, order.id), cArgs(args), (fo) => ({ id: fo.id, value: fo.id }), (fo) => fulfillmentOrderView(ctx, fo));
    },
    fulfillments: (args: Args, _ctx: EmulatorContext, info: GraphQLResolveInfo) => {
      rejectArguments(info, args, ["first"]);
      const list = shop.fulfillments.filter((f) => f.orderId === order.id);
      return (typeof args.first === "number" ? list.slice(0, args.first) : list).map((f) => fulfillmentView(ctx, f));
    },
    fulfillmentsCount: () => ({ count: shop.fulfillments.filter((f) => f.orderId === order.id).length, precision: "EXACT" }),
    ...metafieldAccessors(ctx, orderGid),
  };
}

function shippingLineView(shop: ShopState, order: OrderState): View {
  const line = order.shippingLine!;
  const bag = moneyBag(shop, order, line.priceCents);
  return {
    __typename: "ShippingLine",
    id: gid("ShippingLine", order.id),
    title: line.title,
    code: line.code,
    source: line.source,
    carrierIdentifier: line.carrierIdentifier,
    custom: false,
    isRemoved: false,
    deliveryCategory: null,
    phone: null,
    shippingRateHandle: null,
    originalPriceSet: bag,
    discountedPriceSet: bag,
    currentDiscountedPriceSet: bag,
    discountAllocations: [],
    taxLines: [],
  };
}

export function lineItemView(ctx: EmulatorContext, order: OrderState, line: LineItemState): View {
  const { shop } = ctx;
  const bag = (cents: number) => moneyBag(shop, order, cents);
  const variant = line.variantId === null ? undefined : shop.variants.find((v) => v.id === line.variantId);
  const after = lineAfterDiscounts(line);
  const perUnitAfterAll = line.priceCents - line.unitDiscountCents - Math.round(line.orderDiscountCents / line.quantity);
  return {
    __typename: "LineItem",
    id: gid("LineItem", line.id),
    title: line.title,
    name: line.variantTitle ? `${line.title} - ${line.variantTitle}` : line.title,
    variantTitle: line.variantTitle,
    sku: line.sku,
    vendor: line.vendor,
    quantity: line.quantity,
    currentQuantity: line.currentQuantity,
    unfulfilledQuantity: unfulfilledQuantity(shop, line),
    nonFulfillableQuantity: 0,
    refundableQuantity: line.currentQuantity,
    requiresShipping: line.requiresShipping,
    isGiftCard: line.isGiftCard,
    taxable: line.taxRate > 0,
    merchantEditable: false,
    restockable: true,
    customAttributes: [],
    discountAllocations: [],
    taxLines: [],
    duties: [],
    originalUnitPriceSet: bag(line.priceCents),
    discountedUnitPriceSet: bag(line.priceCents - line.unitDiscountCents),
    discountedUnitPriceAfterAllDiscountsSet: bag(perUnitAfterAll),
    originalTotalSet: bag(line.priceCents * line.quantity),
    discountedTotalSet: bag((line.priceCents - line.unitDiscountCents) * line.quantity),
    totalDiscountSet: bag(line.unitDiscountCents * line.quantity + line.orderDiscountCents),
    unfulfilledOriginalTotalSet: bag(line.priceCents * unfulfilledQuantity(shop, line)),
    unfulfilledDiscountedTotalSet: bag((line.priceCents - line.unitDiscountCents) * unfulfilledQuantity(shop, line)),
    priceAfterAllDiscountsBeforeTaxesSet: bag(shop.info.taxesIncluded ? Math.round(after / (1 + line.taxRate)) : after),
    weight: variant ? { unit: variant.weight.unit, value: variant.weight.value } : null,
    variant: variant ? variantView(ctx, variant) : null,
    product: () => {
      const product = shop.products.find((p) => p.id === line.productId);
      return product ? productView(ctx, product.id) : null;
    },
    image: null,
  };
}

export function productView(ctx: EmulatorContext, productId: number): View | null {
  const product = ctx.shop.products.find((p) => p.id === productId);
  if (!product) return null;
  return {
    __typename: "Product",
    id: gid("Product", product.id),
    legacyResourceId: String(product.id),
    title: product.title,
    vendor: product.vendor,
    productType: product.productType,
    handle: product.title.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, ""),
    isGiftCard: product.variantIds.some((id) => ctx.shop.variants.find((v) => v.id === id)?.isGiftCard),
  };
}

export function variantView(ctx: EmulatorContext, variant: VariantState): View {
  return {
    __typename: "ProductVariant",
    id: gid("ProductVariant", variant.id),
    legacyResourceId: String(variant.id),
    title: variant.title,
    displayName: `${ctx.shop.products.find((p) => p.id === variant.productId)?.title ?? ""} - ${variant.title}`,
    sku: variant.sku,
    price: centsToDecimal(variant.priceCents),
    product: () => productView(ctx, variant.productId),
    inventoryItem: () => inventoryItemView(variant),
  };
}

export function inventoryItemView(variant: VariantState): View {
  return {
    __typename: "InventoryItem",
    id: gid("InventoryItem", variant.inventoryItemId),
    legacyResourceId: String(variant.inventoryItemId),
    sku: variant.sku,
    requiresShipping: variant.requiresShipping,
    tracked: true,
    harmonizedSystemCode: variant.harmonizedSystemCode,
    countryCodeOfOrigin: variant.countryCodeOfOrigin,
    provinceCodeOfOrigin: null,
    countryHarmonizedSystemCodes: (args: Args) =>
      connection([] as { id: number }[], cArgs(args), (entry) => ({ id: entry.id, value: entry.id }), (entry) => entry),
    measurement: {
      __typename: "InventoryItemMeasurement",
      id: gid("InventoryItemMeasurement", variant.inventoryItemId),
      weight: { unit: variant.weight.unit, value: variant.weight.value },
    },
  };
}

const FO_ACTIONS: Record<string, string[]> = {
  OPEN: ["CREATE_FULFILLMENT", "REPORT_PROGRESS", "MOVE", "HOLD", "SPLIT"],
  IN_PROGRESS: ["CREATE_FULFILLMENT", "REPORT_PROGRESS", "HOLD", "MARK_AS_OPEN"],
  ON_HOLD: ["RELEASE_HOLD", "MOVE"],
  SCHEDULED: ["MARK_AS_OPEN"],
};

export function fulfillmentOrderView(ctx: EmulatorContext, fo: FulfillmentOrderState): View {
  const { shop } = ctx;
  const order = shop.orders.find((o) => o.id === fo.orderId)!;
  const loc = locationOf(shop, fo.locationId);
  const dest = order.shippingAddress;
  return {
    __typename: "FulfillmentOrder",
    id: gid("FulfillmentOrder", fo.id),
    status: fo.status,
    requestStatus: "UNSUBMITTED",
    createdAt: fo.createdAt,
    updatedAt: fo.updatedAt,
    fulfillAt: null,
    fulfillBy: null,
    fulfillmentHolds: [],
    orderId: gid("Order", order.id),
    orderName: order.name,
    orderProcessedAt: order.processedAt,
    order: () => orderView(ctx, order),
    supportedActions: (FO_ACTIONS[fo.status] ?? []).map((action) => ({ action, externalUrl: null })),
    assignedLocation: {
      name: loc.name,
      address1: loc.address.address1,
      address2: loc.address.address2,
      city: loc.address.city,
      zip: loc.address.zip,
      province: loc.address.province,
      countryCode: loc.address.countryCode,
      phone: loc.address.phone,
      location: () => locationView(shop, fo.locationId),
    },
    deliveryMethod: {
      __typename: "DeliveryMethod",
      id: gid("DeliveryMethod", fo.id),
      methodType: fo.deliveryMethod,
      presentedName: fo.deliveryMethod === "SHIPPING" ? (order.shippingLine?.title ?? null) : null,
      serviceCode: fo.deliveryMethod === "SHIPPING" ? (order.shippingLine?.code ?? null) : null,
      minDeliveryDateTime: null,
      maxDeliveryDateTime: null,
      sourceReference: null,
    },
    destination:
      dest && fo.deliveryMethod === "SHIPPING"
        ? {
            __typename: "FulfillmentOrderDestination",
            id: gid("FulfillmentOrderDestination", fo.id),
            firstName: dest.firstName,
            lastName: dest.lastName,
            company: dest.company,
            address1: dest.address1,
            address2: dest.address2,
            city: dest.city,
            zip: dest.zip,
            province: dest.province,
            countryCode: dest.countryCode,
            phone: dest.phone,
            email: order.email,
          }
        : null,
    lineItems: (args: Args) =>
      connection(fo.lineItems, cArgs(args), (li) => ({ id: li.id, value: li.id }), (li) => {
        const line = order.lineItems.find((l) => l.id === li.lineItemId)!;
        const variant = line.variantId === null ? undefined : shop.variants.find((v) => v.id === line.variantId);
        return {
          __typename: "FulfillmentOrderLineItem",
          id: gid("FulfillmentOrderLineItem", li.id),
          totalQuantity: li.totalQuantity,
          remainingQuantity: li.remainingQuantity,
          requiresShipping: line.requiresShipping,
          sku: line.sku,
          productTitle: line.title,
          variantTitle: line.variantTitle,
          vendor: line.vendor,
          inventoryItemId: variant ? gid("InventoryItem", variant.inventoryItemId) : null,
          weight: variant ? { unit: variant.weight.unit, value: variant.weight.value } : null,
          warnings: [],
          lineItem: () => lineItemView(ctx, order, line),
          variant: () => (variant ? variantView(ctx, variant) : null),
        };
      }),
    fulfillments: (args: Args) =>
      connection(
        shop.fulfillments.filter((f) => f.lineItems.some((li) => li.fulfillmentOrderId === fo.id)),
        cArgs(args),
        (f) => ({ id: f.id, value: f.id }),
        (f) => fulfillmentView(ctx, f),
      ),
  };
}

export function fulfillmentView(ctx: EmulatorContext, f: FulfillmentState): View {
  const { shop } = ctx;
  const order = shop.orders.find((o) => o.id === f.orderId)!;
  // A fulfillment ships from its fulfillment orders' location.
  const locationId = shop.fulfillmentOrders.find((fo) => fo.id === f.lineItems[0]?.fulfillmentOrderId)?.locationId ?? shop.info.location.id;
  const loc = locationOf(shop, locationId);
  return {
    __typename: "Fulfillment",
    id: gid("Fulfillment", f.id),
    legacyResourceId: String(f.id),
    name: f.name,
    status: f.status,
    displayStatus: f.status === "CANCELLED" ? "CANCELED" : "FULFILLED",
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
    deliveredAt: null,
    inTransitAt: null,
    estimatedDeliveryAt: null,
    requiresShipping: f.lineItems.some((li) => order.lineItems.find((l) => l.id === li.lineItemId)?.requiresShipping),
    totalQuantity: f.lineItems.reduce((sum, li) => sum + li.quantity, 0),
    trackingInfo: (args: Args) => (typeof args.first === "number" ? f.trackingInfo.slice(0, args.first) : f.trackingInfo).map((t) => ({ ...t })),
    order: () => orderView(ctx, order),
    location: () => locationView(shop, locationId),
    originAddress: {
      address1: loc.address.address1,
      address2: loc.address.address2,
      city: loc.address.city,
      zip: loc.address.zip,
      provinceCode: loc.address.provinceCode,
      countryCode: loc.address.countryCode,
    },
    fulfillmentLineItems: (args: Args) =>
      connection(f.lineItems, cArgs(args), (li) => ({ id: li.id, value: li.id }), (li) => {
        const line = order.lineItems.find((l) => l.id === li.lineItemId)!;
        return {
          __typename: "FulfillmentLineItem",
          id: gid("FulfillmentLineItem", li.id),
          quantity: li.quantity,
          lineItem: () => lineItemView(ctx, order, line),
          originalTotalSet: moneyBag(shop, order, line.priceCents * li.quantity),
          discountedTotalSet: moneyBag(shop, order, (line.priceCents - line.unitDiscountCents) * li.quantity),
        };
      }),
    fulfillmentOrders: (args: Args) =>
      connection(
        shop.fulfillmentOrders.filter((fo) => f.lineItems.some((li) => li.fulfillmentOrderId === fo.id)),
        cArgs(args),
        (fo) => ({ id: fo.id, value: fo.id }),
        (fo) => fulfillmentOrderView(ctx, fo),
      ),
  };
}

const ORDER_SORT: Record<string, (order: OrderState) => string | number> = {
  CREATED_AT: (order) => Date.parse(order.createdAt),
  PROCESSED_AT: (order) => Date.parse(order.processedAt),
  UPDATED_AT: (order) => Date.parse(order.updatedAt),
  ORDER_NUMBER: (order) => order.number,
  ID: (order) => order.id,
};

/** Resolves `node(id)` for the emulated types; null for an unknown id, an error for a type not emulated. */
export function nodeById(ctx: EmulatorContext, id: unknown): View | null {
  const parsed = parseGid(id);
  if (!parsed) return null;
  const { shop } = ctx;
  switch (parsed.type) {
    case "Order": {
      const order = shop.orders.find((o) => o.id === parsed.id);
      return order ? orderView(ctx, order) : null;
    }
    case "FulfillmentOrder": {
      const fo = shop.fulfillmentOrders.find((f) => f.id === parsed.id);
      return fo ? fulfillmentOrderView(ctx, fo) : null;
    }
    case "Fulfillment": {
      const f = shop.fulfillments.find((x) => x.id === parsed.id);
      return f ? fulfillmentView(ctx, f) : null;
    }
    case "LineItem": {
      const order = shop.orders.find((o) => o.lineItems.some((l) => l.id === parsed.id));
      const line = order?.lineItems.find((l) => l.id === parsed.id);
      return order && line ? lineItemView(ctx, order, line) : null;
    }
    case "ProductVariant": {
      const variant = shop.variants.find((v) => v.id === parsed.id);
      return variant ? variantView(ctx, variant) : null;
    }
    case "Product":
      return productView(ctx, parsed.id);
    case "InventoryItem": {
      const variant = shop.variants.find((v) => v.inventoryItemId === parsed.id);
      return variant ? inventoryItemView(variant) : null;
    }
    case "Metafield": {
      const mf = shop.metafields.find((m) => m.id === parsed.id);
      return mf ? metafieldView(ctx, mf) : null;
    }
    case "MetafieldDefinition": {
      const def = shop.definitions.find((d) => d.id === parsed.id);
      return def ? metafieldDefinitionView(def) : null;
    }
    case "Shop":
      return String(id) === shopGid(shop) ? shopView(ctx) : null;
    case "Location":
      return locationsOf(shop).some((location) => location.id === parsed.id) ? locationView(shop, parsed.id) : null;
    case "BulkOperation":
      return ctx.bulk?.byId(parsed.id) ?? null;
    default:
      throw notEmulated(`node(id) for type ${parsed.type}`);
  }
}

export function queryRoot(ctx: EmulatorContext): Record<string, unknown> {
  const { shop } = ctx;
  return {
    shop: () => shopView(ctx),
    order: (args: Args) => nodeOfType(ctx, args.id, "Order"),
    fulfillmentOrder: (args: Args) => nodeOfType(ctx, args.id, "FulfillmentOrder"),
    fulfillment: (args: Args) => nodeOfType(ctx, args.id, "Fulfillment"),
    productVariant: (args: Args) => nodeOfType(ctx, args.id, "ProductVariant"),
    product: (args: Args) => nodeOfType(ctx, args.id, "Product"),
    inventoryItem: (args: Args) => nodeOfType(ctx, args.id, "InventoryItem"),
    location: (args: Args) => (args.id == null ? locationView(shop) : nodeOfType(ctx, args.id, "Location")),
    locations: (args: Args, _ctx: EmulatorContext, info: GraphQLResolveInfo) => {
      rejectArguments(info, args, ["first", "last", "after", "before", "reverse", "includeInactive", "includeLegacy"]);
      return connection(locationsOf(shop), cArgs(args), (location) => ({ id: location.id, value: location.id }), (location) => locationView(shop, location.id));
    },
    node: (args: Args) => nodeById(ctx, args.id),
    bulkOperation: (args: Args) => nodeOfType(ctx, args.id, "BulkOperation"),
    currentBulkOperation: (args: Args) => (args.type === "MUTATION" ? null : (ctx.bulk?.current() ?? null)),
    nodes: (args: Args) => (args.ids as unknown[]).map((id) => nodeById(ctx, id)),
    orders: (args: Args, _ctx: EmulatorContext, info: GraphQLResolveInfo) => {
      rejectArguments(info, args, ["first", "last", "after", "before", "reverse", "query", "sortKey"]);
      const sortKey = String(args.sortKey ?? "PROCESSED_AT");
      const sortValue = ORDER_SORT[sortKey];
      if (!sortValue) throw notEmulated(`orders(sortKey: ${sortKey})`);
      const search = parseOrderSearch(shop, args.query as string | null | undefined);
      if (search.warnings.length > 0) {
        ctx.searchWarnings.push({ path: info.path.key.toString(), query: String(args.query), warnings: search.warnings });
      }
      const list = shop.orders.filter((order) => search.predicates.every((p) => p(order)));
      return connection(list, cArgs(args), (order) => ({ id: order.id, value: sortValue(order) }), (order) => orderView(ctx, order));
    },
    fulfillmentOrders: (args: Args, _ctx: EmulatorContext, info: GraphQLResolveInfo) => {
      rejectArguments(info, args, ["first", "last", "after", "before", "reverse", "query", "includeClosed"]);
      // Only `id:N` terms joined by OR are emulated (what a bulk read of known fulfillment orders sends).
      let ids: Set<number> | null = null;
      if (typeof args.query === "string" && args.query.trim() !== "") {
        ids = new Set();
        for (const term of args.query.trim().split(/\s+OR\s+/)) {
          const match = /^id:(\d+)$/.exec(term.trim());
          if (!match?.[1]) throw notEmulated(`fulfillmentOrders(query: ${JSON.stringify(args.query)}) beyond "id:N OR id:M"`);
          ids.add(Number(match[1]));
        }
      }
      const closed = new Set(["CLOSED", "CANCELLED"]);
      const list = shop.fulfillmentOrders.filter((fo) => (ids ? ids.has(fo.id) : true) && (args.includeClosed === true || !closed.has(fo.status)));
      return connection(list, cArgs(args), (fo) => ({ id: fo.id, value: fo.id }), (fo) => fulfillmentOrderView(ctx, fo));
    },
    ordersCount: (args: Args, _ctx: EmulatorContext, info: GraphQLResolveInfo) => {
      rejectArguments(info, args, ["query", "limit"]);
      const search = parseOrderSearch(shop, args.query as string | null | undefined);
      const count = shop.orders.filter((order) => search.predicates.every((p) => p(order))).length;
      return { count, precision: "EXACT" };
    },
    metafieldDefinitions: (args: Args, _ctx: EmulatorContext, info: GraphQLResolveInfo) => {
      rejectArguments(info, args, ["first", "last", "after", "before", "reverse", "ownerType", "namespace", "key"]);
      const ns = typeof args.namespace === "string" ? resolveNamespace(args.namespace, shop.appId) : null;
      const list = shop.definitions.filter(
        (d) => d.ownerType === args.ownerType && (ns === null || d.namespace === ns) && (args.key == null || d.key === args.key),
      );
      return connection(list, cArgs(args), (d) => ({ id: d.id, value: d.id }), metafieldDefinitionView);
    },
  };
}

function nodeOfType(ctx: EmulatorContext, id: unknown, type: string): View | null {
  const parsed = parseGid(id);
  if (!parsed || parsed.type !== type) return null;
  return nodeById(ctx, id);
}

