/**
 * Shown by the app layout's error boundary when a page's loader answered "Shopify is busy" (503): a translated notice
 * that counts down and reloads the page's data by itself, with a button to try at once. It renders in place of the
 * layout, so it brings its own Polaris provider; the language comes from the root loader.
 */
import { useRouteLoaderData, useRevalidator } from "@remix-run/react";
import { AppProvider, Banner, Box } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { normaliseLocale } from "../i18n/locale";
import { usePolarisDictionary } from "../i18n/polaris";
import { useT } from "../i18n/translate";

export function ShopifyBusyNotice({ retryAfterSeconds }: { retryAfterSeconds: number }) {
  const root = useRouteLoaderData<{ locale?: string }>("root");
  const locale = normaliseLocale(root?.locale) ?? "en";
  const t = useT();
  const polarisDictionary = usePolarisDictionary(locale);
  const revalidator = useRevalidator();
  const [seconds, setSeconds] = useState(retryAfterSeconds);
  useEffect(() => setSeconds(retryAfterSeconds), [retryAfterSeconds]);
  useEffect(() => {
    if (revalidator.state !== "idle") return;
    if (seconds <= 0) {
      revalidator.revalidate();
      return;
    }
    const timer = setTimeout(() => setSeconds((left) => left - 1), 1000);
    return () => clearTimeout(timer);
  }, [seconds, revalidator]);
  return (
    <AppProvider i18n={polarisDictionary}>
      <Box padding="400">
        <Banner tone="warning" action={{ content: t("shopify.busy.retryNow"), onAction: () => revalidator.revalidate(), loading: revalidator.state !== "idle" }}>
          {t("shopify.busy.page", { seconds: Math.max(0, seconds) })}
        </Banner>
      </Box>
    </AppProvider>
  );
}
