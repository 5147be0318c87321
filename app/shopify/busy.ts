/** The "Shopify is busy" answer's shape, shared by the server (busy.server.ts) and the error boundary (browser). */
export const SHOPIFY_BUSY_CODE = "shopify_busy";

export interface ShopifyBusyBody {
  code: typeof SHOPIFY_BUSY_CODE;
  retryAfterSeconds: number;
}

/** The busy answer's body, when a route error is one (as Remix hands it to an error boundary: status and data). */
export function shopifyBusyFromRouteError(error: unknown): ShopifyBusyBody | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { status, data } = error as { status?: unknown; data?: unknown };
  if (status !== 503 || typeof data !== "object" || data === null) return undefined;
  const body = data as Partial<ShopifyBusyBody>;
  if (body.code !== SHOPIFY_BUSY_CODE || typeof body.retryAfterSeconds !== "number" || !Number.isFinite(body.retryAfterSeconds)) return undefined;
  return { code: SHOPIFY_BUSY_CODE, retryAfterSeconds: Math.min(300, Math.max(1, Math.ceil(body.retryAfterSeconds))) };
}
