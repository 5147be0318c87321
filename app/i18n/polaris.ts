/**
 * Polaris's own dictionary (its buttons' and lists' words), one language per page (decision 0189). No page's
 * JavaScript holds a dictionary: the server renders with both (app/i18n/polaris.server.ts, given by entry.server), the
 * root document preloads the merchant's language as a hashed, cached file, and entry.client reads it before hydrating,
 * so the browser renders the same words as the server did.
 */
import type { AppProviderProps } from "@shopify/polaris";
import enUrl from "@shopify/polaris/locales/en.json?url";
import frUrl from "@shopify/polaris/locales/fr.json?url";
import { createContext, useContext, useEffect, useState } from "react";
import type { Locale } from "./locale";

export type PolarisDictionary = AppProviderProps["i18n"];
export type PolarisDictionaries = Partial<Record<Locale, PolarisDictionary>>;

/** Where each language's dictionary is served from (a file of the build, named by its content). */
export const POLARIS_DICTIONARY_URLS: Record<Locale, string> = { en: enUrl, fr: frUrl };

/** The dictionaries at hand: both on the server, the document's language in the browser. */
export const PolarisDictionariesContext = createContext<PolarisDictionaries>({});

export async function fetchPolarisDictionary(url: string): Promise<PolarisDictionary> {
  // Hydration waits for it: a stalled read must not leave the page dead (the layout fetches it again on failure).
  const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  if (!response.ok) throw new Error(`Polaris dictionary ${url}: HTTP ${response.status}`);
  return (await response.json()) as PolarisDictionary;
}

/** Dictionaries the browser fetched after hydrating (the language changed during a visit). */
const fetchedLater: PolarisDictionaries = {};
const NO_WORDS: PolarisDictionary = {};

/**
 * The dictionary for `locale`. Should it be missing (the language changed without a new document, or its file
 * could not be read before hydrating), it is fetched and the page rerenders with it; meanwhile Polaris gets the words
 * at hand (its missing words render empty, never an error).
 */
export function usePolarisDictionary(locale: Locale): PolarisDictionary {
  const known = useContext(PolarisDictionariesContext);
  const dictionary = known[locale] ?? fetchedLater[locale];
  const [, setArrivals] = useState(0);
  useEffect(() => {
    if (dictionary) return;
    let live = true;
    fetchPolarisDictionary(POLARIS_DICTIONARY_URLS[locale]).then(
      (fetched) => {
        fetchedLater[locale] = fetched;
        if (live) setArrivals((count) => count + 1);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [dictionary, locale]);
  return dictionary ?? Object.values(known)[0] ?? Object.values(fetchedLater)[0] ?? NO_WORDS;
}
