/**
 * The subset of Shopify's order search syntax the emulator understands: space-separated terms are ANDed;
 * `field:value`, `field:>value` (>, >=, <, <=), optional quotes, and free text matched against the order name.
 * Unknown fields produce a search warning (as Shopify does in `extensions.search`) and are ignored.
 */
import { displayFulfillmentStatus, type OrderState, type ShopState } from "./state";

export interface SearchWarning {
  field: string;
  message: string;
  code: string;
}

type Predicate = (order: OrderState) => boolean;

export interface ParsedSearch {
  predicates: Predicate[];
  warnings: SearchWarning[];
}

function tokenize(query: string): string[] {
  const tokens: string[] = [];
  const re = /(\S*?"[^"]*"\S*|\S+)/g;
  for (const match of query.matchAll(re)) if (match[0]) tokens.push(match[0]);
  return tokens;
}

function unquote(value: string): string {
  return value.replace(/^"(.*)"$/, "$1").replace(/^'(.*)'$/, "$1");
}

/** Midnight of a calendar date in a time zone, as epoch milliseconds. */
export function zonedMidnight(date: string, timeZone: string): number {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const utcGuess = Date.UTC(y, m - 1, d);
  const offset = (at: number) => {
    const parts = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    }).formatToParts(new Date(at));
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    return Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second")) - at;
  };
  const first = utcGuess - offset(utcGuess);
  return utcGuess - offset(first);
}

function datePredicate(field: string, raw: string, timeZone: string, pick: (o: OrderState) => string): Predicate | SearchWarning {
  const match = /^(>=|<=|>|<)?(.+)$/.exec(raw);
  const op = match?.[1] ?? "=";
  const value = unquote(match?.[2] ?? "");
  let start: number;
  let end: number;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    start = zonedMidnight(value, timeZone);
    const next = new Date(`${value}T00:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    end = zonedMidnight(next.toISOString().slice(0, 10), timeZone);
  } else if (!Number.isNaN(Date.parse(value))) {
    start = Date.parse(value);
    end = start + 1;
  } else {
    return { field, message: `Invalid date value '${value}'`, code: "invalid_value" };
  }
  return (order) => {
    const at = Date.parse(pick(order));
    switch (op) {
      case ">":
        return at >= end;
      case ">=":
        return at >= start;
      case "<":
        return at < start;
      case "<=":
        return at < end;
      default:
        return at >= start && at < end;
    }
  };
}

export function parseOrderSearch(shop: ShopState, query: string | null | undefined): ParsedSearch {
  const predicates: Predicate[] = [];
  const warnings: SearchWarning[] = [];
  const timeZone = shop.info.ianaTimezone;
  for (const token of tokenize(query ?? "")) {
    if (token === "AND") continue;
    const negate = token.startsWith("-") && token.length > 1;
    const term = negate ? token.slice(1) : token;
    const colon = term.indexOf(":");
    let predicate: Predicate | SearchWarning;
    if (colon <= 0) {
      const text = unquote(term).toLowerCase().replace(/^#/, "");
      predicate = (order) => order.name.toLowerCase().replace(/^#/, "").includes(text);
    } else {
      const field = term.slice(0, colon).toLowerCase();
      const value = unquote(term.slice(colon + 1));
      predicate = fieldPredicate(shop, field, value, timeZone);
    }
    if (typeof predicate === "function") {
      const p = predicate;
      predicates.push(negate ? (order) => !p(order) : p);
    } else {
      warnings.push(predicate);
    }
  }
  return { predicates, warnings };
}

function fieldPredicate(shop: ShopState, field: string, value: string, timeZone: string): Predicate | SearchWarning {
  const lower = value.toLowerCase();
  switch (field) {
    case "fulfillment_status": {
      const status = (order: OrderState) => displayFulfillmentStatus(shop, order);
      switch (lower) {
        case "unshipped":
          return (order) => status(order) === "UNFULFILLED";
        case "unfulfilled":
          return (order) => ["UNFULFILLED", "PARTIALLY_FULFILLED"].includes(status(order));
        case "partial":
          return (order) => status(order) === "PARTIALLY_FULFILLED";
        case "shipped":
        case "fulfilled":
          return (order) => status(order) === "FULFILLED";
        case "any":
          return () => true;
        default:
          return { field, message: `Invalid value '${value}' for fulfillment_status`, code: "invalid_value" };
      }
    }
    case "status":
      switch (lower) {
        case "open":
          return (order) => !order.closedAt && !order.cancelledAt;
        case "closed":
          return (order) => !!order.closedAt;
        case "cancelled":
        case "canceled":
          return (order) => !!order.cancelledAt;
        case "any":
          return () => true;
        default:
          return { field, message: `Invalid value '${value}' for status`, code: "invalid_value" };
      }
    case "name": {
      const wanted = lower.replace(/^#/, "");
      return (order) => order.name.toLowerCase().replace(/^#/, "") === wanted;
    }
    case "id": {
      const ranged = /^(>=|<=|>|<)?(\d+)$/.exec(value);
      if (!ranged?.[2]) return { field, message: `Invalid value '${value}' for id`, code: "invalid_value" };
      const n = Number(ranged[2]);
      const op = ranged[1];
      return (order) => (op === ">" ? order.id > n : op === ">=" ? order.id >= n : op === "<" ? order.id < n : op === "<=" ? order.id <= n : order.id === n);
    }
    case "created_at":
      return datePredicate(field, value, timeZone, (order) => order.createdAt);
    case "processed_at":
      return datePredicate(field, value, timeZone, (order) => order.processedAt);
    case "updated_at":
      return datePredicate(field, value, timeZone, (order) => order.updatedAt);
    default:
      return { field, message: `Invalid search field for this query (the emulator does not support '${field}').`, code: "invalid_field" };
  }
}
