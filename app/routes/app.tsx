import { data, type HeadersFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { isRouteErrorResponse, Link, Outlet, useLoaderData, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { NavMenu } from "@shopify/app-bridge-react";
import polarisStylesUrl from "@shopify/polaris/build/esm/styles.css?url";
import indexTableStylesUrl from "../styles/index-table.css?url";
import polarisEn from "@shopify/polaris/locales/en.json";
import polarisFr from "@shopify/polaris/locales/fr.json";
import { boundary } from "@shopify/shopify-app-remix/server";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import { AppProvider as PolarisProvider, Badge, Box, InlineStack } from "@shopify/polaris";
import { AppErrorPage } from "../components/AppErrorPage";
import { useShopifyLoadingBar } from "../components/loading";
import type { loader as rootLoader } from "../root";
import { requireAdmin } from "../auth.server";
import { config } from "../config.server";
import db from "../db.server";
import { getEnvironment } from "../settings/environment.server";
import { localeCookieHeader, localeFromRequest } from "../i18n/locale";
import { LocaleContext, useT } from "../i18n/translate";
import { shopifyBusyFromRouteError } from "../shopify/busy";

export const links = () => [
  { rel: "stylesheet", href: polarisStylesUrl },
  { rel: "stylesheet", href: indexTableStylesUrl },
];

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

/** Inside AppProvider: the admin's loading bar follows the app's navigations (no-op without App Bridge). */
function LoadingBar() {
  useShopifyLoadingBar();
  return null;
}

export default function AppLayout() {
  const { apiKey, locale, demo, environment } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <AppProvider isEmbeddedApp={!demo} apiKey={apiKey} i18n={locale === "fr" ? polarisFr : polarisEn}>
      <LocaleContext.Provider value={locale}>
        <LoadingBar />
        {demo ? null : (
          <NavMenu>
            <Link to="/app" rel="home">
              {t("nav.orders")}
            </Link>
            <Link to="/app/bulk">{t("nav.bulk")}</Link>
            <Link to="/app/labels">{t("nav.labels")}</Link>
            <Link to="/app/rules">{t("nav.rules")}</Link>
            <Link to="/app/customs">{t("nav.customs")}</Link>
            <Link to="/app/settings">{t("nav.settings")}</Link>
            <Link to="/app/privacy">{t("nav.privacy")}</Link>
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
                <Link to="/app/bulk">{t("nav.bulk")}</Link>
                <Link to="/app/labels">{t("nav.labels")}</Link>
                <Link to="/app/rules">{t("nav.rules")}</Link>
                <Link to="/app/customs">{t("nav.customs")}</Link>
            <Link to="/app/settings">{t("nav.settings")}</Link>
                <Link to="/app/privacy">{t("nav.privacy")}</Link>
              </InlineStack>
            ) : null}
          </InlineStack>
        </Box>
        <Outlet />
      </LocaleContext.Provider>
    </AppProvider>
  );
}

/**
 * Errors of the layout's own loader (child routes have their own boundary, inside this frame). A page whose Shopify
 * budget stayed short answers 503 "shopify_busy": say so and reload by itself (decision 0072). Shopify's
 * authentication answers (its bounce and exit-iframe pages, a 401 asking to re-authorise) go to Shopify's boundary,
 * which needs Remix to catch them so that their headers are included; anything else is said in the merchant's
 * language, in the app's look, never as raw text.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const busy = shopifyBusyFromRouteError(error);
  if (!busy && isRouteErrorResponse(error) && (error.status < 400 || error.status === 401)) return boundary.error(error);
  const locale = root?.locale ?? "en";
  return (
    <PolarisProvider i18n={locale === "fr" ? polarisFr : polarisEn}>
      <LocaleContext.Provider value={locale}>
        <AppErrorPage />
      </LocaleContext.Provider>
    </PolarisProvider>
  );
}

// Shopify's boundary keeps the parent's and this loader's headers, so the locale cookie above goes out with them
// (and Remix carries loaders' Set-Cookie down to child routes' document and data responses).
export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
