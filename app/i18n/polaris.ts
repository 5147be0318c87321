/** The Polaris dictionary the root loader sent (app/i18n/polaris.server.ts), for every Polaris provider of a page. */
import { useRouteLoaderData } from "@remix-run/react";
import type { PolarisTranslations } from "./polaris.server";

/**
 * Under the root route the root loader's data is always there (when it failed, the root's own error boundary shows,
 * without Polaris); an empty dictionary would only show Polaris's keys, never break the page.
 */
export function usePolarisTranslations(): PolarisTranslations | Record<string, never> {
  const root = useRouteLoaderData<{ polaris?: PolarisTranslations }>("root");
  return root?.polaris ?? {};
}
