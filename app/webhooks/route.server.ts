import { config } from "../config.server";
import db from "../db.server";
import { databaseKind } from "../db-url";
import { moduleLogger } from "../observability/logger.server";
import { appLabelFiles, runningQueue } from "../print/runtime.server";
import { authenticate } from "../shopify.server";
import { handleWebhook } from "./handlers.server";
import { checkDelivery, type WebhookTopic } from "./signed-delivery";

/**
 * The body of every webhook route. `authenticate.webhook` verifies the HMAC: a wrong signature is 401, a request
 * without the signature (or another required X-Shopify-* header) is 400, as @shopify/shopify-app-remix answers.
 * Then the delivery must be this route's topic and its signed body must name the shop in the header; otherwise 400
 * and a warning (no personal data logged). Then it runs once and answers 200.
 */
export async function webhookAction(request: Request, expected: WebhookTopic): Promise<Response> {
  const { shop, topic, payload, webhookId } = await authenticate.webhook(request);
  const check = checkDelivery(expected, { shop, topic, payload });
  if (!check.ok) {
    moduleLogger("webhooks").warn({ reason: check.reason, route: expected, topic, shop, webhookId }, "webhook refused");
    return new Response(null, { status: 400 });
  }
  const started = performance.now();
  const queue = check.delivery.topic === "SHOP_REDACT" ? await runningQueue() : null;
  // On PostgreSQL the queue (pg-boss) keeps jobs, which name the shop's orders, in tables of its own: only a running
  // queue erases them. Without one (starting or stopping), 503 makes Shopify deliver shop/redact again later.
  if (check.delivery.topic === "SHOP_REDACT" && !queue && databaseKind(config().DATABASE_URL) === "postgresql") {
    moduleLogger("webhooks").warn({ topic, shop, webhookId }, "shop/redact postponed: the job queue is not running");
    return new Response(null, { status: 503 });
  }
  const redacts = check.delivery.topic === "SHOP_REDACT" || check.delivery.topic === "CUSTOMERS_REDACT";
  await handleWebhook(db, webhookId, check.delivery, { queue, labelFiles: redacts ? appLabelFiles() : null });
  moduleLogger("webhooks").info({ topic, shop, webhookId, durationMs: Math.round(performance.now() - started) }, "webhook handled");
  return new Response(null, { status: 200 });
}
