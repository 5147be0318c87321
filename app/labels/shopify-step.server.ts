/**
 * The ONE decision whether a stored label goes to Shopify (fulfillment with tracking, customer notice, order
 * metafield), asked by pushLabelToShopify before anything is written there (decision 0170):
 *  - a production (charged) label: always;
 *  - a staging (test) label: only when the shop turned "fulfil with test labels" on AND Shopify says, now, that the
 *    shop is a partner development store. Otherwise the label is stored and shown, the order is not fulfilled and no
 *    one is notified: a test tracking number never reaches a real customer.
 * The store's plan is read at each push (not only when the setting was saved): a development store moved to a paid
 * plan stops fulfilling test labels at once; a bulk job keeps it for at most a minute (decision 0186). A plan that
 * cannot be read counts as "not a development store".
 */
import type { PrismaClient } from "../generated/prisma/client";
import { isShopifyBusy, type AdminGraphqlClient } from "../shopify/admin-client";
import { fetchIsDevelopmentStore } from "../shopify/operations/shop-plan";
import { fulfilTestLabelsSetting } from "../settings/test-labels.server";

/** Why a label's Shopify step was skipped (stored as `Label.fulfillmentStatus = "SKIPPED_TEST"`). */
export type ShopifyStepDecision = { push: true } | { push: false; reason: "test_label" };

export async function shopifyStepFor(
  deps: { db: PrismaClient; admin: AdminGraphqlClient; /** The plan as the caller keeps it (a bulk job, briefly). */ isDevelopmentStore?: () => Promise<boolean> },
  label: { shop: string; environment: string },
): Promise<ShopifyStepDecision> {
  if (label.environment === "production") return { push: true };
  if (!(await fulfilTestLabelsSetting(deps.db, label.shop))) return { push: false, reason: "test_label" };
  try {
    const developmentStore = deps.isDevelopmentStore ? await deps.isDevelopmentStore() : await fetchIsDevelopmentStore(deps.admin);
    return developmentStore ? { push: true } : { push: false, reason: "test_label" };
  } catch (error) {
    // Shopify busy: the push is retried later like any other busy answer, rather than skipped for good.
    if (isShopifyBusy(error)) throw error;
    return { push: false, reason: "test_label" };
  }
}
