import { createContext, useContext } from "react";
import type { Locale } from "./locale";
import { MESSAGES, type MessageKey } from "./messages";

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

export function translator(locale: Locale): Translate {
  const messages = MESSAGES[locale];
  return (key, values) =>
    messages[key].replace(/\{(\w+)\}/g, (whole, name: string) =>
      values && name in values ? String(values[name]) : whole,
    );
}

export const LocaleContext = createContext<Locale>("en");

export function useT(): Translate {
  return translator(useContext(LocaleContext));
}
