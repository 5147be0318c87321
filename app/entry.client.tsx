/**
 * The browser's entry: Remix's own, plus Polaris's dictionary for the page's language, read before hydrating so the
 * first browser render says what the server said (decision 0189). The root document preloads that file
 * (`link[data-polaris-dictionary]`, only on the app's pages), so reading it costs no extra round trip.
 */
import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { normaliseLocale } from "./i18n/locale";
import { fetchPolarisDictionary, PolarisDictionariesContext, type PolarisDictionaries } from "./i18n/polaris";

async function documentDictionary(): Promise<PolarisDictionaries> {
  const link = document.querySelector<HTMLLinkElement>("link[data-polaris-dictionary]");
  const locale = normaliseLocale(link?.dataset.polarisDictionary);
  if (!link || !locale) return {};
  try {
    return { [locale]: await fetchPolarisDictionary(link.href) };
  } catch {
    // Hydrate all the same: the layout fetches it again and rerenders (app/i18n/polaris.ts).
    return {};
  }
}

void documentDictionary().then((dictionaries) => {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <PolarisDictionariesContext.Provider value={dictionaries}>
          <RemixBrowser />
        </PolarisDictionariesContext.Provider>
      </StrictMode>,
    );
  });
});
