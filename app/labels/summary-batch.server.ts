/**
 * The `$app` order summaries a bulk job's items left to a batched write (decision 0185): one `metafieldsSet` for up
 * to 25 orders, so a label pays a share of its 10 points instead of all of them.
 *
 * An item whose push deferred its summary (`Label.summaryDueAt`) calls flushOrderSummaries afterwards: full batches
 * are written as soon as there are 25 due for the shop, and the rest by the job's last item. Each label is claimed
 * before its write (another item may flush at the same time), so a summary is written once. A batch that fails is
 * left to the background pass (`unwrittenSummaries`, one label at a time), like any summary whose write failed: the
 * fulfillment is what matters, the summary is a convenience.
 */
import type { PrismaClient } from "../generated/prisma/client";
import type { AdminGraphqlClient } from "../shopify/admin-client";
import { METAFIELDS_PER_SET, setOrderLabelMetafields } from "../shopify/operations/fulfillment";
import { orderLabelSummaries } from "./fulfill.server";
import { claimDueSummaries, dueSummaries } from "./label-rows.server";

/** Labels whose summary waits for a batch, for one shop. */
export async function dueSummaryCount(db: PrismaClient, shop: string): Promise<number> {
  return db.label.count({ where: { shop, summaryDueAt: { not: null }, metafieldWritten: false } });
}

/**
 * Writes the shop's due summaries in batches of METAFIELDS_PER_SET orders; `all: false` writes full batches only.
 * Returns how many labels' summaries it wrote, and how many it left waiting for a fuller batch (0 with `all`). Never
 * throws for Shopify's answer (see above).
 */
export async function flushOrderSummaries(db: PrismaClient, admin: AdminGraphqlClient, shop: string, options: { all: boolean }): Promise<{ written: number; waiting: number }> {
  let written = 0;
  for (;;) {
    const due = await dueSummaries(db, shop, METAFIELDS_PER_SET);
    if (due.length === 0 || (!options.all && due.length < METAFIELDS_PER_SET)) return { written, waiting: due.length };
    const claimed = await claimDueSummaries(db, due.map((label) => label.id), new Date());
    if (claimed.length === 0) continue;
    // One metafield per order: two labels of one order share its summary (which lists both).
    const orderIds = [...new Set(claimed.map((label) => label.orderId))];
    try {
      const summaries = await orderLabelSummaries(db, shop, orderIds);
      await setOrderLabelMetafields(admin, orderIds.map((orderId) => ({ orderId, summary: summaries.get(orderId)! })));
    } catch {
      // Left to the background pass (metafieldWritten stays false).
      return { written, waiting: 0 };
    }
    await db.label.updateMany({ where: { id: { in: claimed.map((label) => label.id) } }, data: { metafieldWritten: true } });
    written += claimed.length;
  }
}
