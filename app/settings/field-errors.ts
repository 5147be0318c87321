/**
 * A settings field's error as data (a message key and the facts it needs), and its sentence in the merchant's
 * language. Client-safe: the settings form shows it under the field (Polaris `error`).
 */
import type { Locale } from "../i18n/locale";
import type { MessageKey } from "../i18n/messages";
import type { Translate } from "../i18n/translate";
import { countryName } from "../shipping/problem-texts";

export type FieldErrorKey = Extract<MessageKey, `settings.error.${string}`>;

export interface FieldError {
  key: FieldErrorKey;
  /** The value the merchant typed, the country it was checked for (ISO code), a number range... */
  values?: Record<string, string>;
}

/** "Postcode: "7501" is not a postcode of France. ..." — the field named by its label on the form. */
export function describeFieldError(error: FieldError, fieldLabel: string, t: Translate, locale: Locale): string {
  const values: Record<string, string> = { ...error.values, field: fieldLabel };
  if (values.country) values.country = countryName(values.country, locale);
  return t(error.key, values);
}
