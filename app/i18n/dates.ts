/**
 * Every date the merchant sees, formatted once, on the server, in the merchant's language and the SHOP's time zone
 * (Shopify's `Shop.ianaTimezone`). Pages receive the formatted text in their loader data, so the browser never formats
 * a date again: no hydration mismatch, and a French browser in another time zone sees the shop's calendar day.
 */
import type { Locale } from "./locale";

export interface DateContext {
  locale: Locale;
  /** An IANA time zone, e.g. "Europe/Paris". */
  timeZone: string;
}

const INTL_LOCALE: Record<Locale, string> = { en: "en-US", fr: "fr-FR" };

export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

function formatter(context: DateContext, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(INTL_LOCALE[context.locale], {
    ...options,
    timeZone: isTimeZone(context.timeZone) ? context.timeZone : "UTC",
  });
}

function toDate(value: string | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "Nov 5, 2026" / "5 nov. 2026": the shop's calendar day. An unreadable value is shown as "—". */
export function formatDate(value: string | Date, context: DateContext): string {
  const date = toDate(value);
  return date ? formatter(context, { dateStyle: "medium" }).format(date) : "—";
}

/** "Nov 5, 2026, 6:57 PM" / "5 nov. 2026, 18:57": the shop's wall-clock time. */
export function formatDateTime(value: string | Date, context: DateContext): string {
  const date = toDate(value);
  return date ? formatter(context, { dateStyle: "medium", timeStyle: "short" }).format(date) : "—";
}

/** The instant a calendar day (YYYY-MM-DD) starts in a time zone, e.g. for "from"/"to" filters in the shop's days. */
export function startOfDayIn(day: string, timeZone: string): Date {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const zone = isTimeZone(timeZone) ? timeZone : "UTC";
  const offsetAt = (instant: number) => {
    const parts = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    }).formatToParts(new Date(instant));
    const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((candidate) => candidate.type === type)?.value);
    return Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second")) - instant;
  };
  const guess = Date.UTC(year, month - 1, date);
  // Two passes settle days on which the offset changes (daylight saving time).
  return new Date(guess - offsetAt(guess - offsetAt(guess)));
}

/** The day after a calendar day (YYYY-MM-DD). */
export function nextDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}
