import { data, type HeadersFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { isRouteErrorResponse, Link, Outlet, useLoaderData, useNavigate, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { NavMenu } from "@shopify/app-bridge-react";
import polarisStylesUrl from "@shopify/polaris/build/esm/styles.css?url";
import indexTableStylesUrl from "../styles/index-table.css?url";
import { boundary } from "@shopify/shopify-app-remix/server";
import { AppProvider as PolarisProvider, Badge, Box, InlineStack, type AppProviderProps } from "@shopify/polaris";
import { forwardRef, useEffect, type ComponentProps, type ReactNode } from "react";
import { AppErrorPage } from "../components/AppErrorPage";
import { useShopifyLoadingBar } from "../components/loading";
import type { loader as rootLoader } from "../root";
import { requireAdmin } from "../auth.server";
import { config } from "../config.server";
import db from "../db.server";
import { getEnvironment } from "../settings/environment.server";
import { localeCookieHeader, localeFromRequest, type Locale } from "../i18n/locale";
import { usePolarisDictionary } from "../i18n/polaris";
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

/** App Bridge, from Shopify's CDN as Shopify requires: the admin's frame (title bar, menu, loading bar, toasts). */
const APP_BRIDGE_URL = "https://cdn.shopify.com/shopifycloud/app-bridge.js";

type LinkLikeComponentProps = ComponentProps<NonNullable<AppProviderProps["linkComponent"]>>;

/** Polaris's links (e.g. a row's or a button's `url`) navigate within the app, as Remix's own links do. */
const PolarisLink = forwardRef<HTMLAnchorElement, LinkLikeComponentProps>(function PolarisLink(
  { url, external, target, ...rest },
  ref,
) {
  const opensTab = external || target === "_blank";
  return <Link {...rest} to={url} ref={ref} target={external ? "_blank" : target} rel={opensTab ? "noopener noreferrer" : undefined} />;
});

/**
 * What `@shopify/shopify-app-remix/react`'s AppProvider does, without its English dictionary built into every page
 * (decision 0189): App Bridge's script tag in the embedded admin (not in the demo, which has no admin around it), its
 * `shopify:navigate` events (the admin's menu) followed as Remix navigations, and Polaris with Remix's links and the
 * merchant's dictionary only.
 */
function AppFrame({ embedded, apiKey, locale, children }: { embedded: boolean; apiKey: string; locale: Locale; children: ReactNode }) {
  const navigate = useNavigate();
  useEffect(() => {
    const followAdminMenu = (event: Event) => {
      const href = (event.target as Element | null)?.getAttribute?.("href");
      if (href) navigate(href);
    };
    addEventListener("shopify:navigate", followAdminMenu);
    return () => removeEventListener("shopify:navigate", followAdminMenu);
  }, [navigate]);
  return (
    <>
      {embedded ? <script src={APP_BRIDGE_URL} data-api-key={apiKey} /> : null}
      <PolarisProvider i18n={usePolarisDictionary(locale)} linkComponent={PolarisLink}>
        {children}
      </PolarisProvider>
    </>
  );
}

/** Inside AppFrame: the admin's loading bar follows the app's navigations (no-op without App Bridge). */
function LoadingBar() {
  useShopifyLoadingBar();
  return null;
}

export default function AppLayout() {
  const { apiKey, locale, demo, environment } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <AppFrame embedded={!demo} apiKey={apiKey} locale={locale}>
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
    </AppFrame>
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
  const locale = root?.locale ?? "en";
  const polarisDictionary = usePolarisDictionary(locale);
  if (!busy && isRouteErrorResponse(error) && (error.status < 400 || error.status === 401)) return boundary.error(error);
  return (
    <PolarisProvider i18n={polarisDictionary}>
      <LocaleContext.Provider value={locale}>
        <AppErrorPage />
      </LocaleContext.Provider>
    </PolarisProvider>
  );
}

// Shopify's boundary keeps the parent's and this loader's headers, so the locale cookie above goes out with them
// (and Remix carries loaders' Set-Cookie down to child routes' document and data responses).
export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
