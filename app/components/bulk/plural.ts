import type { Locale } from "../../i18n/locale";
import type { MessageKey } from "../../i18n/messages";
import type { Translate } from "../../i18n/translate";

type BaseOf<K> = K extends `${infer Base}.one` ? (`${Base}.other` extends MessageKey ? Base : never) : never;
type PluralBase = BaseOf<MessageKey>;

/** The `.one` or `.other` message for a count, by the language's own rule (French: 0 and 1 are singular). */
export function plural(t: Translate, locale: Locale, base: PluralBase, count: number, values: Record<string, string | number> = {}): string {
  const form = new Intl.PluralRules(locale === "fr" ? "fr-FR" : "en-US").select(count) === "one" ? "one" : "other";
  return t(`${base}.${form}` as MessageKey, { count, ...values });
}
