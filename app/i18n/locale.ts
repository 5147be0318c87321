/** The admin user's language: Shopify passes `locale` on embedded app URLs; otherwise Accept-Language. */
export const SUPPORTED_LOCALES = ["en", "fr"] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];

export function normaliseLocale(value: string | null | undefined): Locale | undefined {
  const base = value?.trim().toLowerCase().split(/[-_]/)[0];
  return SUPPORTED_LOCALES.find((locale) => locale === base);
}

export function localeFromRequest(request: Request): Locale {
  const fromUrl = normaliseLocale(new URL(request.url).searchParams.get("locale"));
  if (fromUrl) return fromUrl;
  const header = request.headers.get("accept-language") ?? "";
  for (const part of header.split(",")) {
    const found = normaliseLocale(part.split(";")[0]);
    if (found) return found;
  }
  return "en";
}
