/**
 * The app's Print buttons post a form to /app/print: `labelIds` (repeated), `orderId` (one), `unprinted=1`, and an
 * optional `order` (orderName | sku). Read into the same request the JSON API takes, checked with its schema.
 */
import { printRequestSchema, type PrintRequest } from "./request";

export function printFormRequest(fields: Record<string, string> | null, labelIds: readonly FormDataEntryValue[]): PrintRequest | null {
  if (!fields) return null;
  const order = fields.order === "sku" || fields.order === "orderName" ? { order: fields.order } : {};
  const ids = labelIds.filter((value): value is string => typeof value === "string" && value.length > 0);
  const candidate = ids.length > 0 ? { labelIds: ids, ...order } : fields.orderId ? { orderIds: [fields.orderId], ...order } : fields.unprinted === "1" ? { unprinted: true, ...order } : null;
  const parsed = printRequestSchema.safeParse(candidate);
  return parsed.success ? parsed.data : null;
}
