/**
 * "Fulfil with test labels": whether a staging (test) label creates the Shopify fulfillment (and Shopify's shipping
 * notice to the customer). Off by default. It may be turned on only on a partner development store, whose customers
 * are test buyers; on any other store a test tracking number would reach a real customer (decision 0170).
 */
import type { PrismaClient } from "../generated/prisma/client";
import { statements } from "../db-direct.server";
import type { AdminGraphqlClient } from "../shopify/admin-client";
import { fetchIsDevelopmentStore } from "../shopify/operations/shop-plan";

export async function fulfilTestLabelsSetting(db: PrismaClient, shop: string): Promise<boolean> {
  const rows = await statements(db).$queryRaw<{ fulfilTestLabels: boolean | number }[]>`SELECT "fulfilTestLabels" FROM "ShopSettings" WHERE "shop" = ${shop}`;
  return Boolean(rows[0]?.fulfilTestLabels);
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

/** The settings page's "setFulfilTestLabels" form: `on` is "true" or "false". */
export async function testLabelsAction(
  deps: { db: PrismaClient; admin: AdminGraphqlClient },
  shop: string,
  form: FormData,
): Promise<{
  intent: "setFulfilTestLabels";
  ok: boolean;
  messageKey: "real.testLabels.saved" | "real.testLabels.error.not_development_store";
  values?: Record<string, string>;
}> {
  const change = await setFulfilTestLabels(deps, shop, form.get("on") === "true");
  return change.ok
    ? { intent: "setFulfilTestLabels", ok: true, messageKey: "real.testLabels.saved" }
    : { intent: "setFulfilTestLabels", ok: false, messageKey: `real.testLabels.error.${change.code}` };
}

/** What the settings page shows: the setting, and whether Shopify says this is a development store (false if unknown). */
export async function testLabelsState(deps: { db: PrismaClient; admin: AdminGraphqlClient }, shop: string) {
  const [on, developmentStore] = await Promise.all([
    fulfilTestLabelsSetting(deps.db, shop),
    fetchIsDevelopmentStore(deps.admin).catch(() => false),
  ]);
  return { on, developmentStore };
}
