/**
 * Mutations: fulfillmentCreate (and its deprecated twin fulfillmentCreateV2), fulfillmentTrackingInfoUpdate
 * (and V2), fulfillmentCancel, metafieldsSet and metafieldDefinitionCreate. Business errors come back as
 * userErrors, never as GraphQL errors, as on Shopify. Every mutation checks all its input before changing
 * anything, so a failed call leaves the state untouched.
 */
import { notEmulated } from "./errors";
import {
  nextId,
  refreshFulfillmentOrderStatus,
  resolveNamespace,
  shopGid,
  type FulfillmentOrderState,
  type FulfillmentState,
  type MetafieldState,
  type ShopState,
  type TrackingInfo,
} from "./state";
import { compareDigest, fulfillmentView, metafieldDefinitionView, metafieldView, type EmulatorContext } from "./views";
import { isoNow, parseGid } from "./util";

type Args = Record<string, unknown>;
interface UserError {
  field: string[] | null;
  message: string;
  code?: string;
  elementIndex?: number | null;
}

interface TrackingInput {
  company?: string | null;
  number?: string | null;
  numbers?: string[] | null;
  url?: string | null;
  urls?: string[] | null;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

function trackingFromInput(input: TrackingInput | null | undefined, field: string[], errors: UserError[]): TrackingInfo[] {
  if (!input) return [];
  const numbers = input.numbers?.length ? input.numbers : input.number ? [input.number] : [];
  const urls = input.urls?.length ? input.urls : input.url ? [input.url] : [];
  urls.forEach((url, index) => {
    if (!isHttpUrl(url)) errors.push({ field: [...field, input.urls?.length ? `urls` : "url", ...(input.urls?.length ? [String(index)] : [])], message: "Tracking url is invalid" });
  });
  const count = Math.max(numbers.length, urls.length, input.company ? 1 : 0);
  const list: TrackingInfo[] = [];
  for (let i = 0; i < count; i++) list.push({ company: input.company ?? null, number: numbers[i] ?? null, url: urls[i] ?? null });
  return list;
}

function recipientOf(shop: ShopState, orderId: number): string | null {
  const order = shop.orders.find((o) => o.id === orderId);
  return order?.email ?? order?.customer?.email ?? order?.phone ?? order?.shippingAddress?.phone ?? null;
}

function notify(ctx: EmulatorContext, kind: "fulfillment_created" | "tracking_updated", fulfillment: FulfillmentState): void {
  const { shop } = ctx;
  const order = shop.orders.find((o) => o.id === fulfillment.orderId)!;
  shop.notifications.push({
    id: nextId(shop, "notification"),
    kind,
    orderId: order.id,
    orderName: order.name,
    fulfillmentId: fulfillment.id,
    recipient: recipientOf(shop, order.id),
    trackingNumbers: fulfillment.trackingInfo.map((t) => t.number).filter((n): n is string => !!n),
    trackingUrls: fulfillment.trackingInfo.map((t) => t.url).filter((n): n is string => !!n),
    sentAt: isoNow(ctx.now),
  });
}

function fulfillmentCreate(ctx: EmulatorContext, input: Args, message: unknown) {
  const { shop } = ctx;
  const errors: UserError[] = [];
  const groups = (input.lineItemsByFulfillmentOrder as { fulfillmentOrderId: string; fulfillmentOrderLineItems?: { id: string; quantity: number }[] | null }[]) ?? [];
  const base = ["fulfillment", "lineItemsByFulfillmentOrder"];
  if (groups.length === 0) {
    return { fulfillment: null, userErrors: [{ field: base, message: "Line items by fulfillment order can't be blank." }] };
  }
  const plan: { foId: number; foLineId: number; lineItemId: number; quantity: number }[] = [];
  const orderIds = new Set<number>();
  const seenFo = new Set<number>();
  groups.forEach((group, g) => {
    const at = [...base, String(g)];
    const parsed = parseGid(group.fulfillmentOrderId);
    const fo = parsed?.type === "FulfillmentOrder" ? shop.fulfillmentOrders.find((f) => f.id === parsed.id) : undefined;
    if (!fo) {
      errors.push({ field: [...at, "fulfillmentOrderId"], message: `Fulfillment order ${group.fulfillmentOrderId} does not exist.` });
      return;
    }
    if (seenFo.has(fo.id)) {
      errors.push({ field: [...at, "fulfillmentOrderId"], message: `Fulfillment order ${group.fulfillmentOrderId} is listed more than once.` });
      return;
    }
    seenFo.add(fo.id);
    orderIds.add(fo.orderId);
    if (fo.status !== "OPEN" && fo.status !== "IN_PROGRESS") {
      errors.push({ field: [...at, "fulfillmentOrderId"], message: `Fulfillment order ${fo.id} has an unfulfillable status= ${fo.status.toLowerCase()}.` });
      return;
    }
    const requested = group.fulfillmentOrderLineItems;
    if (!requested || requested.length === 0) {
      for (const li of fo.lineItems) if (li.remainingQuantity > 0) plan.push({ foId: fo.id, foLineId: li.id, lineItemId: li.lineItemId, quantity: li.remainingQuantity });
      return;
    }
    const seenLines = new Set<number>();
    requested.forEach((entry, e) => {
      const lineAt = [...at, "fulfillmentOrderLineItems", String(e)];
      const parsedLine = parseGid(entry.id);
      const foLine = parsedLine?.type === "FulfillmentOrderLineItem" ? fo.lineItems.find((li) => li.id === parsedLine.id) : undefined;
      if (!foLine) {
        errors.push({ field: [...lineAt, "id"], message: `Fulfillment order line item ${entry.id} does not belong to fulfillment order ${group.fulfillmentOrderId}.` });
        return;
      }
      if (seenLines.has(foLine.id)) {
        errors.push({ field: [...lineAt, "id"], message: `Fulfillment order line item ${entry.id} is listed more than once.` });
        return;
      }
      seenLines.add(foLine.id);
      if (entry.quantity <= 0 || entry.quantity > foLine.remainingQuantity) {
        errors.push({
          field: [...lineAt, "quantity"],
          message: `Invalid fulfillment order line item quantity requested: ${entry.quantity} for ${entry.id}, ${foLine.remainingQuantity} remaining.`,
        });
        return;
      }
      plan.push({ foId: fo.id, foLineId: foLine.id, lineItemId: foLine.lineItemId, quantity: entry.quantity });
    });
  });
  if (orderIds.size > 1) errors.push({ field: base, message: "All fulfillment orders must belong to the same order." });
  const tracking = trackingFromInput(input.trackingInfo as TrackingInput | null, ["fulfillment", "trackingInfo"], errors);
  if (errors.length === 0 && plan.length === 0) errors.push({ field: base, message: "There is nothing left to fulfill on these fulfillment orders." });
  if (errors.length > 0) return { fulfillment: null, userErrors: errors };

  const orderId = [...orderIds][0]!;
  const order = shop.orders.find((o) => o.id === orderId)!;
  const at = isoNow(ctx.now);
  for (const step of plan) {
    const fo = shop.fulfillmentOrders.find((f) => f.id === step.foId)!;
    fo.lineItems.find((li) => li.id === step.foLineId)!.remainingQuantity -= step.quantity;
    fo.updatedAt = at;
  }
  for (const foId of seenFo) refreshFulfillmentOrderStatus(shop.fulfillmentOrders.find((f) => f.id === foId)!);
  const fulfillment: FulfillmentState = {
    id: nextId(shop, "fulfillment"),
    orderId,
    name: `${order.name}-F${shop.fulfillments.filter((f) => f.orderId === orderId).length + 1}`,
    status: "SUCCESS",
    createdAt: at,
    updatedAt: at,
    trackingInfo: tracking,
    notifyCustomer: input.notifyCustomer === true,
    message: typeof message === "string" ? message : null,
    lineItems: plan.map((step) => ({
      id: nextId(shop, "fulfillmentLineItem"),
      lineItemId: step.lineItemId,
      fulfillmentOrderId: step.foId,
      fulfillmentOrderLineItemId: step.foLineId,
      quantity: step.quantity,
    })),
  };
  shop.fulfillments.push(fulfillment);
  order.updatedAt = at;
  if (fulfillment.notifyCustomer) notify(ctx, "fulfillment_created", fulfillment);
  ctx.changed();
  return { fulfillment: fulfillmentView(ctx, fulfillment), userErrors: [] };
}

function findFulfillment(shop: ShopState, id: unknown): FulfillmentState | undefined {
  const parsed = parseGid(id);
  return parsed?.type === "Fulfillment" ? shop.fulfillments.find((f) => f.id === parsed.id) : undefined;
}

function fulfillmentTrackingInfoUpdate(ctx: EmulatorContext, args: Args) {
  const fulfillment = findFulfillment(ctx.shop, args.fulfillmentId);
  if (!fulfillment) return { fulfillment: null, userErrors: [{ field: ["fulfillmentId"], message: "Fulfillment does not exist." }] };
  if (fulfillment.status === "CANCELLED") {
    return { fulfillment: null, userErrors: [{ field: ["fulfillmentId"], message: "Cannot update tracking information of a cancelled fulfillment." }] };
  }
  const errors: UserError[] = [];
  const tracking = trackingFromInput(args.trackingInfoInput as TrackingInput, ["trackingInfoInput"], errors);
  if (errors.length > 0) return { fulfillment: null, userErrors: errors };
  fulfillment.trackingInfo = tracking;
  fulfillment.updatedAt = isoNow(ctx.now);
  if (args.notifyCustomer === true) notify(ctx, "tracking_updated", fulfillment);
  ctx.changed();
  return { fulfillment: fulfillmentView(ctx, fulfillment), userErrors: [] };
}

function fulfillmentCancel(ctx: EmulatorContext, args: Args) {
  const { shop } = ctx;
  const fulfillment = findFulfillment(shop, args.id);
  if (!fulfillment) return { fulfillment: null, userErrors: [{ field: ["id"], message: "Fulfillment not found." }] };
  if (fulfillment.status === "CANCELLED") {
    return { fulfillment: null, userErrors: [{ field: ["id"], message: "Fulfillment has already been cancelled." }] };
  }
  const at = isoNow(ctx.now);
  fulfillment.status = "CANCELLED";
  fulfillment.updatedAt = at;
  // As the 2026-10 schema documents it: a fulfillment order that was entirely fulfilled stays closed and a new one
  // (same order, same delivery method) takes the cancelled items; one partly fulfilled gets its quantities back.
  const reopened = new Map<number, FulfillmentOrderState>();
  for (const li of fulfillment.lineItems) {
    const fo = shop.fulfillmentOrders.find((f) => f.id === li.fulfillmentOrderId);
    const foLine = fo?.lineItems.find((l) => l.id === li.fulfillmentOrderLineItemId);
    if (!fo || !foLine) continue;
    if (fo.status === "CLOSED") {
      let fresh = reopened.get(fo.id);
      if (!fresh) {
        fresh = { id: nextId(shop, "fulfillmentOrder"), orderId: fo.orderId, status: "OPEN", deliveryMethod: fo.deliveryMethod, locationId: fo.locationId, createdAt: at, updatedAt: at, lineItems: [] };
        reopened.set(fo.id, fresh);
      }
      fresh.lineItems.push({ id: nextId(shop, "fulfillmentOrderLineItem"), lineItemId: foLine.lineItemId, totalQuantity: li.quantity, remainingQuantity: li.quantity });
      continue;
    }
    foLine.remainingQuantity = Math.min(foLine.totalQuantity, foLine.remainingQuantity + li.quantity);
    fo.updatedAt = at;
    refreshFulfillmentOrderStatus(fo);
  }
  shop.fulfillmentOrders.push(...reopened.values());
  const order = shop.orders.find((o) => o.id === fulfillment.orderId);
  if (order) order.updatedAt = at;
  ctx.changed();
  return { fulfillment: fulfillmentView(ctx, fulfillment), userErrors: [] };
}

export const METAFIELDS_SET_LIMIT = 25;

export const METAFIELD_TYPES = new Set([
  "single_line_text_field",
  "multi_line_text_field",
  "rich_text_field",
  "json",
  "boolean",
  "number_integer",
  "number_decimal",
  "date",
  "date_time",
  "url",
  "color",
  "money",
  "weight",
  "dimension",
  "volume",
  "rating",
  "id",
  "link",
  "list.single_line_text_field",
  "list.number_integer",
  "list.url",
]);

/** Rough value validation per type, in the spirit of Shopify's (messages are the emulator's own). */
function valueProblem(type: string, value: string): string | null {
  const isJson = () => {
    try {
      JSON.parse(value);
      return true;
    } catch {
      return false;
    }
  };
  switch (type) {
    case "single_line_text_field":
      return /[\r\n]/.test(value) ? "Value must be a single line of text." : null;
    case "boolean":
      return value === "true" || value === "false" ? null : "Value must be true or false.";
    case "number_integer":
      return /^-?\d+$/.test(value) && Math.abs(Number(value)) <= 9007199254740991 ? null : "Value must be an integer.";
    case "number_decimal":
      return /^-?\d+(\.\d+)?$/.test(value) ? null : "Value must be a decimal number.";
    case "date":
      return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) ? null : "Value must be a date in the format YYYY-MM-DD.";
    case "date_time":
      return /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value)) ? null : "Value must be an ISO 8601 date and time.";
    case "url":
      return isHttpUrl(value) ? null : "Value must be a valid URL with an http or https scheme.";
    case "color":
      return /^#[0-9a-fA-F]{6}$/.test(value) ? null : "Value must be a hex color code such as #1a2b3c.";
    case "json":
    case "rich_text_field":
      return isJson() ? null : "Value must be valid JSON.";
    case "money": {
      if (!isJson()) return "Value must be JSON with amount and currency_code.";
      const money = JSON.parse(value) as { amount?: unknown; currency_code?: unknown };
      return typeof money.amount === "string" && typeof money.currency_code === "string" ? null : "Value must be JSON with amount and currency_code.";
    }
    default:
      if (type.startsWith("list.") || ["weight", "dimension", "volume", "rating", "link"].includes(type)) return isJson() ? null : "Value must be valid JSON.";
      return null;
  }
}

