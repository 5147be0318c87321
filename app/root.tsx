import type { LoaderFunctionArgs } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { localeFromRequest } from "./i18n/locale";
import { translator } from "./i18n/translate";

export async function loader({ request }: LoaderFunctionArgs) {
  return { locale: localeFromRequest(request) };
}

export default function App() {
  const { locale } = useLoaderData<typeof loader>();
  return (
    <html lang={locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <link rel="preconnect" href="https://cdn.shopify.com/" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
      </head>
      <body>
        <Outlet />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

/** The last resort (the app's own boundaries did not render): a translated sentence, never the error's text. */
export function ErrorBoundary() {
  const locale = useRouteLoaderData<typeof loader>("root")?.locale ?? "en";
  const t = translator(locale);
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
