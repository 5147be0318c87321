import db from "../db.server";
import { authenticate } from "../shopify.server";
import { handleWebhook } from "./handlers.server";

/** The body of every webhook route: verify the HMAC (a bad one gets 401 from the library), run once, answer 200. */
export async function webhookAction(request: Request): Promise<Response> {
  const { shop, topic, payload, webhookId } = await authenticate.webhook(request);
  await handleWebhook(db, { shop, topic, payload, webhookId });
  return new Response(null, { status: 200 });
}
