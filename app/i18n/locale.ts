/**
 * The admin user's language. Shopify passes `locale` on the URL when it loads the embedded app, but the app's own
 * links and form posts go to bare `/app/...` URLs; so the layout route remembers that value in a cookie, and every
 * request reads: URL `locale` → that cookie → Accept-Language → English.
 */
export const SUPPORTED_LOCALES = ["en", "fr"] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];

/** The cookie that remembers the admin user's language between the app's own requests. */
export const LOCALE_COOKIE = "etiquette_locale";
const LOCALE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

export function normaliseLocale(value: string | null | undefined): Locale | undefined {
  const base = value?.trim().toLowerCase().split(/[-_]/)[0];
  return SUPPORTED_LOCALES.find((locale) => locale === base);
}

/** The supported `locale` Shopify put on the URL, if any. */
export function localeFromUrl(request: Request): Locale | undefined {
  return normaliseLocale(new URL(request.url).searchParams.get("locale"));
}

/** The supported language remembered in the locale cookie, if any. */
export function localeFromCookie(request: Request): Locale | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const pair of header.split(";")) {
    const separator = pair.indexOf("=");
    if (separator < 0 || pair.slice(0, separator).trim() !== LOCALE_COOKIE) continue;
    const found = normaliseLocale(pair.slice(separator + 1));
    if (found) return found;
  }
  return undefined;
}

function localeFromAcceptLanguage(request: Request): Locale | undefined {
  const header = request.headers.get("accept-language") ?? "";
  for (const part of header.split(",")) {
    const found = normaliseLocale(part.split(";")[0]);
    if (found) return found;
  }
  return undefined;
}

/** True when the URL names a language (Shopify's `locale`), supported or not. */
function urlNamesLocale(request: Request): boolean {
  return Boolean(new URL(request.url).searchParams.get("locale")?.trim());
}

export function localeFromRequest(request: Request): Locale {
  // A language the app does not have (the admin switched to German, say) overrides a remembered one: English then.
  const remembered = urlNamesLocale(request) ? undefined : localeFromCookie(request);
  return localeFromUrl(request) ?? remembered ?? localeFromAcceptLanguage(request) ?? "en";
}

/**
 * The Set-Cookie value remembering the URL's `locale` (or forgetting it, for a language the app does not have), or
 * undefined when there is nothing to change.
 * The app runs in the admin's iframe (a third-party context): SameSite=None with Secure, and Partitioned (CHIPS)
 * so browsers that block third-party cookies still keep it for this app inside the admin.
 */
export function localeCookieHeader(request: Request): string | undefined {
  const locale = localeFromUrl(request);
  const attributes = "Path=/; HttpOnly; Secure; SameSite=None; Partitioned";
  if (locale) return `${LOCALE_COOKIE}=${locale}; Max-Age=${LOCALE_COOKIE_MAX_AGE_SECONDS}; ${attributes}`;
  // An unsupported language on the URL forgets the remembered one, so later pages do not fall back to it.
  if (urlNamesLocale(request) && localeFromCookie(request)) return `${LOCALE_COOKIE}=; Max-Age=0; ${attributes}`;
  return undefined;
}
