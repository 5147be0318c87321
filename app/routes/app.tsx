import { data, type HeadersFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useRouteError } from "@remix-run/react";
import { NavMenu } from "@shopify/app-bridge-react";
import polarisStylesUrl from "@shopify/polaris/build/esm/styles.css?url";
import polarisEn from "@shopify/polaris/locales/en.json";
import polarisFr from "@shopify/polaris/locales/fr.json";
import { boundary } from "@shopify/shopify-app-remix/server";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import { Badge, Box, InlineStack } from "@shopify/polaris";
import { requireAdmin } from "../auth.server";
import { config } from "../config.server";
import db from "../db.server";
import { getEnvironment } from "../settings/environment.server";
import { localeCookieHeader, localeFromRequest } from "../i18n/locale";
import { LocaleContext, translator } from "../i18n/translate";
import { ShopifyBusyNotice } from "../components/ShopifyBusyNotice";
import { shopifyBusyFromRouteError } from "../shopify/busy";

export const links = () => [{ rel: "stylesheet", href: polarisStylesUrl }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { shop, demo } = await requireAdmin(request);
  const { environment } = await getEnvironment(db, shop);
  // Shopify's `?locale=` is only on the URL it opens the app with: remember it for the app's own links and posts.
  const cookie = localeCookieHeader(request);
  return data(
    { apiKey: config().SHOPIFY_API_KEY, locale: localeFromRequest(request), shop, demo, environment },
    cookie ? { headers: { "Set-Cookie": cookie } } : undefined,
  );
}

export default function AppLayout() {
  const { apiKey, locale, demo, environment } = useLoaderData<typeof loader>();
  const t = translator(locale);
  return (
    <AppProvider isEmbeddedApp={!demo} apiKey={apiKey} i18n={locale === "fr" ? polarisFr : polarisEn}>
      <LocaleContext.Provider value={locale}>
        {demo ? null : (
          <NavMenu>
            <Link to="/app" rel="home">
              {t("nav.orders")}
            </Link>
            <Link to="/app/labels">{t("nav.labels")}</Link>
            <Link to="/app/settings">{t("nav.settings")}</Link>
          </NavMenu>
        )}
        <Box padding="200">
          <InlineStack gap="200" align="space-between">
            <InlineStack gap="200">
              {/* Always visible: which label-service environment a purchase would use. */}
              <Badge tone={environment === "production" ? "critical" : "info"}>
                {t(environment === "production" ? "env.production" : "env.staging")}
              </Badge>
              {demo ? <Badge tone="attention">{t("env.demo")}</Badge> : null}
            </InlineStack>
            {demo ? (
              <InlineStack gap="300">
                <Link to="/app">{t("nav.orders")}</Link>
                <Link to="/app/labels">{t("nav.labels")}</Link>
                <Link to="/app/settings">{t("nav.settings")}</Link>
              </InlineStack>
            ) : null}
          </InlineStack>
        </Box>
        <Outlet />
      </LocaleContext.Provider>
    </AppProvider>
  );
}

// Shopify needs Remix to catch some thrown responses, so that their headers are included in the response.
// A page whose Shopify budget stayed short answers 503 "shopify_busy": say so and reload by itself (decision 0072).
export function ErrorBoundary() {
  const error = useRouteError();
  const busy = shopifyBusyFromRouteError(error);
  if (busy) return <ShopifyBusyNotice retryAfterSeconds={busy.retryAfterSeconds} />;
  return boundary.error(error);
}

// Shopify's boundary keeps the parent's and this loader's headers, so the locale cookie above goes out with them
// (and Remix carries loaders' Set-Cookie down to child routes' document and data responses).
export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
