/** Translating on the server (loaders, actions, jobs, tests): both dictionaries are at hand. */
import type { Locale } from "./locale";
import { MESSAGES, type Messages } from "./messages";
import { translatorFor, type Translate } from "./translate";

export function messagesFor(locale: Locale): Messages {
  return MESSAGES[locale];
}

export function translator(locale: Locale): Translate {
  return translatorFor(MESSAGES[locale]);
}
