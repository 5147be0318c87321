import type { HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
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
import { localeFromRequest } from "../i18n/locale";
import { LocaleContext, translator } from "../i18n/translate";

export const links = () => [{ rel: "stylesheet", href: polarisStylesUrl }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { shop, demo } = await requireAdmin(request);
  return { apiKey: config().SHOPIFY_API_KEY, locale: localeFromRequest(request), shop, demo };
}

export default function AppLayout() {
  const { apiKey, locale, demo } = useLoaderData<typeof loader>();
  const t = translator(locale);
  return (
    <AppProvider isEmbeddedApp={!demo} apiKey={apiKey} i18n={locale === "fr" ? polarisFr : polarisEn}>
      <LocaleContext.Provider value={locale}>
        {demo ? null : (
          <NavMenu>
            <Link to="/app" rel="home">
              {t("nav.orders")}
            </Link>
          </NavMenu>
        )}
        {demo ? (
          <Box padding="200">
            <InlineStack gap="200">
              <Badge tone="attention">{t("env.demo")}</Badge>
            </InlineStack>
          </Box>
        ) : null}
        <Outlet />
      </LocaleContext.Provider>
    </AppProvider>
  );
}

// Shopify needs Remix to catch some thrown responses, so that their headers are included in the response.
export function ErrorBoundary() {
  return boundary.error(useRouteError());
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
