/**
 * The order a bulk job's preflight read (one bulk operation for the whole selection, decision 0181), kept on each
 * ready item so the item labels from it instead of reading the order again (decision 0184). It holds the recipient,
 * so it is sealed at rest with the app's secret box (decision 0172) and cleared once the item ran.
 *
 * Used only while fresh (ORDER_DRAFT_FRESH_MS after the read started): an older draft, one that no longer opens
 * (key retired) or no longer parses, is ignored and the item reads the order directly, as the order page does.
 *
 * The preflight the merchant looked at (the page, the API) keeps its read a few minutes too (`PreflightRead`), so
 * starting the job from it does not read the orders again.
 */
import { Prisma, type PreflightRead, type PrismaClient } from "../generated/prisma/client";
import { statements } from "../db-direct.server";
import { snapshotBox } from "../privacy/snapshot-seal.server";
import type { SecretBox } from "../security/secret-box.server";
import { orderForLabelSchema, type OrderForLabel } from "../shopify/operations/order-for-label";
import { pacedChunks, TimeSlices } from "../event-loop";

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

/**
 * How long a preflight's read is kept for the job started from it (the page's "Start", the API's create): short
 * enough that the job's items still have most of ORDER_DRAFT_FRESH_MS to label from it.
 */
export const PREFLIGHT_READ_KEPT_MS = 5 * 60_000;

/** Rows per INSERT when a read is kept: 4 parameters each, far below either database's limit per statement. */
const KEPT_ROWS_PER_STATEMENT = 100;

/**
 * Keeps a preflight's read (the orders Shopify knows, sealed) for the job that may start from it; prunes stale ones.
 * Plain statements, a hundred rows each, with turns of the event loop between them: one model `createMany` of 500
 * sealed orders held the loop for about 0.2 s. No transaction: each row is a whole read of its order, and a read left
 * half kept (a failure between two statements) only means the job reads the missing orders again.
 */
export async function keepPreflightRead(
  db: PrismaClient,
  shop: string,
  orders: ReadonlyMap<string, OrderForLabel>,
  readAt: Date,
  box: SecretBox = snapshotBox(),
): Promise<void> {
  const raw = statements(db);
  const ids = [...orders.keys()];
  // Sealing 500 orders takes a while: the process keeps answering its other requests meanwhile.
  const slices = new TimeSlices();
  await raw.$executeRaw`DELETE FROM "PreflightRead" WHERE "shop" = ${shop} AND "readAt" < ${new Date(readAt.getTime() - PREFLIGHT_READ_KEPT_MS)}`;
  for await (const chunk of pacedChunks(ids, KEPT_ROWS_PER_STATEMENT, slices)) {
    const values: Prisma.Sql[] = [];
    for (const orderId of chunk) {
      await slices.pace();
      values.push(Prisma.sql`(${shop}, ${orderId}, ${sealOrderDraft(orders.get(orderId)!, box)}, ${readAt})`);
    }
    // A newer read of an order replaces the one kept (another preflight of the same orders, a tab left open); an older
    // one, from a preflight that finished last, does not.
    await raw.$executeRaw`INSERT INTO "PreflightRead" ("shop", "orderId", "orderSealed", "readAt") VALUES ${Prisma.join(values)}
      ON CONFLICT ("shop", "orderId") DO UPDATE SET "orderSealed" = excluded."orderSealed", "readAt" = excluded."readAt"
      WHERE excluded."readAt" >= "PreflightRead"."readAt"`;
  }
}

/**
 * The kept read of every one of `ids` when all are kept and fresh (the job then reads nothing), else null (the job
 * reads them all again). Taken: the rows are removed either way, the job's items keep their own copies.
 */
export async function takePreflightRead(
  db: PrismaClient,
  shop: string,
  ids: readonly string[],
  now: Date,
  box: SecretBox = snapshotBox(),
): Promise<{ orders: Map<string, OrderForLabel>; readAt: Date } | null> {
  if (ids.length === 0) return null;
  const raw = statements(db);
  const list = Prisma.join([...ids]);
  const rows = await raw.$queryRaw<PreflightRead[]>`SELECT * FROM "PreflightRead" WHERE "shop" = ${shop} AND "orderId" IN (${list})`;
  await raw.$executeRaw`DELETE FROM "PreflightRead" WHERE "shop" = ${shop} AND "orderId" IN (${list})`;
  if (rows.length !== ids.length) return null;
  const orders = new Map<string, OrderForLabel>();
  let readAt = now;
  const slices = new TimeSlices();
  for (const row of rows) {
    await slices.pace();
    if (now.getTime() - row.readAt.getTime() > PREFLIGHT_READ_KEPT_MS) return null;
    const order = openOrderDraft({ ...row, orderReadAt: row.readAt }, row.readAt, { box });
    if (!order) return null;
    orders.set(row.orderId, order);
    if (row.readAt < readAt) readAt = row.readAt;
  }
  return { orders, readAt };
}
