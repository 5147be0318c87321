/**
 * Reading a route action's form body, the same way for every route: only the two form encodings a browser sends,
 * a bounded size (checked on the declared length and again while reading, for chunked bodies), and a body that
 * parses. Anything else is answered 400 or 413 with a sentence in the merchant's language, never a 500.
 * See docs/decisions/0085-request-bodies-and-field-limits.md.
 */
import { localeFromRequest, type Locale } from "../i18n/locale";

/** The largest form any page of the app posts is Settings with its boxes (a few KB); 64 KB leaves ample room. */
export const DEFAULT_MAX_FORM_BYTES = 64 * 1024;
/** More fields than any form of the app has (Settings with 20 boxes is under 200). */
export const MAX_FORM_FIELDS = 1000;

export type BadBodyReason = "content_type" | "too_large" | "malformed" | "file";

const MESSAGES: Record<BadBodyReason, Record<Locale, string>> = {
  content_type: {
    en: "The form could not be read: it was not sent as a web form. Reload the page and submit it again.",
    fr: "Le formulaire n'a pas pu être lu : il n'a pas été envoyé comme un formulaire web. Rechargez la page et renvoyez-le.",
  },
  too_large: {
    en: "The form is too large to be accepted. Shorten the long fields, then submit it again.",
    fr: "Le formulaire est trop volumineux pour être accepté. Raccourcissez les champs trop longs, puis renvoyez-le.",
  },
  malformed: {
    en: "The form arrived incomplete or damaged and was not read. Reload the page and submit it again.",
    fr: "Le formulaire est arrivé incomplet ou abîmé et n'a pas été lu. Rechargez la page et renvoyez-le.",
  },
  file: {
    en: "This form does not take files. Reload the page and submit it again without a file.",
    fr: "Ce formulaire n'accepte pas de fichier. Rechargez la page et renvoyez-le sans fichier.",
  },
};

const STATUS: Record<BadBodyReason, number> = { content_type: 400, too_large: 413, malformed: 400, file: 400 };

/** The merchant's sentence for a refused body (also used by the error boundary). */
export function badBodyMessage(reason: BadBodyReason, locale: Locale): string {
  return MESSAGES[reason][locale];
}

/** The header naming why a body was refused (for logs and tests; the body is the merchant's sentence). */
export const REFUSED_BODY_HEADER = "X-Etiquette-Refused-Body";

/**
 * A thrown Response: 400 (or 413 for size) whose body is the sentence in the merchant's language, as plain text, so
 * the app's error boundary shows it as it is.
 */
export function badBodyResponse(reason: BadBodyReason, locale: Locale): Response {
  return new Response(badBodyMessage(reason, locale), {
    status: STATUS[reason],
    headers: { "Content-Type": "text/plain; charset=utf-8", [REFUSED_BODY_HEADER]: reason },
  });
}

/** Reads at most `maxBytes` of the body; undefined when it is longer. */
async function readBounded(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * The action's form as FormData, or a thrown 400/413 Response. Only `application/x-www-form-urlencoded` and
 * `multipart/form-data` without files are accepted.
 */
export async function readForm(request: Request, options: { maxBytes?: number } = {}): Promise<FormData> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_FORM_BYTES;
  const locale = localeFromRequest(request);
  const contentType = request.headers.get("content-type") ?? "";
  const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
  if (mediaType !== "application/x-www-form-urlencoded" && mediaType !== "multipart/form-data") {
    throw badBodyResponse("content_type", locale);
  }
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw badBodyResponse("too_large", locale);

  let bytes: Uint8Array<ArrayBuffer> | undefined;
  try {
    bytes = await readBounded(request, maxBytes);
  } catch {
    throw badBodyResponse("malformed", locale);
  }
  if (!bytes) throw badBodyResponse("too_large", locale);

  let form: FormData;
  try {
    // Parsed by the platform's own parser, from the bytes already bounded above.
    form = await new Response(bytes, { headers: { "Content-Type": contentType } }).formData();
  } catch {
    throw badBodyResponse("malformed", locale);
  }
  let count = 0;
  for (const [, value] of form.entries()) {
    count += 1;
    if (typeof value !== "string") throw badBodyResponse("file", locale);
    if (count > MAX_FORM_FIELDS) throw badBodyResponse("too_large", locale);
  }
  return form;
}

/** The form's fields as strings (the last value wins for a repeated name). */
export function formFields(form: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === "string") fields[key] = value;
  return fields;
}
