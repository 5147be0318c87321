/**
 * What each webhook does, as plain functions over the database. Each is safe to run twice.
 * Routes verify the HMAC (authenticate.webhook) and call `handleWebhook`.
 */
import { z } from "zod";
import type { PrismaClient } from "../generated/prisma/client";
import { deleteShopData, redactCustomerOrders } from "../privacy/redact.server";

export type WebhookTopic =
  | "APP_UNINSTALLED"
  | "APP_SCOPES_UPDATE"
  | "CUSTOMERS_DATA_REQUEST"
  | "CUSTOMERS_REDACT"
  | "SHOP_REDACT";

export interface WebhookDeliveryInput {
  webhookId: string;
  shop: string;
  topic: string;
  payload: unknown;
}

const scopesUpdatePayload = z.object({ current: z.array(z.string()) });
const customersRedactPayload = z.object({
  orders_to_redact: z.array(z.union([z.number(), z.string()])).default([]),
});

/** Normalises "app/uninstalled" and "APP_UNINSTALLED" alike. */
export function normaliseTopic(topic: string): string {
  return topic.replace(/\//g, "_").toUpperCase();
}

async function apply(db: PrismaClient, delivery: WebhookDeliveryInput): Promise<void> {
  const { shop } = delivery;
  switch (normaliseTopic(delivery.topic) as WebhookTopic) {
    case "APP_UNINSTALLED":
      // Sessions go now; shop data stays until shop/redact (Shopify sends it 48 hours after uninstall).
      await db.session.deleteMany({ where: { shop } });
      return;
    case "APP_SCOPES_UPDATE": {
      const payload = scopesUpdatePayload.parse(delivery.payload);
      await db.session.updateMany({ where: { shop }, data: { scope: payload.current.join(",") } });
      return;
    }
    case "CUSTOMERS_DATA_REQUEST":
      // The only customer data we hold are shipping details inside label request snapshots, which the merchant
      // can already see on the order. Nothing to send; the request is acknowledged and logged (no personal data).
      console.info(`customers/data_request received for ${shop}`);
      return;
    case "CUSTOMERS_REDACT": {
      const payload = customersRedactPayload.parse(delivery.payload);
      await redactCustomerOrders(
        db,
        shop,
        payload.orders_to_redact.map((id) => `gid://shopify/Order/${id}`),
      );
      return;
    }
    case "SHOP_REDACT":
      await deleteShopData(db, shop);
      return;
    default:
      throw new Error(`Unhandled webhook topic ${delivery.topic}`);
  }
}

/**
 * Runs a delivery once: a redelivery with the same X-Shopify-Webhook-Id is a no-op. The handlers are idempotent
 * anyway, so a crash between the work and the record only means the work is repeated harmlessly.
 */
export async function handleWebhook(db: PrismaClient, delivery: WebhookDeliveryInput): Promise<"handled" | "duplicate"> {
  const seen = await db.webhookDelivery.findUnique({ where: { webhookId: delivery.webhookId } });
  if (seen) return "duplicate";
  await apply(db, delivery);
  await db.webhookDelivery.upsert({
    where: { webhookId: delivery.webhookId },
    create: { webhookId: delivery.webhookId, shop: delivery.shop, topic: normaliseTopic(delivery.topic) },
    update: {},
  });
  return "handled";
}
