/**
 * Print files: the labels chosen (by order, by label, unprinted ones, a bulk job's), put in print order, split by
 * label format, and built into one file per format. Small selections are built during the request; large ones
 * (more than `inlineLimit` labels) by the "print-file" job, and the page offers each file when it is ready.
 */
import { randomBytes } from "node:crypto";
import type { PrismaClient } from "../generated/prisma/client";
import type { JobQueue } from "../jobs/types";
import { groupByFormat, printKindOf } from "./formats";
import { LabelFileFetchError, type LabelFileReader } from "./label-files.server";
import { concatenateThermal, mergePdf, UnreadableLabelFileError } from "./merge";
import { sortForPrint, type PrintOrder } from "./order";
import { attemptLocation } from "../labels/order-status.server";
import { LIVE_LABEL } from "../labels/status";

export const INLINE_LIMIT = 50;
/** Most labels one print request takes (the bench's 500, with room). */
export const MAX_LABELS_PER_PRINT = 1000;
/** Print files are kept this long, then pruned; their download links stop working with them. */
export const PRINT_FILE_TTL_MS = 24 * 60 * 60 * 1000;
export const PRINT_FILE_JOB = "print-file";

export type PrintFileStatus = "PENDING" | "READY" | "FAILED";

export type PrintSelection =
  | { kind: "orders"; orderIds: readonly string[] }
  | { kind: "labels"; labelIds: readonly string[] }
  /** The shop's labels never printed, newest first, up to `limit`. */
  | { kind: "unprinted"; limit?: number };

/** A failure kept as data, translated when shown: `print.error.<code>` with these parameters. */
export interface PrintProblem {
  code: "fetch" | "unreadable" | "noLabels" | "tooMany" | "build" | "notFound" | "bulkUnavailable" | "voided" | "allVoided";
  params: Record<string, string | number>;
}

export interface PrintFileView {
  id: string;
  format: string;
  labelCount: number;
  status: PrintFileStatus;
  /** The download, with its token: opens in a browser tab or as the admin's print `src` without other credentials. */
  url: string;
  problem: PrintProblem | null;
  createdAt: string;
}

export interface PrintableLabel {
  id: string;
  orderId: string;
  orderName: string;
  labelUrl: string;
  labelFormat: string;
  createdAt: Date;
  printedAt: Date | null;
}

const LABEL_SELECT = { id: true, orderId: true, orderName: true, labelUrl: true, labelFormat: true, createdAt: true, printedAt: true } as const;

export async function selectLabels(db: PrismaClient, shop: string, selection: PrintSelection): Promise<PrintableLabel[]> {
  if (selection.kind === "labels") {
    return db.label.findMany({ where: { shop, id: { in: [...new Set(selection.labelIds)] }, ...LIVE_LABEL }, select: LABEL_SELECT });
  }
  if (selection.kind === "orders") {
    const labels = await db.label.findMany({
      where: { shop, orderId: { in: [...new Set(selection.orderIds)] }, ...LIVE_LABEL },
      select: { ...LABEL_SELECT, attempt: { select: { labelIndex: true, locationId: true } } },
      orderBy: { createdAt: "desc" },
    });
    // The newest label of each order: an older one was replaced by it. An order shipping from several locations has
    // a parcel per location (decision 0115): the newest label of each location's slot.
    const newest = new Map<string, PrintableLabel>();
    for (const { attempt, ...label } of labels) {
      const key = `${label.orderId}|${attemptLocation(attempt) ?? ""}`;
      if (!newest.has(key)) newest.set(key, label);
    }
    return [...newest.values()];
  }
  return db.label.findMany({
    where: { shop, printedAt: null, labelUrl: { not: "" }, ...LIVE_LABEL },
    select: LABEL_SELECT,
    orderBy: { createdAt: "desc" },
    take: Math.min(selection.limit ?? 500, MAX_LABELS_PER_PRINT),
  });
}

export function downloadUrl(file: { id: string; downloadToken: string }): string {
  return `/api/print/files/${encodeURIComponent(file.id)}?token=${encodeURIComponent(file.downloadToken)}`;
}

type PrintFileRow = {
  id: string;
  format: string;
  labelCount: number;
  status: string;
  downloadToken: string;
  errorJson: string | null;
  createdAt: Date;
};

export function viewOf(row: PrintFileRow): PrintFileView {
  return {
    id: row.id,
    format: row.format,
    labelCount: row.labelCount,
    status: row.status as PrintFileStatus,
    url: downloadUrl(row),
    problem: row.errorJson ? (JSON.parse(row.errorJson) as PrintProblem) : null,
    createdAt: row.createdAt.toISOString(),
  };
}

export interface PrintDeps {
  files: LabelFileReader;
  /** The running queue; without one every file is built during the request. */
  queue?: JobQueue | null;
  inlineLimit?: number;
  order?: PrintOrder;
  /** SKUs per order id, for the pick order (fetched from Shopify by the caller). */
  skus?: ReadonlyMap<string, readonly string[]>;
  now?: () => Date;
}

export class PrintRequestError extends Error {
  constructor(readonly problem: PrintProblem) {
    super(`print: ${problem.code}`);
  }
}

