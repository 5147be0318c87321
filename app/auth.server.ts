/**
 * Admin context for app routes. In a real install: Shopify's embedded authentication. In demo mode (local only,
 * refused in production by config.server.ts): the demo shop's offline session, so the pages open outside the admin.
 */
import { config } from "./config.server";
import { DEMO_SHOP_DOMAIN } from "./demo/seed-demo-shop.server";
import { withShopifyBudget } from "./shopify/admin-client";
import { authenticate, unauthenticated } from "./shopify.server";


export async function requireAdmin(request: Request) {
  if (config().ETIQUETTE_DEMO) {
    const { admin, session } = await unauthenticated.admin(DEMO_SHOP_DOMAIN);
    // Every Admin call is paced by the shop's Shopify budget (app/shopify/budget.ts).
    return { admin: withShopifyBudget(admin, { shop: session.shop }), session, shop: session.shop, demo: true as const };
  }
  const { admin, session } = await authenticate.admin(request);
  return { admin: withShopifyBudget(admin, { shop: session.shop }), session, shop: session.shop, demo: false as const };
}
