/**
 * Print files and void labels (decision 0197). A print file is built once and kept (decision 0150), so a file built
 * before one of its labels was voided still holds that label's pages. Such a file is withdrawn: its content dropped
 * and the file marked FAILED with the reason ("voided", naming the order), so the print page and the download say
 * to print again; a new print leaves the void label out. The download checks again (a file whose build raced the void).
 * No label-service dependency: the void path calls this.
 */
import type { PrismaClient } from "../generated/prisma/client";
import { LIVE_LABEL } from "../labels/status";

/** The problem stored on a withdrawn file (`print.error.voided`). */
export function voidedProblem(orderNames: readonly string[]): { code: "voided"; params: { orders: string } } {
  return { code: "voided", params: { orders: [...new Set(orderNames)].join(", ") } };
}

/** The print files of `shop` whose label list holds `labelId` (ids are stored as a JSON array of strings). */
function holding(labelId: string) {
  return { labelIdsJson: { contains: JSON.stringify(labelId) } };
}

/**
 * Withdraws the shop's built print files holding the label: READY ones lose their content and become FAILED with the
 * reason. A file still PENDING is built later without the label (buildPrintFile reads live labels only). Returns how
 * many files were withdrawn.
 */
export async function withdrawPrintFilesHolding(db: PrismaClient, shop: string, label: { id: string; orderName: string }): Promise<number> {
  const { count } = await db.printFile.updateMany({
    where: { shop, status: "READY", ...holding(label.id) },
    data: { status: "FAILED", content: null, byteSize: 0, errorJson: JSON.stringify(voidedProblem([label.orderName])) },
  });
  return count;
}

/** The labels among `ids` (of `shop`) that are void or being voided, with their order names. */
export async function voidLabelsAmong(db: PrismaClient, shop: string, ids: readonly string[]): Promise<{ id: string; orderName: string }[]> {
  if (ids.length === 0) return [];
  return db.label.findMany({ where: { shop, id: { in: [...new Set(ids)] }, NOT: LIVE_LABEL }, select: { id: true, orderName: true }, orderBy: { orderName: "asc" } });
}
