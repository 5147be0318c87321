import type { LoaderFunctionArgs } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData, useMatches, useRouteLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { useEffect } from "react";
import { localeFromRequest } from "./i18n/locale";
import { POLARIS_DICTIONARY_URLS } from "./i18n/polaris";
import { LocaleContext, MessagesContext, translatorFor } from "./i18n/translate";
import { messagesFor } from "./i18n/translate.server";

/** The merchant's language and its dictionary only: the page's bundle carries no messages (decision 0182). */
export async function loader({ request }: LoaderFunctionArgs) {
  const locale = localeFromRequest(request);
  return { locale, messages: messagesFor(locale) };
}

/** The dictionary is sent again only when Shopify opens the app in another language (`?locale=`). */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl }) =>
  currentUrl.searchParams.get("locale") !== nextUrl.searchParams.get("locale");

/** When even the root loader failed: the last resort's three sentences in both languages. */
const LAST_RESORT = {
  en: {
    "error.failed.title": "Something went wrong",
    "error.failed.body": "This page could not be shown. Reload it; if it happens again, contact support with the address of this page.",
    "error.back": "Back to the orders to ship",
  },
  fr: {
    "error.failed.title": "Un problème est survenu",
    "error.failed.body": "Cette page n'a pas pu s'afficher. Rechargez-la ; si cela se reproduit, contactez le support avec l'adresse de cette page.",
    "error.back": "Retour aux commandes à expédier",
  },
} as const;

export default function App() {
  const { locale, messages } = useLoaderData<typeof loader>();
  // The app's pages (under the layout) render Polaris: entry.client reads this file before hydrating (decision 0189).
  const appPage = useMatches().some((match) => match.id === "routes/app");
  // Says the page is live (React hydrated it and its handlers listen): a key pressed before that reaches no handler.
  // Browser journeys and monitors wait for it; nothing in the app reads it.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <html lang={locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <link rel="preconnect" href="https://cdn.shopify.com/" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
        {appPage ? (
          <link rel="preload" as="fetch" crossOrigin="anonymous" href={POLARIS_DICTIONARY_URLS[locale]} data-polaris-dictionary={locale} />
        ) : null}
      </head>
      <body>
        <MessagesContext.Provider value={messages}>
          <LocaleContext.Provider value={locale}>
            <Outlet />
          </LocaleContext.Provider>
        </MessagesContext.Provider>
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

/** The last resort (the app's own boundaries did not render): a translated sentence, never the error's text. */
export function ErrorBoundary() {
  const root = useRouteLoaderData<typeof loader>("root");
  const locale = root?.locale ?? (typeof navigator !== "undefined" && navigator.language.startsWith("fr") ? "fr" : "en");
  const t = translatorFor(root?.messages ?? LAST_RESORT[locale]);
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <html lang={locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>{t("error.failed.title")}</title>
        <Meta />
        <Links />
      </head>
      <body style={{ fontFamily: "system-ui, sans-serif", padding: "2rem" }}>
        <h1>{t("error.failed.title")}</h1>
        <p>{t("error.failed.body")}</p>
        <p>
          <a href="/app">{t("error.back")}</a>
        </p>
        <Scripts />
      </body>
    </html>
  );
}
