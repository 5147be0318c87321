/**
 * Polaris's own strings (its buttons, its table's "N selected", its accessibility labels) in the merchant's language.
 * Only the root loader imports this module, so a page's bundle carries neither dictionary: the page receives its
 * language's with the root loader's data, once per document load (decision 0188, as decision 0182 does for ours).
 */
import polarisEn from "@shopify/polaris/locales/en.json";
import polarisFr from "@shopify/polaris/locales/fr.json";
import type { Locale } from "./locale";

export type PolarisTranslations = typeof polarisEn;

const POLARIS: Record<Locale, PolarisTranslations> = { en: polarisEn, fr: polarisFr as PolarisTranslations };

export function polarisTranslationsFor(locale: Locale): PolarisTranslations {
  return POLARIS[locale];
}
