/**
 * What a webhook delivery may act on. Shopify's HMAC covers the body only: the `X-Shopify-Topic` and
 * `X-Shopify-Shop-Domain` headers can be rewritten by anyone who holds one correctly signed body. So a route
 * accepts only its own topic, the body must have that topic's shape (a signed body of another topic is refused),
 * and the shop the body names must be the shop in the header. Pure: no I/O.
 */
import { z } from "zod";

export type WebhookTopic =
  | "APP_UNINSTALLED"
  | "APP_SCOPES_UPDATE"
  | "CUSTOMERS_DATA_REQUEST"
  | "CUSTOMERS_REDACT"
  | "SHOP_REDACT";

/** Normalises "app/uninstalled" and "APP_UNINSTALLED" alike. */
export function normaliseTopic(topic: string): string {
  return topic.replace(/\//g, "_").toUpperCase();
}

const id = z.union([z.number(), z.string()]);
const domain = z.string().min(1);

/** Keys that only another topic's body carries: their presence means the body was signed for that topic. */
const absent = z.never().optional();

// Shapes from Shopify's docs (privacy law compliance webhooks; the app/uninstalled body is the shop object).
const shopRedact = z.object({
  shop_domain: domain,
  customer: absent,
  orders_to_redact: absent,
  orders_requested: absent,
  data_request: absent,
});
const customersRedact = z.object({
  shop_domain: domain,
  customer: z.object({ id: id.nullish(), email: z.string().nullish(), phone: z.string().nullish() }),
  orders_to_redact: z.array(id),
  orders_requested: absent,
  data_request: absent,
});
const customersDataRequest = z.object({
  shop_domain: domain,
  customer: z.object({ id: id.nullish(), email: z.string().nullish(), phone: z.string().nullish() }),
  orders_requested: z.array(id).default([]),
  data_request: z.object({ id }).optional(),
  orders_to_redact: absent,
});
const appUninstalled = z.object({ myshopify_domain: domain, shop_domain: absent });
// app/scopes_update names no shop domain (only `shop_id` since 2025-07): see `scopesUpdateOnly`.
const appScopesUpdate = z.object({ current: z.array(z.string()), shop_domain: absent, myshopify_domain: absent });

export type CustomersDataRequestPayload = z.infer<typeof customersDataRequest>;
export type CustomersRedactPayload = z.infer<typeof customersRedact>;

export type SignedDelivery =
  | { topic: "APP_UNINSTALLED"; shop: string }
  | { topic: "APP_SCOPES_UPDATE"; shop: string; current: string[] }
  | { topic: "CUSTOMERS_DATA_REQUEST"; shop: string; payload: CustomersDataRequestPayload }
  | { topic: "CUSTOMERS_REDACT"; shop: string; payload: CustomersRedactPayload }
  | { topic: "SHOP_REDACT"; shop: string };

export type DeliveryRefusal = "wrong-topic" | "payload-of-another-shape" | "shop-mismatch";

export type DeliveryCheck = { ok: true; delivery: SignedDelivery } | { ok: false; reason: DeliveryRefusal };

export interface ReceivedDelivery {
  /** The X-Shopify-Topic header (not signed). */
  topic: string;
  /** The X-Shopify-Shop-Domain header (not signed). */
  shop: string;
  /** The signed body, parsed. */
  payload: unknown;
}

function sameShop(header: string, signed: string): boolean {
  return header.trim().toLowerCase() === signed.trim().toLowerCase();
}

/** Decides whether a delivery that passed the HMAC check may be acted on by the route for `expected`. */
export function checkDelivery(expected: WebhookTopic, received: ReceivedDelivery): DeliveryCheck {
  if (normaliseTopic(received.topic) !== expected) return { ok: false, reason: "wrong-topic" };
  const shop = received.shop.trim().toLowerCase();
  const refuse = (reason: DeliveryRefusal): DeliveryCheck => ({ ok: false, reason });
  switch (expected) {
    case "SHOP_REDACT": {
      const parsed = shopRedact.safeParse(received.payload);
      if (!parsed.success) return refuse("payload-of-another-shape");
      if (!sameShop(shop, parsed.data.shop_domain)) return refuse("shop-mismatch");
      return { ok: true, delivery: { topic: expected, shop } };
    }
    case "CUSTOMERS_REDACT": {
      const parsed = customersRedact.safeParse(received.payload);
      if (!parsed.success) return refuse("payload-of-another-shape");
      if (!sameShop(shop, parsed.data.shop_domain)) return refuse("shop-mismatch");
      return { ok: true, delivery: { topic: expected, shop, payload: parsed.data } };
    }
    case "CUSTOMERS_DATA_REQUEST": {
      const parsed = customersDataRequest.safeParse(received.payload);
      if (!parsed.success) return refuse("payload-of-another-shape");
      if (!sameShop(shop, parsed.data.shop_domain)) return refuse("shop-mismatch");
      return { ok: true, delivery: { topic: expected, shop, payload: parsed.data } };
    }
    case "APP_UNINSTALLED": {
      const parsed = appUninstalled.safeParse(received.payload);
      if (!parsed.success) return refuse("payload-of-another-shape");
      if (!sameShop(shop, parsed.data.myshopify_domain)) return refuse("shop-mismatch");
      return { ok: true, delivery: { topic: expected, shop } };
    }
    case "APP_SCOPES_UPDATE": {
      const parsed = appScopesUpdate.safeParse(received.payload);
      if (!parsed.success) return refuse("payload-of-another-shape");
      return { ok: true, delivery: { topic: expected, shop, current: parsed.data.current } };
    }
  }
}

/**
 * app/scopes_update cannot be tied to a shop by its body, so a replayed body could claim scopes for any shop.
 * Only the part that cannot hurt is applied: the stored scopes may shrink (the next admin request then exchanges
 * the token again and stores what Shopify really granted), never grow beyond what was stored.
 */
export function scopesUpdateOnly(stored: string | null, current: readonly string[]): string | null {
  if (stored === null) return null;
  const granted = new Set<string>();
  for (const scope of current.map((value) => value.trim())) {
    granted.add(scope);
    // Shopify treats write_x as granting read_x too.
    if (scope.startsWith("write_")) granted.add(`read_${scope.slice("write_".length)}`);
  }
  return stored
    .split(",")
    .map((scope) => scope.trim())
    .filter((scope) => scope !== "" && granted.has(scope))
    .join(",");
}
