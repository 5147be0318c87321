/**
 * Authentication for the JSON API (`app/routes/api.*`) that the admin extensions and scripts call. A real install:
 * the admin session token (`Authorization: Bearer …`, added by Shopify to an extension's relative fetch), checked by
 * `authenticate.admin`, and CORS headers for the admin's origin on every answer. Demo mode (local only, refused in
 * production by config.server.ts): the demo shop, like the app's pages.
 */
import type { ZodType } from "zod";
import { config } from "../config.server";
import { localeFromRequest, type Locale } from "../i18n/locale";
import { translator } from "../i18n/translate.server";
import { DEMO_SHOP_DOMAIN } from "../demo/seed-demo-shop.server";
import { staffUserIdOf } from "../settings/environment.server";
import { isShopifyBusy, withShopifyBudget, type AdminGraphqlClient } from "../shopify/admin-client";
import { authenticate, unauthenticated } from "../shopify.server";

export interface ApiAdmin {
  shop: string;
  admin: AdminGraphqlClient;
  staffUserId: string | null;
  /** Adds the admin origin's CORS headers to an answer. */
  cors: (response: Response) => Response;
  demo: boolean;
}

export async function requireApiAdmin(request: Request): Promise<ApiAdmin> {
  if (config().ETIQUETTE_DEMO) {
    const { admin, session } = await unauthenticated.admin(DEMO_SHOP_DOMAIN);
    return { shop: session.shop, admin: withShopifyBudget(admin, { shop: session.shop }), staffUserId: null, cors: (response) => response, demo: true };
  }
  // No session token at all (not the admin's fetch): a JSON 401, not the library's redirect to the login page. The
  // CORS preflight carries no token and goes on to the library, which answers it.
  if (request.method !== "OPTIONS" && !/^Bearer\s+\S/i.test(request.headers.get("authorization") ?? "")) {
    throw apiUnauthorized(request);
  }
  // Throws a Response (401, or the CORS preflight's answer) when the token is expired, not signed by us or not ours.
  const { admin, session, sessionToken, cors } = await authenticate.admin(request);
  return {
    shop: session.shop,
    admin: withShopifyBudget(admin, { shop: session.shop }),
    staffUserId: staffUserIdOf({ sessionToken, session }),
    cors: (response) => cors(response),
    demo: false,
  };
}

/** 401 for a call without the admin's session token; readable by the admin's origin so the caller sees the status. */
export function apiUnauthorized(request: Request): Response {
  const origin = request.headers.get("origin");
  const headers = new Headers({ "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
  if (origin && /^https:\/\/admin\.shopify\.com$/.test(origin)) headers.set("Access-Control-Allow-Origin", origin);
  const locale = localeFromRequest(request);
  return new Response(JSON.stringify({ code: "unauthorized", message: translator(locale)("api.error.unauthorized") }), { status: 401, headers });
}

/** A JSON answer with the API's CORS headers. */
export function apiJson(api: Pick<ApiAdmin, "cors">, body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  return api.cors(new Response(JSON.stringify(body), { ...init, headers }));
}

/** The caller's language: the extension sends `?locale=` (its translations name their own language), else the headers. */
export function apiLocale(request: Request): Locale {
  return localeFromRequest(request);
}

export type ApiErrorCode = "bad_order_id" | "order_not_found" | "bad_body" | "method_not_allowed" | "shopify_busy";

/** An error answer: `{ code, message }`, the message in the caller's language, with the API's CORS headers. */
export function apiError(api: Pick<ApiAdmin, "cors">, status: number, code: ApiErrorCode, locale: Locale, values?: Record<string, string | number>, init: ResponseInit = {}): Response {
  return apiJson(api, { code, message: translator(locale)(`api.error.${code}`, values) }, { ...init, status });
}

/** Shopify's budget stayed short past the wait bound: a 503 with Retry-After (nothing was bought); anything else is thrown on. */
export function shopifyBusyAnswer(api: Pick<ApiAdmin, "cors">, error: unknown, locale: Locale): Response {
  if (!isShopifyBusy(error)) throw error;
  const seconds = Math.max(1, Math.ceil(error.retryAfterMs / 1000));
  return apiError(api, 503, "shopify_busy", locale, { seconds }, { headers: { "Retry-After": String(seconds) } });
}

/** The largest JSON body the API takes: 500 order ids of ~30 characters fit in 16 KB; 64 KB leaves room. */
export const MAX_API_BODY_BYTES = 64 * 1024;

/**
 * A JSON body checked with zod: `application/json` (or no body at all, read as `{}`), at most 64 KB (the declared
 * length, then counted while reading), parsed and validated. Never throws.
 */
export async function readApiBody<T>(request: Request, schema: ZodType<T>): Promise<{ ok: true; data: T } | { ok: false; reason: "content_type" | "too_large" | "malformed" | "invalid" }> {
  const declared = Number(request.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > MAX_API_BODY_BYTES) return { ok: false, reason: "too_large" };
  let text = "";
  if (request.body) {
    const reader = request.body.getReader();
    const decoder = new TextDecoder();
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_API_BODY_BYTES) {
        await reader.cancel();
        return { ok: false, reason: "too_large" };
      }
      text += decoder.decode(value, { stream: true });
    }
    text += decoder.decode();
  }
  let raw: unknown = {};
  if (text.trim() !== "") {
    const type = request.headers.get("content-type") ?? "";
    if (!/^application\/json\b/i.test(type)) return { ok: false, reason: "content_type" };
    try {
      raw = JSON.parse(text);
    } catch {
      return { ok: false, reason: "malformed" };
    }
  }
  const parsed = schema.safeParse(raw);
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, reason: "invalid" };
}
