/**
 * Authentication for the JSON API (`app/routes/api.*`) that the admin extensions and scripts call. A real install:
 * the admin session token (`Authorization: Bearer …`, added by Shopify to an extension's relative fetch), checked by
 * `authenticate.admin`, and CORS headers for the admin's origin on every answer. Demo mode (local only, refused in
 * production by config.server.ts): the demo shop, like the app's pages.
 */
import { config } from "../config.server";
import { DEMO_SHOP_DOMAIN } from "../demo/seed-demo-shop.server";
import { staffUserIdOf } from "../settings/environment.server";
import { withShopifyBudget, type AdminGraphqlClient } from "../shopify/admin-client";
import { authenticate, unauthenticated } from "../shopify.server";

export interface ApiAdmin {
  shop: string;
  admin: AdminGraphqlClient;
  staffUserId: string | null;
  /** Adds the admin origin's CORS headers to an answer. */
  cors: (response: Response) => Response;
  demo: boolean;
}

export async function requireApiAdmin(request: Request): Promise<ApiAdmin> {
  if (config().ETIQUETTE_DEMO) {
    const { admin, session } = await unauthenticated.admin(DEMO_SHOP_DOMAIN);
    return { shop: session.shop, admin: withShopifyBudget(admin, { shop: session.shop }), staffUserId: null, cors: (response) => response, demo: true };
  }
  // Throws a Response (401, or the CORS preflight's answer) when the token is missing, expired or not ours.
  const { admin, session, sessionToken, cors } = await authenticate.admin(request);
  return {
    shop: session.shop,
    admin: withShopifyBudget(admin, { shop: session.shop }),
    staffUserId: staffUserIdOf({ sessionToken, session }),
    cors: (response) => cors(response),
    demo: false,
  };
}

/** A JSON answer with the API's CORS headers. */
export function apiJson(api: Pick<ApiAdmin, "cors">, body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  return api.cors(new Response(JSON.stringify(body), { ...init, headers }));
}
