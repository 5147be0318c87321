/**
 * Label history: the shop's local labels and purchase attempts, filterable, and a comparison with what the label
 * service lists, flagging remote labels this shop's database does not know (a bought label nobody recorded).
 */
import { readNote, type BilingualText } from "./notes";
import type { PrismaClient } from "../generated/prisma/client";
import type { LabelEnvironment } from "./accounts.server";

import { attemptHistoryStatus, historySelection, isAttemptRejected, isLiveLabel, labelHistoryStatus, type HistoryStatus } from "./status";

export interface HistoryFilters {
  status?: HistoryStatus;
  environment?: LabelEnvironment;
  from?: Date;
  to?: Date;
}

export interface HistoryRow {
  kind: "label" | "attempt";
  id: string;
  orderId: string;
  orderName: string;
  environment: string;
  customReference: string;
  status: HistoryStatus;
  trackingNumber: string | null;
  trackingUrl: string | null;
  labelUrl: string | null;
  carrier: string | null;
  /** Why it failed or waits, in English and French. */
  error: BilingualText | null;
  createdAt: string;
}

const PAGE_SIZE = 50;

export async function labelHistory(db: PrismaClient, shop: string, filters: HistoryFilters = {}, page = 1) {
  const createdAt = { ...(filters.from ? { gte: filters.from } : {}), ...(filters.to ? { lt: filters.to } : {}) };
  const common = { shop, ...(filters.environment ? { environment: filters.environment } : {}), ...(filters.from || filters.to ? { createdAt } : {}) };
  const selection = historySelection(filters.status);

  const [labels, attempts] = await Promise.all([
    selection.fulfillment
      ? db.label.findMany({
          where: {
            ...common,
            ...(filters.status ? { fulfillmentStatus: { in: [...selection.fulfillment] } } : {}),
            ...(selection.voided === undefined ? {} : selection.voided ? { voidState: "VOID" } : { OR: [{ voidState: null }, { NOT: { voidState: "VOID" } }] }),
          },
          orderBy: { createdAt: "desc" },
          take: PAGE_SIZE * page + 1,
        })
      : [],
    selection.attempts
      ? db.purchaseAttempt.findMany({
          where: { ...common, status: { in: [...selection.attempts] } },
          orderBy: { createdAt: "desc" },
          take: PAGE_SIZE * page + 1,
        })
      : [],
  ]);

  const rows: HistoryRow[] = [
    ...labels.map((label) => ({
      kind: "label" as const,
      id: label.id,
      orderId: label.orderId,
      orderName: label.orderName,
      environment: label.environment,
      customReference: label.customReference,
      status: labelHistoryStatus(label.fulfillmentStatus, label.voidState),
      trackingNumber: label.trackingNumber,
      trackingUrl: label.trackingUrl || null,
      // A label being voided or void is never printed again: its file link is not offered.
      labelUrl: isLiveLabel(label) ? label.labelUrl || null : null,
      carrier: label.carrierName,
      error: readNote(label.fulfillmentError),
      createdAt: label.createdAt.toISOString(),
    })),
    ...attempts.map((attempt) => ({
      kind: "attempt" as const,
      id: attempt.id,
      orderId: attempt.orderId,
      orderName: attempt.orderName,
      environment: attempt.environment,
      customReference: attempt.customReference,
      status: attemptHistoryStatus(attempt.status),
      trackingNumber: null,
      trackingUrl: null,
      labelUrl: null,
      carrier: null,
      error: readNote(attempt.errorJson),
      createdAt: attempt.createdAt.toISOString(),
    })),
  ].sort((a, b) => b.createdAt.localeCompare(a.createdAt));

  const start = PAGE_SIZE * (page - 1);
  return { rows: rows.slice(start, start + PAGE_SIZE), hasNext: rows.length > start + PAGE_SIZE, page };
}

export interface RemoteListedLabel {
  id: string;
  reference?: string;
  custom_reference?: string;
  created_at?: string;
  carrier_name?: string;
}

export interface ComparedLabel extends RemoteListedLabel {
  knownLocally: boolean;
  orderName: string | null;
}

/** Reads the service's list page by page (bounded) and flags labels this shop has no record of. */
export async function compareWithService(
  db: PrismaClient,
  shop: string,
  environment: LabelEnvironment,
  remotePages: AsyncIterable<RemoteListedLabel[]>,
  maxPages = 10,
): Promise<{ labels: ComparedLabel[]; pagesRead: number; truncated: boolean }> {
  const [labels, attempts] = await Promise.all([
    db.label.findMany({ where: { shop, environment }, select: { serviceLabelId: true, customReference: true, orderName: true } }),
    db.purchaseAttempt.findMany({ where: { shop, environment }, select: { customReference: true, orderName: true, status: true } }),
  ]);
  const byId = new Map(labels.map((label) => [label.serviceLabelId, label.orderName]));
  // A refused or released attempt is not a label we hold: a remote label with its reference is exactly what to flag
  // (its order is still named, as a lead).
  const held = attempts.filter((attempt) => !isAttemptRejected(attempt.status));
  const byReference = new Map([...held, ...labels].map((row) => [row.customReference, row.orderName]));
  const released = new Map(attempts.filter((attempt) => isAttemptRejected(attempt.status)).map((row) => [row.customReference, row.orderName]));
  const compared: ComparedLabel[] = [];
  let pagesRead = 0;
  for await (const page of remotePages) {
    pagesRead += 1;
    for (const remote of page) {
      const reference = remote.custom_reference;
      const known = byId.get(remote.id) ?? (reference ? byReference.get(reference) : undefined);
      const lead = reference ? released.get(reference) : undefined;
      compared.push({ ...remote, knownLocally: known !== undefined, orderName: known ?? lead ?? null });
    }
    if (pagesRead >= maxPages) return { labels: compared, pagesRead, truncated: true };
  }
  return { labels: compared, pagesRead, truncated: false };
}
