/**
 * Admin context for app routes. In a real install: Shopify's embedded authentication. In demo mode (local only,
 * refused in production by config.server.ts): the demo shop's offline session, so the pages open outside the admin.
 */
import { config } from "./config.server";
import { DEMO_SHOP_DOMAIN } from "./demo/seed-demo-shop.server";
import { staffUserIdOf } from "./settings/environment.server";
import { withShopifyBudget } from "./shopify/admin-client";
import { authenticate, unauthenticated } from "./shopify.server";


export async function requireAdmin(request: Request) {
  if (config().ETIQUETTE_DEMO) {
    const { admin, session } = await unauthenticated.admin(DEMO_SHOP_DOMAIN);
    // No staff member in the demo: it has no session token. Every Admin call is paced by the shop's Shopify budget
    // (app/shopify/budget.ts).
    return { admin: withShopifyBudget(admin, { shop: session.shop }), session, shop: session.shop, staffUserId: null, demo: true as const };
  }
  const { admin, session, sessionToken } = await authenticate.admin(request);
  return {
    admin: withShopifyBudget(admin, { shop: session.shop }),
    session,
    shop: session.shop,
    staffUserId: staffUserIdOf({ sessionToken, session }),
    demo: false as const,
  };
}
