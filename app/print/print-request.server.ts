/**
 * One print request (from the API or an app page) to its print files: picks the labels, fetches SKUs from Shopify
 * when the pick order is asked for, and creates the files. Shared by POST /api/print and /app/print.
 */
import type { PrismaClient } from "../generated/prisma/client";
import type { AdminGraphqlClient } from "../shopify/admin-client";
import { fetchOrderSkus } from "../shopify/operations/order-skus";
import { createPrintFiles, printBulkJob, PrintRequestError, selectLabels, type PrintDeps, type PrintFileView, type PrintSelection } from "./print.server";
import type { PrintRequest } from "./request";

export interface PrintRequestDeps extends PrintDeps {
  admin?: AdminGraphqlClient;
  /**
   * The label ids of one of the shop's bulk jobs, or null when there is no such job. Wired by the bulk module
   * (BulkJobItem.labelIds); absent, a bulk job request is answered "not available".
   */
  bulkJobLabelIds?: (db: PrismaClient, shop: string, bulkJobId: string) => Promise<string[] | null>;
}

export async function handlePrintRequest(db: PrismaClient, shop: string, request: PrintRequest, deps: PrintRequestDeps): Promise<PrintFileView[]> {
  const order = request.order ?? "orderName";
  const withSkus = async (orderIds: readonly string[]): Promise<PrintDeps> => {
    if (order !== "sku" || !deps.admin) return { ...deps, order: "orderName" };
    return { ...deps, order, skus: await fetchOrderSkus(deps.admin, orderIds) };
  };
  if ("bulkJobId" in request) {
    if (!deps.bulkJobLabelIds) throw new PrintRequestError({ code: "bulkUnavailable", params: {} });
    const labelIds = await deps.bulkJobLabelIds(db, shop, request.bulkJobId);
    if (!labelIds) throw new PrintRequestError({ code: "notFound", params: {} });
    const labels = await selectLabels(db, shop, { kind: "labels", labelIds });
    return printBulkJob(db, shop, { labelIds }, { unprintedOnly: request.unprintedOnly }, await withSkus(labels.map((label) => label.orderId)));
  }
  const selection: PrintSelection =
    "orderIds" in request ? { kind: "orders", orderIds: request.orderIds } : "labelIds" in request ? { kind: "labels", labelIds: request.labelIds } : { kind: "unprinted" };
  const labels = await selectLabels(db, shop, selection);
  return createPrintFiles(db, shop, labels, await withSkus(labels.map((label) => label.orderId)));
}
