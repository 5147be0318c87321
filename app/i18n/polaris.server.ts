/** Both Polaris dictionaries, for the server's rendering only (the browser fetches its one: app/i18n/polaris.ts). */
import polarisEn from "@shopify/polaris/locales/en.json";
import polarisFr from "@shopify/polaris/locales/fr.json";
import type { PolarisDictionaries } from "./polaris";

export const POLARIS_DICTIONARIES: PolarisDictionaries = { en: polarisEn, fr: polarisFr };
