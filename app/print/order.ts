/**
 * Print order: by order name (#1002 before #1010, numbers compared as numbers), or pick order by SKU (the labels of
 * orders holding the same first SKU together, so the packer walks the shelves once), ties by order name then age.
 */
export type PrintOrder = "orderName" | "sku";

export interface Orderable {
  orderId: string;
  orderName: string;
  createdAt: Date;
}

const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

function byOrderName(a: Orderable, b: Orderable): number {
  return collator.compare(a.orderName, b.orderName) || a.createdAt.getTime() - b.createdAt.getTime();
}

/**
 * Sorts a copy. `skus` maps an order id to its SKUs (any order); an order without a SKU goes after those with one.
 */
export function sortForPrint<T extends Orderable>(labels: readonly T[], order: PrintOrder, skus?: ReadonlyMap<string, readonly string[]>): T[] {
  const copy = [...labels];
  if (order === "orderName" || !skus) return copy.sort(byOrderName);
  const key = (label: T) => [...(skus.get(label.orderId) ?? [])].filter(Boolean).sort(collator.compare).join("\u0000");
  return copy.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka && !kb) return -1;
    if (!ka && kb) return 1;
    return collator.compare(ka, kb) || byOrderName(a, b);
  });
}
