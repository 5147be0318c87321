/**
 * The merchant's bulk pages (app/routes/app.bulk*.tsx) on top of the bulk module: the selection posted by "Orders to
 * ship" (a page of ids, or "all orders matching" its search and filters), and the loader data of the preflight,
 * progress and recent-jobs pages with every reason and date already in the merchant's language.
 */
import { z } from "zod";
import type { PrismaClient } from "../generated/prisma/client";
import { formatDateTime, type DateContext } from "../i18n/dates";
import type { Locale } from "../i18n/locale";
import { listMatchingOrderIds, listParamsSchema } from "../labels/orders-list.server";
import type { AdminGraphqlClient } from "../shopify/admin-client";
import { BulkSelectionError } from "./preflight.server";
import { bulkReasonText, groupText } from "./reasons";
import { serviceChoiceGroups } from "./service-choices.server";
import { BULK_JOB_MAX_ORDERS, type BulkJobSummary, type BulkJobView, type BulkPreflight } from "./types";
import { LIVE_LABEL } from "../labels/status";

/** Ids as the list posts them: one field, comma separated, each an Order GID or its number. */
const idsField = z
  .string()
  .max(60_000)
  .default("")
  .transform((value) => value.split(",").map((id) => id.trim()).filter(Boolean));

const selectionSchema = z.discriminatedUnion("scope", [
  z.object({ scope: z.literal("page"), orderIds: idsField }),
  z.object({
    scope: z.literal("matching"),
    q: z.string().max(200).optional(),
    tab: z.string().max(40).optional(),
    zone: z.string().max(100).optional(),
  }),
]);

export type Selection = z.infer<typeof selectionSchema>;

/** The selection of a posted form; anything unreadable is an empty selection (the page says what to do). */
export function parseSelection(form: FormData): Selection {
  const fields = Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === "string"));
  const parsed = selectionSchema.safeParse({ scope: "page", ...fields });
  return parsed.success ? parsed.data : { scope: "page", orderIds: [] };
}

export function parseIds(value: FormDataEntryValue | null): string[] {
  return idsField.parse(typeof value === "string" ? value : "");
}

/** Thrown when more orders match the list's search and filters than one job takes. */
export function tooManyMatching(): BulkSelectionError {
  const max = String(BULK_JOB_MAX_ORDERS);
  return new BulkSelectionError("too_many", { count: `>${max}`, max }, {
    en: `More than ${max} orders match the search and filters; one job takes at most ${max}. Narrow the search (a destination, a tab, a customer or city) or select the orders on the page, and start a second job for the rest. Nothing was bought.`,
    fr: `Plus de ${max} commandes correspondent à la recherche et aux filtres ; une tâche en accepte au plus ${max}. Affinez la recherche (une destination, un onglet, un client ou une ville) ou sélectionnez les commandes de la page, puis lancez une seconde tâche pour le reste. Rien n'a été acheté.`,
  });
}

/**
 * The order ids a selection names: the posted ids, or every order matching the list's search and filters (read
 * through the list's own query, capped at BULK_JOB_MAX_ORDERS: more throws `tooManyMatching`).
 */
export async function resolveSelection(
  deps: { db: PrismaClient; admin: AdminGraphqlClient },
  shop: string,
  selection: Selection,
  cap = BULK_JOB_MAX_ORDERS,
): Promise<{ ids: string[]; matching: boolean }> {
  if (selection.scope === "page") return { ids: selection.orderIds, matching: false };
  const params = listParamsSchema.parse({ q: selection.q || undefined, tab: selection.tab, zone: selection.zone });
  const found = await listMatchingOrderIds(deps, shop, params, cap);
  if (found.more) throw tooManyMatching();
  return { ids: found.ids, matching: true };
}

/** The preflight as the page shows it: groups and reasons as sentences, and the ids the job would take. */
export function preflightPage(preflight: BulkPreflight, locale: Locale) {
  return {
    environment: preflight.environment,
    chargedLabels: preflight.chargedLabels,
    ready: preflight.ready,
    alreadyLabelled: preflight.alreadyLabelled,
    unknown: preflight.unknown,
    blocked: preflight.blocked.map((order) => ({
      orderId: order.orderId,
      orderName: order.orderName,
      reason: order.reasons[0] ? bulkReasonText(order.reasons[0], locale) : "",
    })),
    groups: preflight.groups.map((group) => ({
      text: groupText(group, locale),
      orderCount: group.orderCount,
      // Each blocked order links to its page (names are unique per shop; the first order of that name is taken).
      orders: group.orderNames.map((name) => ({ orderName: name, orderId: preflight.blocked.find((order) => order.orderName === name)?.orderId ?? "" })),
    })),
    /**
     * What "Start" posts: every order Shopify knows (the ready ones are bought; the blocked ones join the job as
     * blocked, with their reason, for Retry failed once fixed; the labelled ones are reported, never bought again).
     */
    jobOrderIds: [...preflight.ready, ...preflight.blocked, ...preflight.alreadyLabelled].map((order) => order.orderId),
    /** Which shipping rule (or zone default) chose each order's service, grouped. */
    serviceChoices: serviceChoiceGroups(preflight, locale),
  };
}

