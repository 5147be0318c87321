/**
 * "Shopify is busy" for the merchant instead of a 500: a loader's ShopifyBusyError (the shop's Admin budget stayed
 * short past the wait bound) becomes a 503 with Retry-After and a small JSON body the app layout's error boundary
 * recognises (it shows a translated notice and reloads by itself). Actions return a notice instead (see
 * app/labels/order-label-actions.server.ts); nothing here ever buys or writes.
 */
import { isShopifyBusy, type ShopifyBusyError } from "./admin-client";
import { SHOPIFY_BUSY_CODE, type ShopifyBusyBody } from "./busy";

export function retryAfterSeconds(error: ShopifyBusyError): number {
  return Math.max(1, Math.ceil(error.retryAfterMs / 1000));
}

export function shopifyBusyResponse(error: ShopifyBusyError): Response {
  const seconds = retryAfterSeconds(error);
  const body: ShopifyBusyBody = { code: SHOPIFY_BUSY_CODE, retryAfterSeconds: seconds };
  return Response.json(body, { status: 503, headers: { "Retry-After": String(seconds), "Cache-Control": "no-store" } });
}

/** Awaits a loader's Shopify work; a ShopifyBusyError is thrown on as the 503 answer above, anything else unchanged. */
export async function answeringShopifyBusy<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isShopifyBusy(error)) throw shopifyBusyResponse(error);
    throw error;
  }
}
