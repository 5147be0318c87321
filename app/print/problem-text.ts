/** A print problem (data) in the merchant's language. Browser-safe. */
import type { MessageKey } from "../i18n/messages";
import type { Translate } from "../i18n/translate";

export interface PrintProblemData {
  code: string;
  params: Record<string, string | number>;
}

const CODES = new Set(["fetch", "unreadable", "noLabels", "tooMany", "build", "notFound", "invalid", "bulkUnavailable", "voided", "allVoided"]);
const REASONS = new Set(["timeout", "http", "tooLarge", "notALabelFile", "network", "noUrl"]);

export function printProblemText(t: Translate, problem: PrintProblemData): string {
  const code = CODES.has(problem.code) ? problem.code : "build";
  const params = { ...problem.params };
  if (code === "fetch") {
    const reason = REASONS.has(String(params.reason)) ? String(params.reason) : "network";
    params.reason = t(`print.reason.${reason}` as MessageKey, { status: params.status ?? "" });
  }
  return t(`print.error.${code}` as MessageKey, params);
}

/** The note of a print that left void labels out (decision 0197), in the merchant's language. */
export function printNoticeText(t: Translate, notice: { code: "voided"; params: { orders: string; count: number } }): string {
  return t(notice.params.count > 1 ? "print.notice.voidedMany" : "print.notice.voided", notice.params);
}
