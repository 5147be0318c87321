/**
 * What each webhook does, as plain functions over the database. Each is safe to run twice.
 * Routes verify the HMAC (authenticate.webhook), check the delivery against its signed body (`checkDelivery`)
 * and call `handleWebhook` with what the check returned: the shop here is one the signed body named.
 */
import type { PrismaClient } from "../generated/prisma/client";
import type { JobQueue } from "../jobs/types";
import { moduleLogger } from "../observability/logger.server";
import { recordDataRequest } from "../privacy/data-request.server";
import { deleteShopData, redactCustomerOrders, type CachedLabelFiles } from "../privacy/redact.server";
import { scopesUpdateOnly, type SignedDelivery } from "./signed-delivery";

export { normaliseTopic, type WebhookTopic } from "./signed-delivery";

export interface WebhookDeps {
  /** The running queue: shop/redact deletes the shop's jobs it keeps outside the app's tables (pg-boss). */
  queue?: Pick<JobQueue, "forgetShop"> | null;
  /** This instance's cache of label files: customers/redact and shop/redact remove the files they concern. */
  labelFiles?: CachedLabelFiles | null;
}

async function apply(db: PrismaClient, delivery: SignedDelivery, webhookId: string, deps: WebhookDeps): Promise<void> {
  const { shop } = delivery;
  switch (delivery.topic) {
    case "APP_UNINSTALLED":
      // Sessions go now; shop data stays until shop/redact (Shopify sends it 48 hours after uninstall).
      await db.session.deleteMany({ where: { shop } });
      return;
    case "APP_SCOPES_UPDATE": {
      const sessions = await db.session.findMany({ where: { shop }, select: { id: true, scope: true } });
      for (const session of sessions) {
        const scope = scopesUpdateOnly(session.scope, delivery.current);
        if (scope !== session.scope) await db.session.update({ where: { id: session.id }, data: { scope } });
      }
      return;
    }
    case "CUSTOMERS_DATA_REQUEST": {
      // Recorded (ids only); the merchant opens the export in the app (Customer data requests) and hands it over.
      const id = await recordDataRequest(db, shop, delivery.payload, webhookId);
      moduleLogger("webhooks").info({ shop, webhookId, dataRequestId: id }, "customers/data_request recorded: the export waits in the app");
      return;
    }
    case "CUSTOMERS_REDACT":
      await redactCustomerOrders(
        db,
        shop,
        delivery.payload.orders_to_redact.map((id) => `gid://shopify/Order/${id}`),
        { labelFiles: deps.labelFiles },
      );
      return;
    case "SHOP_REDACT":
      await deleteShopData(db, shop, { queue: deps.queue, labelFiles: deps.labelFiles });
      return;
  }
}

/**
 * Runs a delivery once: a redelivery with the same X-Shopify-Webhook-Id is a no-op. The handlers are idempotent
 * anyway, so a crash between the work and the record only means the work is repeated harmlessly. shop/redact is not
 * recorded: after it nothing of the shop is kept, not even that delivery (a redelivery deletes nothing more).
 */
export async function handleWebhook(
  db: PrismaClient,
  webhookId: string,
  delivery: SignedDelivery,
  deps: WebhookDeps = {},
): Promise<"handled" | "duplicate"> {
  const seen = await db.webhookDelivery.findUnique({ where: { webhookId } });
  if (seen) return "duplicate";
  await apply(db, delivery, webhookId, deps);
  if (delivery.topic === "SHOP_REDACT") return "handled";
  await db.webhookDelivery.upsert({
    where: { webhookId },
    create: { webhookId, shop: delivery.shop, topic: delivery.topic },
    update: {},
  });
  return "handled";
}
