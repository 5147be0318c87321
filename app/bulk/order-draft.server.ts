/**
 * The order a bulk job's preflight read (one bulk operation for the whole selection, decision 0181), kept on each
 * ready item so the item labels from it instead of reading the order again (decision 0184). It holds the recipient,
 * so it is sealed at rest with the app's secret box (decision 0172) and cleared once the item ran.
 *
 * Used only while fresh (ORDER_DRAFT_FRESH_MS after the read started): an older draft, one that no longer opens
 * (key retired) or no longer parses, is ignored and the item reads the order directly, as the order page does.
 */
import { snapshotBox } from "../privacy/snapshot-seal.server";
import type { SecretBox } from "../security/secret-box.server";
import { orderForLabelSchema, type OrderForLabel } from "../shopify/operations/order-for-label";

/** How long an item may label from its job's read: past this, the order is read again. */
export const ORDER_DRAFT_FRESH_MS = 10 * 60_000;

/** The order as stored on the item: its JSON, sealed. */
export function sealOrderDraft(order: OrderForLabel, box: SecretBox = snapshotBox()): string {
  return box.encrypt(JSON.stringify(order)).ciphertext;
}

/** The item's stored order when it is still fresh and readable, else null (the caller reads the order directly). */
export function openOrderDraft(
  item: { orderId: string; orderSealed: string | null; orderReadAt: Date | null },
  now: Date,
  options: { box?: SecretBox; freshMs?: number } = {},
): OrderForLabel | null {
  if (!item.orderSealed || !item.orderReadAt) return null;
  const age = now.getTime() - item.orderReadAt.getTime();
  if (age < 0 || age > (options.freshMs ?? ORDER_DRAFT_FRESH_MS)) return null;
  try {
    const parsed = orderForLabelSchema.safeParse(JSON.parse((options.box ?? snapshotBox()).decrypt(item.orderSealed)));
    return parsed.success && parsed.data.id === item.orderId ? parsed.data : null;
  } catch {
    return null;
  }
}
