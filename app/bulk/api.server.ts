/**
 * The bulk jobs' JSON API, for the admin extensions and scripts (routes app/routes/api.bulk-jobs*.ts stay thin):
 *   GET  /api/bulk-jobs                 -> { jobs: BulkJobSummary[] }
 *   POST /api/bulk-jobs                 { orderIds, confirmChargedLabels? } -> 201 { id, url }
 *   POST /api/bulk-jobs/preflight       { orderIds } -> BulkPreflight (free, nothing bought)
 *   GET  /api/bulk-jobs/:id             -> BulkJobView, each item's reason also as text in the caller's language
 *   POST /api/bulk-jobs/:id/retry       { confirmChargedLabels? } -> { retried, job }
 *   POST /api/bulk-jobs/:id/cancel      -> { cancelled, job }
 * Errors: { error: { code, message, params? } } with the message in the caller's language (URL `locale`, cookie or
 * Accept-Language): 400 bad body, 404 a job this shop does not have, 405, 413 body or selection too large, 422 a
 * selection refused (unknown orders, empty, production charge not confirmed), 503 Shopify busy or the queue down.
 */
import { z } from "zod";
import type { PrismaClient } from "../generated/prisma/client";
import { requireApiAdmin, apiJson, type ApiAdmin } from "../http/api-auth.server";
import { localeFromRequest, type Locale } from "../i18n/locale";
import { translator } from "../i18n/translate";
import type { JobQueue } from "../jobs/types";
import { labelContextFromAdmin } from "../labels/context.server";
import type { LabelContext } from "../labels/label-order.server";
import { isShopifyBusy } from "../shopify/admin-client";
import { retryAfterSeconds } from "../shopify/busy.server";
import { appJobQueue, cancelBulkJob, createBulkJob, getBulkJob, listBulkJobs, retryFailedItems } from "./bulk-jobs.server";
import { BulkSelectionError, preflightBulkJob } from "./preflight.server";
import { bulkReasonText, groupText } from "./reasons";
import { BULK_JOB_MAX_ORDERS, type BulkJobView, type BulkPreflight } from "./types";

export const MAX_BODY_BYTES = 64 * 1024;

export interface BulkApiDeps {
  db: PrismaClient;
  authenticate: (request: Request) => Promise<Pick<ApiAdmin, "shop" | "admin" | "staffUserId" | "cors">>;
  contextFor: (api: Pick<ApiAdmin, "shop" | "admin">) => Promise<LabelContext>;
  queue: () => Promise<JobQueue>;
}

export async function defaultBulkApiDeps(): Promise<BulkApiDeps> {
  const { default: db } = await import("../db.server");
  return { db, authenticate: requireApiAdmin, contextFor: (api) => labelContextFromAdmin(api.shop, api.admin), queue: appJobQueue };
}

const orderIdsSchema = z.array(z.string().trim().min(1).max(100)).max(BULK_JOB_MAX_ORDERS * 4);
const createSchema = z.object({ orderIds: orderIdsSchema, confirmChargedLabels: z.number().int().min(0).optional() }).strict();
const preflightSchema = z.object({ orderIds: orderIdsSchema }).strict();
const retrySchema = z.object({ confirmChargedLabels: z.number().int().min(0).optional() }).strict();
const ORDER_ID = /^(gid:\/\/shopify\/Order\/)?[0-9]{1,20}$/;

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly params?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

async function readJson(request: Request, locale: Locale): Promise<unknown> {
  const t = translator(locale);
  const declared = Number(request.headers.get("content-length") ?? "0");
  const tooLarge = () => new ApiError(413, "body_too_large", t("bulkApi.tooLarge", { max: MAX_BODY_BYTES / 1024, orders: BULK_JOB_MAX_ORDERS }));
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw tooLarge();
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, "bad_json", t("bulkApi.badJson"));
  }
}

