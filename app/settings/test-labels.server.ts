/**
 * "Fulfil with test labels": whether a staging (test) label creates the Shopify fulfillment (and Shopify's shipping
 * notice to the customer). Off by default. It may be turned on only on a partner development store, whose customers
 * are test buyers; on any other store a test tracking number would reach a real customer (decision 0170).
 */
import type { PrismaClient } from "../generated/prisma/client";
import type { AdminGraphqlClient } from "../shopify/admin-client";
import { fetchIsDevelopmentStore } from "../shopify/operations/shop-plan";

export async function fulfilTestLabelsSetting(db: PrismaClient, shop: string): Promise<boolean> {
  const row = await db.shopSettings.findUnique({ where: { shop }, select: { fulfilTestLabels: true } });
  return row?.fulfilTestLabels ?? false;
}

export type FulfilTestLabelsChange = { ok: true; on: boolean } | { ok: false; code: "not_development_store" };

/** Turns the setting on (a development store only, asked of Shopify now) or off (always allowed). */
export async function setFulfilTestLabels(
  deps: { db: PrismaClient; admin: AdminGraphqlClient },
  shop: string,
  on: boolean,
): Promise<FulfilTestLabelsChange> {
  if (on && !(await fetchIsDevelopmentStore(deps.admin))) return { ok: false, code: "not_development_store" };
  await deps.db.shopSettings.upsert({
    where: { shop },
    create: { shop, fulfilTestLabels: on },
    update: { fulfilTestLabels: on },
  });
  return { ok: true, on };
}
