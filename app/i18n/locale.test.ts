import { describe, expect, it } from "vitest";
import { LOCALE_COOKIE, localeCookieHeader, localeFromCookie, localeFromRequest } from "./locale";

function request(path: string, headers: Record<string, string> = {}): Request {
  return new Request(`https://etiquette.test${path}`, { headers });
}

describe("localeFromRequest", () => {
  it("prefers Shopify's ?locale= over the cookie and Accept-Language", () => {
    expect(
      localeFromRequest(request("/app?locale=fr", { cookie: `${LOCALE_COOKIE}=en`, "accept-language": "en-GB" })),
    ).toBe("fr");
    expect(
      localeFromRequest(request("/app?locale=en-US", { cookie: `${LOCALE_COOKIE}=fr`, "accept-language": "fr" })),
    ).toBe("en");
  });

  it("uses the remembered cookie when the URL has no locale (the app's own links and posts)", () => {
    expect(
      localeFromRequest(
        request("/app/orders/1", { cookie: `${LOCALE_COOKIE}=fr`, "accept-language": "en-US,en;q=0.9" }),
      ),
    ).toBe("fr");
    expect(
      localeFromRequest(
        request("/app/orders/1", { cookie: `other=1; ${LOCALE_COOKIE}=fr; more=2`, "accept-language": "en" }),
      ),
    ).toBe("fr");
  });

  it("falls back to Accept-Language, then English", () => {
    expect(localeFromRequest(request("/app", { "accept-language": "de-CH, fr;q=0.8" }))).toBe("fr");
    expect(localeFromRequest(request("/app", { "accept-language": "de" }))).toBe("en");
    expect(localeFromRequest(request("/app"))).toBe("en");
  });

  it("ignores unsupported values at every step, and a language the app lacks overrides the remembered one", () => {
    expect(
      localeFromRequest(request("/app?locale=de", { cookie: `${LOCALE_COOKIE}=fr`, "accept-language": "en" })),
    ).toBe("en");
    expect(
      localeFromRequest(request("/app?locale=de", { cookie: `${LOCALE_COOKIE}=es`, "accept-language": "fr" })),
    ).toBe("fr");
    expect(localeFromRequest(request("/app?locale=", { cookie: `${LOCALE_COOKIE}=`, "accept-language": "" }))).toBe(
      "en",
    );
  });

  it("reads only its own cookie", () => {
    expect(localeFromCookie(request("/app", { cookie: `not_${LOCALE_COOKIE}=fr; locale=fr` }))).toBeUndefined();
    expect(localeFromCookie(request("/app", { cookie: `${LOCALE_COOKIE}=fr` }))).toBe("fr");
  });
});

describe("localeCookieHeader", () => {
  it("remembers a supported ?locale= with a cookie usable inside the admin's iframe", () => {
    const header = localeCookieHeader(request("/app?embedded=1&locale=fr-FR&shop=a.myshopify.com"));
    expect(header).toBeDefined();
    const [pair, ...attributes] = header!.split(/;\s*/);
    expect(pair).toBe(`${LOCALE_COOKIE}=fr`);
    expect(attributes).toEqual(
      expect.arrayContaining(["Path=/", "HttpOnly", "Secure", "SameSite=None", "Partitioned"]),
    );
    expect(attributes.find((attribute) => attribute.startsWith("Max-Age="))).toBe(`Max-Age=${365 * 24 * 60 * 60}`);
  });

  it("sets nothing without a supported ?locale=, and forgets the remembered one for a language the app lacks", () => {
    expect(localeCookieHeader(request("/app/orders/1", { cookie: `${LOCALE_COOKIE}=fr` }))).toBeUndefined();
    expect(localeCookieHeader(request("/app?locale=de"))).toBeUndefined();
    expect(localeCookieHeader(request("/app?locale=de", { cookie: `${LOCALE_COOKIE}=fr` }))).toMatch(new RegExp(`^${LOCALE_COOKIE}=; Max-Age=0;`));
  });
});