function parse<S extends z.ZodType>(schema: S, value: unknown, locale: Locale): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) {
    const ids = (parsed.data as { orderIds?: string[] }).orderIds ?? [];
    const bad = ids.filter((id) => !ORDER_ID.test(id));
    if (bad.length > 0) {
      const details = translator(locale)("bulkApi.orderIdShape", { ids: bad.slice(0, 5).join(", ") });
      throw new ApiError(400, "invalid_order_ids", translator(locale)("bulkApi.invalid", { details }), { ids: bad.slice(0, 20).join(",") });
    }
    return parsed.data;
  }
  if (parsed.error.issues.some((issue) => issue.code === "too_big" && issue.path.join(".") === "orderIds")) {
    throw selectionError(new BulkSelectionError("too_many", { count: `>${BULK_JOB_MAX_ORDERS * 4}`, max: String(BULK_JOB_MAX_ORDERS) }, {
      en: `Too many orders were selected; one job takes at most ${BULK_JOB_MAX_ORDERS}. Select fewer orders and start a second job for the rest.`,
      fr: `Trop de commandes sont sélectionnées ; une tâche en accepte au plus ${BULK_JOB_MAX_ORDERS}. Sélectionnez moins de commandes et lancez une seconde tâche pour le reste.`,
    }), locale);
  }
  const details = parsed.error.issues.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`).join("; ");
  throw new ApiError(400, "invalid_body", translator(locale)("bulkApi.invalid", { details }));
}

const SELECTION_STATUS: Record<BulkSelectionError["code"], number> = { empty: 400, too_many: 413, unknown_orders: 422, confirmation_required: 422 };

function selectionError(error: BulkSelectionError, locale: Locale): ApiError {
  return new ApiError(SELECTION_STATUS[error.code], error.code, error.messages[locale], error.params);
}

function notFound(id: string, locale: Locale): ApiError {
  return new ApiError(404, "not_found", translator(locale)("bulkApi.notFound", { id: id.slice(0, 60) }));
}

/** The job for the API: each item's reason as data and as text in the caller's language. */
export function jobForApi(job: BulkJobView, locale: Locale) {
  return { ...job, items: job.items.map((item) => ({ ...item, reasonText: item.reason ? bulkReasonText(item.reason, locale) : null })) };
}

export function preflightForApi(preflight: BulkPreflight, locale: Locale) {
  return {
    ...preflight,
    blocked: preflight.blocked.map((order) => ({ ...order, reasonTexts: order.reasons.map((reason) => bulkReasonText(reason, locale)) })),
    groups: preflight.groups.map((group) => ({ ...group, text: groupText(group, locale) })),
  };
}

export type BulkApiRoute =
  | { kind: "collection" }
  | { kind: "preflight" }
  | { kind: "job"; id: string }
  | { kind: "retry"; id: string }
  | { kind: "cancel"; id: string };

const METHODS: Record<BulkApiRoute["kind"], string[]> = { collection: ["GET", "POST"], preflight: ["POST"], job: ["GET"], retry: ["POST"], cancel: ["POST"] };

/** Answers one API request (authentication first: it also answers the CORS preflight). */
export async function handleBulkApi(request: Request, route: BulkApiRoute, deps?: BulkApiDeps): Promise<Response> {
  const resolved = deps ?? (await defaultBulkApiDeps());
  const api = await resolved.authenticate(request);
  const locale = localeFromRequest(request);
  try {
    const method = request.method.toUpperCase();
    if (!METHODS[route.kind].includes(method)) {
      const allowed = METHODS[route.kind].join(", ");
      throw new ApiError(405, "method_not_allowed", translator(locale)("bulkApi.methodNotAllowed", { methods: allowed }), undefined, { Allow: allowed });
    }
    const { status = 200, body } = await answer(request, method, route, api, resolved, locale);
    return apiJson(api, body, { status });
  } catch (error) {
    if (error instanceof BulkSelectionError) return errorJson(api, selectionError(error, locale));
    if (error instanceof ApiError) return errorJson(api, error);
    if (isShopifyBusy(error)) {
      const seconds = retryAfterSeconds(error);
      const message = locale === "fr" ? `Shopify demande de ralentir ; rien n'a été acheté. Réessayez dans ${seconds} s.` : `Shopify asked the app to slow down; nothing was bought. Try again in ${seconds} s.`;
      return errorJson(api, new ApiError(503, "shopify_busy", message, { retryAfterSeconds: String(seconds) }, { "Retry-After": String(seconds) }));
    }
    throw error;
  }
}

function errorJson(api: Pick<ApiAdmin, "cors">, error: ApiError): Response {
  return apiJson(api, { error: { code: error.code, message: error.message, ...(error.params ? { params: error.params } : {}) } }, { status: error.status, headers: error.headers });
}

async function queueOrDown(deps: BulkApiDeps, locale: Locale): Promise<JobQueue> {
  try {
    return await deps.queue();
  } catch {
    throw new ApiError(503, "queue_down", translator(locale)("bulkApi.queueDown"));
  }
}

async function answer(
  request: Request,
  method: string,
  route: BulkApiRoute,
  api: Pick<ApiAdmin, "shop" | "admin" | "staffUserId">,
  deps: BulkApiDeps,
  locale: Locale,
): Promise<{ status?: number; body: unknown }> {
  switch (route.kind) {
    case "collection": {
      if (method === "GET") return { body: { jobs: await listBulkJobs(deps.db, api.shop) } };
      const input = parse(createSchema, await readJson(request, locale), locale);
      const queue = await queueOrDown(deps, locale);
      const created = await createBulkJob(await deps.contextFor(api), { orderIds: input.orderIds, confirmChargedLabels: input.confirmChargedLabels, staffUserId: api.staffUserId, queue });
      return { status: 201, body: { id: created.id, url: created.url } };
    }
    case "preflight": {
      const input = parse(preflightSchema, await readJson(request, locale), locale);
      return { body: preflightForApi(await preflightBulkJob(await deps.contextFor(api), input.orderIds), locale) };
    }
    case "job": {
      const job = await getBulkJob(deps.db, api.shop, route.id);
      if (!job) throw notFound(route.id, locale);
      return { body: jobForApi(job, locale) };
    }
    case "retry": {
      const input = parse(retrySchema, await readJson(request, locale), locale);
      if (!(await getBulkJob(deps.db, api.shop, route.id))) throw notFound(route.id, locale);
      const queue = await queueOrDown(deps, locale);
      const result = await retryFailedItems(deps.db, api.shop, route.id, { queue, confirmChargedLabels: input.confirmChargedLabels });
      if (!result) throw notFound(route.id, locale);
      return { body: { retried: result.retried, job: jobForApi(result.job, locale) } };
    }
    case "cancel": {
      const result = await cancelBulkJob(deps.db, api.shop, route.id);
      if (!result) throw notFound(route.id, locale);
      return { body: { cancelled: result.cancelled, job: jobForApi(result.job, locale) } };
    }
  }
}
