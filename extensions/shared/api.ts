/**
 * What the four admin extensions share: the app backend's answers (types only), relative `fetch` to it (the admin adds
 * the session token), the admin user's language and reasons in that language. Bundled into each extension by the CLI;
 * no server code, nothing big (each bundle must stay under 64 KB deflated).
 */
import type { BulkJobView, BulkPreflight } from "../../app/bulk/types";
import type { Reason } from "../../app/labels/reasons";

export type { BulkJobView, BulkPreflight, Reason };
export type Locale = "en" | "fr";

/** The minimum of the `shopify` global's i18n the helpers need. */
export interface Translator {
  translate: (key: string, options?: Record<string, unknown>) => string | unknown;
}

/**
 * The admin user's language. The extension API has no locale string, but its translations come from
 * locales/<admin language>.json, and each of ours names its own language under the key "locale".
 */
export function localeOf(i18n: Translator): Locale {
  return i18n.translate("locale") === "fr" ? "fr" : "en";
}

/** `t(key, values)` as a string (the API types translate() for rich values too). */
export function textOf(i18n: Translator): (key: string, values?: Record<string, string | number>) => string {
  return (key, values) => String(i18n.translate(key, values));
}

/** The numeric id of an admin GID (`gid://shopify/Order/123` → `123`); used in the backend's paths. */
export function numericId(gid: string): string {
  return gid.split("/").pop() ?? gid;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`The app answered ${status}`);
  }
}

/** JSON to and from the app's backend by a relative URL (the admin resolves it against the app URL and signs it). */
export async function apiJson<T>(path: string, init: { method?: "GET" | "POST"; body?: unknown } = {}): Promise<T> {
  const response = await fetch(path, {
    method: init.method ?? "GET",
    headers: init.body === undefined ? { Accept: "application/json" } : { Accept: "application/json", "Content-Type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  if (!response.ok) throw new ApiError(response.status, body);
  return body as T;
}

/** The message a failed call shows: the backend's own (already in the admin's language) or a generic one. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.body && typeof error.body === "object") {
    const message = (error.body as { message?: unknown }).message;
    if (typeof message === "string" && message) return message;
  }
  return fallback;
}

/**
 * A reason (code plus parameters) in the admin's language: the service's or mapper's own message when the reason
 * carries one (message / messageFr, fix / fixFr), else the app's sentence for the code.
 */
export function reasonLine(reason: Reason, locale: Locale, generic: (code: string) => string): string {
  const params = reason.params ?? {};
  const message = locale === "fr" ? (params.messageFr ?? params.message) : params.message;
  const fix = locale === "fr" ? (params.fixFr ?? params.fix) : params.fix;
  if (message) return fix ? `${message} ${fix}` : message;
  return generic(reason.code);
}

/** The print API's answer (`POST /api/print`). */
export interface PrintFiles {
  files: { format: string; url: string; labelCount: number }[];
}

/** The files an admin print action can show: PDFs only (the admin prints HTML, PDF and images, not ZPL). */
export function printableFiles(answer: PrintFiles): PrintFiles["files"] {
  return answer.files.filter((file) => !/\.zpl(\?|$)/i.test(file.url) && !/^(ZPL|DPL)/i.test(file.format));
}

/** The files for a thermal printer (downloaded from the app, never printed by the admin). */
export function thermalFiles(answer: PrintFiles): PrintFiles["files"] {
  return answer.files.filter((file) => !printableFiles({ files: [file] }).length);
}