/** Creates the print files of some labels: one per format, in print order. Builds them now or queues them. */
export async function createPrintFiles(db: PrismaClient, shop: string, labels: readonly PrintableLabel[], deps: PrintDeps): Promise<PrintFileView[]> {
  const printable = labels.filter((label) => label.labelUrl);
  if (printable.length === 0) throw new PrintRequestError({ code: "noLabels", params: {} });
  if (printable.length > MAX_LABELS_PER_PRINT) throw new PrintRequestError({ code: "tooMany", params: { count: printable.length, max: MAX_LABELS_PER_PRINT } });
  await prunePrintFiles(db, deps.now?.() ?? new Date());
  const sorted = sortForPrint(printable, deps.order ?? "orderName", deps.skus);
  const queued = Boolean(deps.queue) && printable.length > (deps.inlineLimit ?? INLINE_LIMIT);
  const views: PrintFileView[] = [];
  for (const group of groupByFormat(sorted)) {
    const row = await db.printFile.create({
      data: {
        shop,
        format: group.format,
        labelIdsJson: JSON.stringify(group.items.map((label) => label.id)),
        labelCount: group.items.length,
        downloadToken: randomBytes(32).toString("base64url"),
      },
    });
    if (queued && deps.queue) {
      await deps.queue.enqueue(PRINT_FILE_JOB, { shop, payload: { printFileId: row.id } }, { singletonKey: row.id, retryLimit: 1 });
      views.push(viewOf(row));
    } else {
      views.push(viewOf(await buildPrintFile(db, row.id, deps.files)));
    }
  }
  return views;
}

function problemOf(error: unknown): PrintProblem {
  if (error instanceof LabelFileFetchError) {
    return { code: "fetch", params: { order: error.label.orderName, reason: error.reason, status: error.status ?? "" } };
  }
  if (error instanceof UnreadableLabelFileError) {
    return { code: "unreadable", params: { order: (error.item as PrintableLabel).orderName } };
  }
  return { code: "build", params: {} };
}

/** Builds one PENDING print file (inline, or from the job) and stores the outcome. Returns the row. */
export async function buildPrintFile(db: PrismaClient, printFileId: string, files: LabelFileReader) {
  const row = await db.printFile.findUniqueOrThrow({ where: { id: printFileId } });
  if (row.status !== "PENDING") return row;
  const ids = JSON.parse(row.labelIdsJson) as string[];
  // A label voided after the file was asked for is left out too: a void label is never printed again.
  const found = await db.label.findMany({ where: { shop: row.shop, id: { in: ids }, ...LIVE_LABEL }, select: LABEL_SELECT });
  const byId = new Map(found.map((label) => [label.id, label]));
  const labels = ids.map((id) => byId.get(id)).filter((label): label is PrintableLabel => label !== undefined);
  try {
    if (labels.length === 0) throw new PrintRequestError({ code: "noLabels", params: {} });
    const source = { items: labels, load: (chunk: readonly PrintableLabel[]) => files.getMany(chunk) };
    const bytes = printKindOf(row.format) === "pdf" ? (await mergePdf(source)).bytes : await concatenateThermal(source);
    // Only a file still PENDING is completed (a second build of it, or one already settled, changes nothing). A label
    // voided while this build ran is caught when the file is opened (download.server.ts, decision 0197).
    await db.printFile.updateMany({
      where: { id: row.id, status: "PENDING" },
      data: { status: "READY", content: Buffer.from(bytes), byteSize: bytes.byteLength, labelCount: labels.length },
    });
  } catch (error) {
    const problem = error instanceof PrintRequestError ? error.problem : problemOf(error);
    await db.printFile.updateMany({ where: { id: row.id, status: "PENDING" }, data: { status: "FAILED", errorJson: JSON.stringify(problem) } });
  }
  return db.printFile.findUniqueOrThrow({ where: { id: row.id } });
}

export async function listPrintFiles(db: PrismaClient, shop: string, ids?: readonly string[]): Promise<PrintFileView[]> {
  const rows = await db.printFile.findMany({
    where: { shop, ...(ids ? { id: { in: [...ids] } } : { createdAt: { gte: new Date(Date.now() - PRINT_FILE_TTL_MS) } }) },
    select: { id: true, format: true, labelCount: true, status: true, downloadToken: true, errorJson: true, createdAt: true },
    orderBy: { createdAt: "desc" },
    take: 50,
  });
  return rows.map(viewOf);
}

/** Drops print files past their lifetime (every shop): they hold addresses and are cheap to rebuild. */
export async function prunePrintFiles(db: PrismaClient, now: Date): Promise<number> {
  const { count } = await db.printFile.deleteMany({ where: { createdAt: { lt: new Date(now.getTime() - PRINT_FILE_TTL_MS) } } });
  return count;
}

/**
 * The bulk job page's Print / Print unprinted: the labels a bulk job made. Takes the job's label ids (the bulk
 * models live on another branch: the caller reads BulkJobItem.labelIds and passes them here, already scoped to
 * `shop` by the query that read them; this function scopes them again).
 */
export async function printBulkJob(
  db: PrismaClient,
  shop: string,
  bulkJob: { labelIds: readonly string[] },
  options: { unprintedOnly?: boolean },
  deps: PrintDeps,
): Promise<PrintFileView[]> {
  const labels = await selectLabels(db, shop, { kind: "labels", labelIds: bulkJob.labelIds });
  return createPrintFiles(db, shop, options.unprintedOnly ? labels.filter((label) => label.printedAt === null) : labels, deps);
}