const KEY_PATTERN = /^[a-zA-Z0-9_-]+$/;

function ownerExists(shop: ShopState, ownerGid: string): boolean {
  const parsed = parseGid(ownerGid);
  if (!parsed) return false;
  if (parsed.type === "Order") return shop.orders.some((o) => o.id === parsed.id);
  if (parsed.type === "Shop") return ownerGid === shopGid(shop);
  return false;
}

function ownerTypeOf(ownerGid: string): string {
  return parseGid(ownerGid)?.type === "Shop" ? "SHOP" : "ORDER";
}

function metafieldsSet(ctx: EmulatorContext, args: Args) {
  const { shop } = ctx;
  const inputs = args.metafields as { ownerId: string; namespace?: string | null; key: string; type?: string | null; value: string; compareDigest?: string | null }[];
  if (inputs.length > METAFIELDS_SET_LIMIT) {
    return {
      metafields: null,
      userErrors: [
        {
          field: ["metafields"],
          message: `Exceeded the maximum metafields input limit of ${METAFIELDS_SET_LIMIT}.`,
          code: "LESS_THAN_OR_EQUAL_TO",
          elementIndex: null,
        },
      ],
    };
  }
  const errors: UserError[] = [];
  const planned: { index: number; existing: MetafieldState | undefined; ownerGid: string; namespace: string; key: string; type: string; value: string }[] = [];
  inputs.forEach((input, index) => {
    const at = (field: string) => ["metafields", String(index), field];
    const push = (field: string, message: string, code: string) => errors.push({ field: at(field), message, code, elementIndex: index });
    const parsedOwner = parseGid(input.ownerId);
    if (!parsedOwner || (parsedOwner.type !== "Order" && parsedOwner.type !== "Shop")) {
      if (parsedOwner) throw new Error(`metafieldsSet on ${parsedOwner.type} owners is not emulated`);
      push("ownerId", "Owner does not exist.", "INVALID");
      return;
    }
    if (!ownerExists(shop, input.ownerId)) {
      push("ownerId", "Owner does not exist.", "INVALID");
      return;
    }
    const namespace = resolveNamespace(input.namespace ?? "$app", shop.appId);
    if (namespace.length < 2 || namespace.length > 255 || !KEY_PATTERN.test(namespace)) {
      push("namespace", "Namespace must be 2 to 255 characters: letters, digits, dashes and underscores.", "INVALID");
      return;
    }
    if (input.key.length < 2 || input.key.length > 64 || !KEY_PATTERN.test(input.key)) {
      push("key", "Key must be 2 to 64 characters: letters, digits, dashes and underscores.", input.key.length < 2 ? "TOO_SHORT" : "INVALID");
      return;
    }
    const existing = shop.metafields.find((m) => m.ownerGid === input.ownerId && m.namespace === namespace && m.key === input.key);
    const definition = shop.definitions.find((d) => d.ownerType === ownerTypeOf(input.ownerId) && d.namespace === namespace && d.key === input.key);
    const type = input.type ?? definition?.type ?? existing?.type;
    if (!type) {
      push("type", "Type can't be blank.", "BLANK");
      return;
    }
    if (!METAFIELD_TYPES.has(type)) {
      push("type", `Type '${type}' is not a valid metafield type (or is not emulated).`, "INVALID_TYPE");
      return;
    }
    if (definition && definition.type !== type) {
      push("type", `Type must be ${definition.type}, as set by the metafield definition.`, "INVALID_TYPE");
      return;
    }
    const problem = valueProblem(type, input.value);
    if (problem) {
      push("value", problem, "INVALID_VALUE");
      return;
    }
    if (input.compareDigest != null) {
      if (!existing || compareDigest(existing.value) !== input.compareDigest) {
        push("compareDigest", "The resource has been updated since it was loaded. Try again with an updated `compareDigest` value.", "STALE_OBJECT");
        return;
      }
    }
    planned.push({ index, existing, ownerGid: input.ownerId, namespace, key: input.key, type, value: input.value });
  });
  if (errors.length > 0) return { metafields: null, userErrors: errors };
  const at = isoNow(ctx.now);
  const saved = planned.map((step) => {
    const current = shop.metafields.find((m) => m.ownerGid === step.ownerGid && m.namespace === step.namespace && m.key === step.key);
    if (current) {
      if (current.value !== step.value || current.type !== step.type) current.updatedAt = at;
      current.value = step.value;
      current.type = step.type;
      return current;
    }
    const created: MetafieldState = { id: nextId(shop, "metafield"), ownerGid: step.ownerGid, namespace: step.namespace, key: step.key, type: step.type, value: step.value, createdAt: at, updatedAt: at };
    shop.metafields.push(created);
    return created;
  });
  ctx.changed();
  return { metafields: saved.map((mf) => metafieldView(ctx, mf)), userErrors: [] };
}

