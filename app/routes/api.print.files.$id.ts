/**
 * GET /api/print/files/:id: one print file as a download (PDF, or one .zpl/.dpl file; Content-Disposition attachment).
 * Opens with the file's token (`?token=`, the url POST /api/print answered) or for the shop's own session token;
 * another shop's file, an unknown one and an expired one are all 404. `?disposition=inline` shows a PDF in place
 * (the admin's print action `src`); thermal files are always attachments. A file still being built answers 202.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import db from "../db.server";
import { apiJson, requireApiAdmin, type ApiAdmin } from "../http/api-auth.server";
import { localeFromRequest } from "../i18n/locale";
import { translator } from "../i18n/translate.server";
import { fileResponse, openPrintFile } from "../print/download.server";
import { printProblemText, type PrintProblemData } from "../print/problem-text";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token");
  // With a token the link is the credential (a tab has no session token); without, the admin session token.
  const api: Pick<ApiAdmin, "cors" | "shop"> | null = token ? null : await requireApiAdmin(request);
  const cors = api ?? { cors: (response: Response) => response };
  const t = translator(localeFromRequest(request));
  const outcome = await openPrintFile(db, params.id ?? "", { token, shop: api?.shop });
  if (outcome.kind === "notFound") {
    return apiJson(cors, { error: { code: "notFound", message: t("print.error.notFound") } }, { status: 404 });
  }
  if (outcome.kind === "pending") return apiJson(cors, { status: "PENDING" }, { status: 202, headers: { "Retry-After": "3" } });
  if (outcome.kind === "failed") {
    const problem: PrintProblemData = outcome.errorJson ? (JSON.parse(outcome.errorJson) as PrintProblemData) : { code: "build", params: {} };
    return apiJson(cors, { status: "FAILED", error: { code: problem.code, message: printProblemText(t, problem) } }, { status: 422 });
  }
  return cors.cors(fileResponse(outcome, url.searchParams.get("disposition") === "inline" ? "inline" : "attachment"));
}
