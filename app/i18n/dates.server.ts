/**
 * The date context of a request: the merchant's language and the shop's time zone. The time zone is read from Shopify
 * once per shop and kept for an hour (a shop rarely moves), so a page costs no extra Admin call most of the time.
 */
import type { AdminGraphqlClient } from "../shopify/admin-client";
import { fetchShopTimeZone } from "../shopify/operations/shop-time-zone";
import type { DateContext } from "./dates";
import { localeFromRequest } from "./locale";

const TTL_MS = 60 * 60 * 1000;
const cache = new Map<string, { timeZone: string; expiresAt: number }>();

export async function shopTimeZone(admin: AdminGraphqlClient, shop: string, now = Date.now()): Promise<string> {
  const cached = cache.get(shop);
  if (cached && cached.expiresAt > now) return cached.timeZone;
  const timeZone = await fetchShopTimeZone(admin);
  cache.set(shop, { timeZone, expiresAt: now + TTL_MS });
  return timeZone;
}

export function forgetShopTimeZone(shop?: string): void {
  if (shop) cache.delete(shop);
  else cache.clear();
}

export async function dateContextFor(request: Request, admin: AdminGraphqlClient, shop: string): Promise<DateContext> {
  return { locale: localeFromRequest(request), timeZone: await shopTimeZone(admin, shop) };
}