function metafieldDefinitionCreate(ctx: EmulatorContext, args: Args) {
  const { shop } = ctx;
  const input = args.definition as { name: string; namespace?: string | null; key: string; type: string; ownerType: string; description?: string | null; pin?: boolean | null };
  const errors: UserError[] = [];
  const push = (field: string, message: string, code: string) =>
    errors.push({ field: ["definition", field], message, code, elementIndex: null, elementKey: null } as UserError);
  const namespace = resolveNamespace(input.namespace ?? "$app", shop.appId);
  if (!["ORDER", "SHOP"].includes(input.ownerType)) throw new Error(`metafieldDefinitionCreate for ownerType ${input.ownerType} is not emulated`);
  if (input.name.trim() === "") push("name", "Name can't be blank.", "BLANK");
  if (input.key.length < 2) push("key", "Key is too short (minimum is 2 characters).", "TOO_SHORT");
  else if (input.key.length > 64) push("key", "Key is too long (maximum is 64 characters).", "TOO_LONG");
  else if (!KEY_PATTERN.test(input.key)) push("key", "Key contains one or more invalid characters.", "INVALID_CHARACTER");
  if (namespace.length < 2 || !KEY_PATTERN.test(namespace)) push("namespace", "Namespace contains one or more invalid characters.", "INVALID_CHARACTER");
  if (!METAFIELD_TYPES.has(input.type)) push("type", `Type '${input.type}' is not a valid metafield definition type (or is not emulated).`, "INCLUSION");
  if (shop.definitions.some((d) => d.ownerType === input.ownerType && d.namespace === namespace && d.key === input.key)) {
    push("key", `Key is in use for ${input.ownerType === "ORDER" ? "Order" : "Shop"} metafields on the '${namespace}' namespace.`, "TAKEN");
  }
  if (errors.length > 0) return { createdDefinition: null, userErrors: errors };
  const definition = {
    id: nextId(shop, "definition"),
    ownerType: input.ownerType,
    namespace,
    key: input.key,
    name: input.name,
    type: input.type,
    description: input.description ?? null,
    pinned: input.pin === true,
  };
  shop.definitions.push(definition);
  ctx.changed();
  return { createdDefinition: metafieldDefinitionView(definition), userErrors: [] };
}

export function mutationRoot(ctx: EmulatorContext): Record<string, unknown> {
  return {
    fulfillmentCreate: (args: Args) => fulfillmentCreate(ctx, args.fulfillment as Args, args.message),
    fulfillmentCreateV2: (args: Args) => fulfillmentCreate(ctx, args.fulfillment as Args, args.message),
    fulfillmentTrackingInfoUpdate: (args: Args) => fulfillmentTrackingInfoUpdate(ctx, args),
    fulfillmentTrackingInfoUpdateV2: (args: Args) => fulfillmentTrackingInfoUpdate(ctx, args),
    fulfillmentCancel: (args: Args) => fulfillmentCancel(ctx, args),
    metafieldsSet: (args: Args) => metafieldsSet(ctx, args),
    metafieldDefinitionCreate: (args: Args) => metafieldDefinitionCreate(ctx, args),
    bulkOperationRunQuery: (args: Args) => {
      if (!ctx.bulk) throw notEmulated("bulkOperationRunQuery without a server");
      return ctx.bulk.run(String(args.query));
    },
  };
}

