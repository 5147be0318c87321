/**
 * Translating on a page. The page holds one dictionary, the merchant's language's, sent by the root loader
 * (root.tsx) and provided by `MessagesContext`: the client bundle never imports messages.ts, so both languages do
 * not ship on every page (decision 0182). Server code translates with `translator(locale)` (translate.server.ts).
 */
import { createContext, useContext, useMemo } from "react";
import type { Locale } from "./locale";
import type { MessageKey, Messages } from "./messages";

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

/** A translator over one dictionary; a key it lacks (no provider: a bug) shows as the key, never crashes the page. */
export function translatorFor(messages: Partial<Messages> | null | undefined): Translate {
  return (key, values) =>
    (messages?.[key] ?? key).replace(/\{(\w+)\}/g, (whole, name: string) => (values && name in values ? String(values[name]) : whole));
}

export const LocaleContext = createContext<Locale>("en");
export const MessagesContext = createContext<Messages | null>(null);

/** The page's translator; the same function as long as the dictionary is the same (safe in memo dependencies). */
export function useT(): Translate {
  const messages = useContext(MessagesContext);
  return useMemo(() => translatorFor(messages), [messages]);
}
