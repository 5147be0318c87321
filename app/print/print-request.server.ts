/**
 * One print request (from the API or an app page) to its print files: picks the labels, fetches SKUs from Shopify
 * when the pick order is asked for, and creates the files. Shared by POST /api/print and /app/print.
 */
import type { PrismaClient } from "../generated/prisma/client";
import type { AdminGraphqlClient } from "../shopify/admin-client";
import { fetchOrderSkus } from "../shopify/operations/order-skus";
import { createPrintFiles, printBulkJob, PrintRequestError, selectLabels, type PrintDeps, type PrintFileView, type PrintSelection } from "./print.server";
import type { PrintRequest } from "./request";
import { voidedProblem, voidLabelsAmong } from "./withdraw.server";

/** A print request's answer: its files, and the named labels left out because they are void (decision 0197). */
export interface PrintRequestResult {
  files: PrintFileView[];
  /** Named labels (by id, or a bulk job's) that were voided: never printed. Empty when none. */
  leftOut: { labelId: string; orderName: string }[];
  /** The same, said to the merchant (`print.notice.voided`); null when nothing was left out. */
  notice: { code: "voided"; params: { orders: string; count: number } } | null;
}

export interface PrintRequestDeps extends PrintDeps {
  admin?: AdminGraphqlClient;
  /**
   * The label ids of one of the shop's bulk jobs, or null when there is no such job. Wired by the bulk module
   * (BulkJobItem.labelIds); absent, a bulk job request is answered "not available".
   */
  bulkJobLabelIds?: (db: PrismaClient, shop: string, bulkJobId: string) => Promise<string[] | null>;
}

export async function handlePrintRequest(db: PrismaClient, shop: string, request: PrintRequest, deps: PrintRequestDeps): Promise<PrintRequestResult> {
  const order = request.order ?? "orderName";
  const withSkus = async (orderIds: readonly string[]): Promise<PrintDeps> => {
    if (order !== "sku" || !deps.admin) return { ...deps, order: "orderName" };
    return { ...deps, order, skus: await fetchOrderSkus(deps.admin, orderIds) };
  };
  // Labels named one by one (by id, or a bulk job's): a void one is left out and the answer says so; when every named
  // label is void, the request is refused with that reason rather than "nothing to print".
  const answer = async (named: readonly string[], make: () => Promise<PrintFileView[]>): Promise<PrintRequestResult> => {
    const voided = await voidLabelsAmong(db, shop, named);
    const leftOut = voided.map((label) => ({ labelId: label.id, orderName: label.orderName }));
    let files: PrintFileView[];
    try {
      files = await make();
    } catch (error) {
      if (error instanceof PrintRequestError && error.problem.code === "noLabels" && voided.length > 0) {
        throw new PrintRequestError({ code: "allVoided", params: voidedProblem(voided.map((label) => label.orderName)).params });
      }
      throw error;
    }
    const notice = voided.length > 0 ? { code: "voided" as const, params: { ...voidedProblem(voided.map((label) => label.orderName)).params, count: voided.length } } : null;
    return { files, leftOut, notice };
  };
  if ("bulkJobId" in request) {
    if (!deps.bulkJobLabelIds) throw new PrintRequestError({ code: "bulkUnavailable", params: {} });
    const labelIds = await deps.bulkJobLabelIds(db, shop, request.bulkJobId);
    if (!labelIds) throw new PrintRequestError({ code: "notFound", params: {} });
    const labels = await selectLabels(db, shop, { kind: "labels", labelIds });
    return answer(labelIds, async () => printBulkJob(db, shop, { labelIds }, { unprintedOnly: request.unprintedOnly }, await withSkus(labels.map((label) => label.orderId))));
  }
  const selection: PrintSelection =
    "orderIds" in request ? { kind: "orders", orderIds: request.orderIds } : "labelIds" in request ? { kind: "labels", labelIds: request.labelIds } : { kind: "unprinted" };
  const labels = await selectLabels(db, shop, selection);
  return answer(selection.kind === "labels" ? selection.labelIds : [], async () => createPrintFiles(db, shop, labels, await withSkus(labels.map((label) => label.orderId))));
}
