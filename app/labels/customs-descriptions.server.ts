/**
 * The merchant's English customs descriptions, one per product of the shop (model CustomsDescription). Read for the
 * products of an order before it is mapped (the page, labelOrder, the bulk preflight), written by the Customs
 * descriptions page and the order page's "Save for this product". Every query is scoped by the shop.
 */
import { z } from "zod";
import { Prisma, type PrismaClient } from "../generated/prisma/client";
import { statements } from "../db-direct.server";
import { checkCustomsDescription, suggestCustomsDescription, type CustomsDescriptionError } from "../shipping/customs-descriptions";
import type { OrderForLabel } from "../shopify/operations/order-for-label";

const PRODUCT_GID = /^gid:\/\/shopify\/Product\/[0-9]{1,20}$/;

/** The products of these orders' line items (custom items have none). */
export function productIdsOf(orders: Iterable<OrderForLabel>): string[] {
  const ids = new Set<string>();
  for (const order of orders) for (const line of order.lineItems.nodes) if (line.product?.id) ids.add(line.product.id);
  return [...ids];
}

/**
 * The saved descriptions of these products, by product id (products without one are absent). One order's few ids
 * (every label) are one plain statement (decision 0199); a preflight's many go through Prisma, which splits long lists.
 */
export async function customsDescriptionsFor(db: PrismaClient, shop: string, productIds: readonly string[]): Promise<Map<string, string>> {
  if (productIds.length === 0) return new Map();
  const rows =
    productIds.length <= 100
      ? await statements(db).$queryRaw<{ productId: string; description: string }[]>`SELECT "productId", "description" FROM "CustomsDescription"
          WHERE "shop" = ${shop} AND "productId" IN (${Prisma.join([...productIds])})`
      : await db.customsDescription.findMany({ where: { shop, productId: { in: [...productIds] } }, select: { productId: true, description: true } });
  return new Map(rows.map((row) => [row.productId, row.description]));
}

/** The saved descriptions of one order's products. */
export function customsDescriptionsForOrder(db: PrismaClient, shop: string, order: OrderForLabel): Promise<Map<string, string>> {
  return customsDescriptionsFor(db, shop, productIdsOf([order]));
}

export async function listCustomsDescriptions(db: PrismaClient, shop: string) {
  return db.customsDescription.findMany({ where: { shop }, orderBy: { productTitle: "asc" }, select: { productId: true, productTitle: true, description: true, updatedAt: true } });
}

/** What a save posts (the Customs descriptions page, the order page's CN23 line). */
export const saveCustomsDescriptionForm = z.object({
  productId: z.string().trim().regex(PRODUCT_GID),
  productTitle: z.string().trim().min(1).max(255),
  description: z.string().max(1000),
});

export type SaveOutcome =
  | { ok: true; productId: string; description: string }
  | { ok: false; productId: string | null; error: CustomsDescriptionError | "bad_request" };

/** Validates and stores one description (created or replaced); a refusal is data, translated by the page. */
export async function saveCustomsDescription(db: PrismaClient, shop: string, input: unknown): Promise<SaveOutcome> {
  const form = saveCustomsDescriptionForm.safeParse(input);
  if (!form.success) {
    const productId = z.object({ productId: z.string() }).safeParse(input);
    return { ok: false, productId: productId.success ? productId.data.productId : null, error: "bad_request" };
  }
  const { productId, productTitle } = form.data;
  const checked = checkCustomsDescription(form.data.description);
  if (!checked.ok) return { ok: false, productId, error: checked.error };
  await db.customsDescription.upsert({
    where: { shop_productId: { shop, productId } },
    create: { shop, productId, productTitle, description: checked.value },
    update: { productTitle, description: checked.value },
  });
  return { ok: true, productId, description: checked.value };
}

export interface CustomsDescriptionRow {
  productId: string;
  title: string;
  /** The saved description, or the suggestion from the title when none is saved. */
  description: string;
  saved: boolean;
  /** In how many recent orders; null for a product described earlier but absent from them. */
  orderCount: number | null;
}

/**
 * The page's rows: the products of the recent orders (the most ordered first), then those described earlier that no
 * recent order holds. A saved description wins over the product's current title.
 */
export function customsDescriptionRows(
  seen: readonly { productId: string; title: string; orderCount: number }[],
  saved: readonly { productId: string; productTitle: string; description: string }[],
): CustomsDescriptionRow[] {
  const byProduct = new Map(saved.map((row) => [row.productId, row]));
  const rows: CustomsDescriptionRow[] = seen.map((product) => {
    const stored = byProduct.get(product.productId);
    return {
      productId: product.productId,
      title: product.title,
      description: stored?.description ?? suggestCustomsDescription(product.title),
      saved: Boolean(stored),
      orderCount: product.orderCount,
    };
  });
  const listed = new Set(seen.map((product) => product.productId));
  for (const stored of saved) {
    if (!listed.has(stored.productId)) rows.push({ productId: stored.productId, title: stored.productTitle, description: stored.description, saved: true, orderCount: null });
  }
  return rows;
}
