/**
 * `GET /api/orders/:id/label?locale=fr`: the order's label draft for the admin's order action (summary, blocking
 * problems with their fixes, labels already bought). `POST` (empty body): Create label, through labelOrder.
 * Authenticated by the admin session token (app/http/api-auth.server.ts); the loader also answers the CORS preflight.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import db from "../db.server";
import { createOrderLabel, loadOrderLabelSummary, ORDER_ID_PATTERN } from "../extensions/order-label-api.server";
import { apiError, apiJson, apiLocale, readApiBody, requireApiAdmin, shopifyBusyAnswer } from "../http/api-auth.server";
import { labelContextFromAdmin } from "../labels/context.server";
import { z } from "zod";

const createBody = z.object({}).strict();

export async function loader({ request, params }: LoaderFunctionArgs) {
  const api = await requireApiAdmin(request);
  const locale = apiLocale(request);
  const orderId = params.id ?? "";
  if (!ORDER_ID_PATTERN.test(orderId)) return apiError(api, 400, "bad_order_id", locale);
  try {
    const summary = await loadOrderLabelSummary(db, api.admin, api.shop, orderId, locale);
    if (!summary) return apiError(api, 404, "order_not_found", locale);
    return apiJson(api, summary);
  } catch (error) {
    return shopifyBusyAnswer(api, error, locale);
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const api = await requireApiAdmin(request);
  const locale = apiLocale(request);
  if (request.method !== "POST") return apiError(api, 405, "method_not_allowed", locale);
  const orderId = params.id ?? "";
  if (!ORDER_ID_PATTERN.test(orderId)) return apiError(api, 400, "bad_order_id", locale);
  const body = await readApiBody(request, createBody);
  if (!body.ok) return apiError(api, 400, "bad_body", locale);
  try {
    const context = await labelContextFromAdmin(api.shop, api.admin);
    return apiJson(api, await createOrderLabel(context, orderId, locale));
  } catch (error) {
    return shopifyBusyAnswer(api, error, locale);
  }
}
