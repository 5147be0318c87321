/**
 * POST /api/print: { orderIds } | { labelIds } | { bulkJobId, unprintedOnly? } (optional order: "orderName" | "sku")
 * -> { files: [{ id, format, url, labelCount, status, problem, message }], leftOut, notice }, one file per label format;
 * `leftOut` lists the named labels that were voided (never printed) and `notice` says so (null when none). `url` is the
 * download (GET /api/print/files/:id with its token). Files of more than 50 labels are built by a job: their status
 * is PENDING and their url answers 202 until READY. Errors: { error: { code, message } } with 400/404/422.
 */
import { bulkJobLabelIds } from "../bulk/ui-pages.server";
import type { ActionFunctionArgs } from "@remix-run/node";
import db from "../db.server";
import { apiJson, requireApiAdmin } from "../http/api-auth.server";
import { localeFromRequest } from "../i18n/locale";
import { translator } from "../i18n/translate.server";
import { handlePrintRequest } from "../print/print-request.server";
import { PrintRequestError } from "../print/print.server";
import { printNoticeText, printProblemText } from "../print/problem-text";
import { printRequestSchema } from "../print/request";
import { appLabelFiles, runningQueue } from "../print/runtime.server";

export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApiAdmin(request);
  const t = translator(localeFromRequest(request));
  const fail = (status: number, code: string, params: Record<string, string | number> = {}) =>
    apiJson(api, { error: { code, message: printProblemText(t, { code, params }) } }, { status });
  if (request.method !== "POST") return fail(405, "invalid");
  const body: unknown = await request.json().catch(() => null);
  const parsed = printRequestSchema.safeParse(body);
  if (!parsed.success) return fail(400, "invalid");
  try {
    const { files, leftOut, notice } = await handlePrintRequest(db, api.shop, parsed.data, { files: appLabelFiles(), queue: await runningQueue(), admin: api.admin, bulkJobLabelIds });
    return apiJson(api, {
      files: files.map((file) => ({ ...file, message: file.problem ? printProblemText(t, file.problem) : null })),
      leftOut,
      notice: notice ? printNoticeText(t, notice) : null,
    });
  } catch (error) {
    if (error instanceof PrintRequestError) return fail(error.problem.code === "notFound" ? 404 : 422, error.problem.code, error.problem.params);
    throw error;
  }
}

export async function loader() {
  return new Response(null, { status: 405, headers: { Allow: "POST" } });
}