export type PreflightPage = ReturnType<typeof preflightPage>;

/** The label file of each label of a job (the progress page links them), scoped by the shop. */
/** A bulk job's label ids for the print API (`{ bulkJobId }`), in order-name order; null for another shop's job. */
export async function bulkJobLabelIds(db: PrismaClient, shop: string, bulkJobId: string): Promise<string[] | null> {
  const job = await db.bulkJob.findFirst({ where: { id: bulkJobId, shop }, select: { id: true } });
  if (!job) return null;
  const items = await db.bulkJobItem.findMany({ where: { jobId: job.id, labelId: { not: null } }, select: { labelId: true, orderId: true }, orderBy: { orderName: "asc" } });
  const ids = items.flatMap((item) => (item.labelId ? [item.labelId] : []));
  // An order shipping from several locations has a label per location (decision 0115); the item names the first.
  const siblings = await db.label.findMany({
    where: { shop, orderId: { in: items.map((item) => item.orderId) }, id: { notIn: ids }, attempt: { is: { locationId: { not: null } } } },
    select: { id: true, orderId: true },
    orderBy: { createdAt: "asc" },
  });
  return items.flatMap((item) => (item.labelId ? [item.labelId, ...siblings.filter((label) => label.orderId === item.orderId).map((label) => label.id)] : []));
}

/** The job's labels for its Print buttons: all of them, and those never printed (no download of a file holding them). */
export async function printableLabels(db: PrismaClient, shop: string, labelIds: readonly string[]): Promise<{ all: string[]; unprinted: string[] }> {
  if (labelIds.length === 0) return { all: [], unprinted: [] };
  // A void label is never printed again (decision 0112).
  const labels = await db.label.findMany({ where: { shop, id: { in: [...labelIds] }, ...LIVE_LABEL }, select: { id: true, printedAt: true }, orderBy: { orderName: "asc" } });
  return { all: labels.map((label) => label.id), unprinted: labels.filter((label) => !label.printedAt).map((label) => label.id) };
}

export async function labelFiles(db: PrismaClient, shop: string, labelIds: readonly string[]): Promise<Map<string, string>> {
  if (labelIds.length === 0) return new Map();
  // A void label's file link is hidden.
  const labels = await db.label.findMany({ where: { shop, id: { in: [...labelIds] }, ...LIVE_LABEL }, select: { id: true, labelUrl: true } });
  return new Map(labels.map((label) => [label.id, label.labelUrl]));
}

/** How often the progress page reads the job again while it runs, and while a purchase is still being settled. */
export const POLL_RUNNING_MS = 1_500;
export const POLL_PENDING_MS = 5_000;

/** The job as the progress page shows it. `pollMs` is null once nothing can change by itself. */
export function progressPage(job: BulkJobView, locale: Locale, dates: DateContext, files: Map<string, string>) {
  const { counts } = job;
  const running = job.status === "RUNNING" || counts.remaining > 0;
  const done = counts.total - counts.remaining;
  return {
    id: job.id,
    status: job.status,
    environment: job.environment,
    createdAt: formatDateTime(job.createdAt, dates),
    finishedAt: job.finishedAt ? formatDateTime(job.finishedAt, dates) : null,
    counts,
    percent: counts.total === 0 ? 100 : Math.round((done / counts.total) * 100),
    retryable: counts.blocked + counts.refused,
    cancellable: job.status === "RUNNING" && counts.remaining > 0,
    pollMs: running ? POLL_RUNNING_MS : counts.pending > 0 ? POLL_PENDING_MS : null,
    items: job.items.map((item) => ({
      orderId: item.orderId,
      orderName: item.orderName,
      status: item.status,
      alreadyLabelled: item.alreadyLabelled,
      reason: item.reason ? bulkReasonText(item.reason, locale) : null,
      trackingNumber: item.trackingNumber,
      labelUrl: item.labelId ? (files.get(item.labelId) ?? null) : null,
    })),
  };
}

export type ProgressPage = ReturnType<typeof progressPage>;

/** A job of the recent list, its dates formatted. */
export function jobSummaryRow(job: BulkJobSummary, dates: DateContext) {
  return {
    id: job.id,
    status: job.status,
    environment: job.environment,
    createdAt: formatDateTime(job.createdAt, dates),
    counts: job.counts,
  };
}
