/**
 * Shopify's search syntax for `orders(query:)` and `ordersCount(query:)` (https://shopify.dev/docs/api/usage/search-syntax):
 * terms separated by whitespace are ANDed; `OR` between terms, `AND` written out, `NOT term` / `-term`, and
 * parentheses for grouping (AND binds tighter than OR); `field:value`, `field:>value` (>, >=, <, <=), quoted values.
 * A term without a field searches the default fields: the order name, e-mail, the customer's name and the shipping
 * address (name, company, street, postcode, city, province, country name and code), case- and accent-insensitively,
 * by word prefix (a number only matches the order name by prefix, or a whole word elsewhere: "101" finds #1010, not
 * postcode 10115). A field Shopify does not document is ignored with a search warning (`extensions.search`), as
 * Shopify does; a documented field the emulator does not implement fails loudly (NOT_EMULATED), never silently.
 */
import { adminSchema } from "./schema";
import { notEmulated } from "./errors";
import { countryName } from "./util";
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

type Token = { kind: "open" } | { kind: "close" } | { kind: "word"; text: string };

function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  // A parenthesis, or a run of non-space characters where quoted parts may hold spaces and parentheses.
  const re = /[()]|(?:[^\s()"']|"[^"]*"|'[^']*')+/g;
  for (const match of query.matchAll(re)) {
    const text = match[0];
    if (text === "(") tokens.push({ kind: "open" });
    else if (text === ")") tokens.push({ kind: "close" });
    else tokens.push({ kind: "word", text });
  }
  return tokens;
}

function unquote(value: string): string {
  return value.replace(/^"(.*)"$/, "$1").replace(/^'(.*)'$/, "$1");
}

/** Lower case without accents: "Núñez" and "nunez" are the same word. */
function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

function defaultText(order: OrderState): string[] {
  const address = order.shippingAddress;
  const parts = [
    order.name,
    order.email,
    order.customer?.firstName,
    order.customer?.lastName,
    order.customer?.email,
    address?.firstName,
    address?.lastName,
    address?.company,
    address?.address1,
    address?.address2,
    address?.zip,
    address?.city,
    address?.province,
    address?.provinceCode,
    address ? countryName(address.countryCode) : null,
    address?.countryCode,
  ];
  return parts.filter((part): part is string => Boolean(part)).map(fold);
}

function textPredicate(raw: string): Predicate {
  const phrase = fold(unquote(raw)).replace(/^#/, "").trim();
  const words = (value: string) => value.split(/[^\p{L}\p{N}@.]+/u).filter(Boolean);
  if (/^[0-9]+$/.test(phrase)) {
    return (order) =>
      fold(order.name).replace(/^#/, "").startsWith(phrase) || defaultText(order).some((field) => words(field).includes(phrase));
  }
  if (/\s/.test(phrase)) return (order) => defaultText(order).some((field) => field.includes(phrase));
  return (order) => defaultText(order).some((field) => field === phrase || words(field).some((word) => word.startsWith(phrase)));
}

let documentedFields: Set<string> | undefined;

/** The filter fields the pinned schema documents for `orders(query:)` (its description's table). */
function documentedOrderFields(): Set<string> {
  if (!documentedFields) {
    const description = adminSchema().getQueryType()?.getFields().orders?.args.find((arg) => arg.name === "query")?.description ?? "";
    documentedFields = new Set([...description.matchAll(/^\| ([a-z_.{}]+) \|/gm)].map((match) => match[1]!));
  }
  return documentedFields;
}

class Parser {
  private position = 0;
  readonly warnings: SearchWarning[] = [];
  constructor(
    private readonly tokens: Token[],
    private readonly shop: ShopState,
  ) {}

  parse(): Predicate {
    const predicate = this.disjunction();
    if (this.position < this.tokens.length) throw searchError("unbalanced parentheses");
    return predicate;
  }

  private peekWord(text: string): boolean {
    const token = this.tokens[this.position];
    return token?.kind === "word" && token.text === text;
  }

  private disjunction(): Predicate {
    const alternatives = [this.conjunction()];
    while (this.peekWord("OR")) {
      this.position += 1;
      alternatives.push(this.conjunction());
    }
    return alternatives.length === 1 ? alternatives[0]! : (order) => alternatives.some((p) => p(order));
  }

  private conjunction(): Predicate {
    const terms: Predicate[] = [];
    for (;;) {
      const token = this.tokens[this.position];
      if (!token || token.kind === "close" || this.peekWord("OR")) break;
      if (this.peekWord("AND")) {
        this.position += 1;
        continue;
      }
      const term = this.unary();
      if (term) terms.push(term);
    }
    return (order) => terms.every((p) => p(order));
  }

  /** A term, a group, or a negated one. Null for a term ignored with a warning. */
  private unary(): Predicate | null {
    const token = this.tokens[this.position];
    if (!token) throw searchError("a connective without a term after it");
    if (token.kind === "open") {
      this.position += 1;
      const inner = this.disjunction();
      if (this.tokens[this.position]?.kind !== "close") throw searchError("unbalanced parentheses");
      this.position += 1;
      return inner;
    }
    if (token.kind === "close") throw searchError("unbalanced parentheses");
    this.position += 1;
    if (token.text === "NOT") {
      const inner = this.unary();
      return inner ? (order) => !inner(order) : null;
    }
    const negate = token.text.startsWith("-") && token.text.length > 1;
    const term = negate ? token.text.slice(1) : token.text;
    const predicate = this.term(term);
    if (!predicate) return null;
    return negate ? (order) => !predicate(order) : predicate;
  }

  private term(term: string): Predicate | null {
    const colon = term.indexOf(":");
    if (colon <= 0 || term.startsWith('"') || term.startsWith("'")) return textPredicate(term);
    const field = term.slice(0, colon).toLowerCase();
    const value = unquote(term.slice(colon + 1));
    const result = fieldPredicate(this.shop, field, value, this.shop.info.ianaTimezone);
    if (typeof result === "function") return result;
    this.warnings.push(result);
    return null;
  }
}

function searchError(what: string) {
  return notEmulated(`Search query with ${what}`);
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
  const parser = new Parser(tokenize(query ?? ""), shop);
  const predicate = parser.parse();
  return { predicates: [predicate], warnings: parser.warnings };
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
    case "email":
      return (order) => fold(order.email ?? "") === fold(value) || fold(order.customer?.email ?? "") === fold(value);
    case "tag":
      return (order) => order.tags.some((tag) => fold(tag) === fold(value));
    case "tag_not":
      return (order) => !order.tags.some((tag) => fold(tag) === fold(value));
    case "test":
      if (lower !== "true" && lower !== "false") return { field, message: `Invalid value '${value}' for test`, code: "invalid_value" };
      return (order) => order.test === (lower === "true");
    case "default":
      return textPredicate(value);
    default:
      if (documentedOrderFields().has(field) || field.startsWith("metafields.")) throw notEmulated(`Order search field '${field}'`);
      return { field, message: `Invalid search field for this query.`, code: "invalid_field" };
  }
}
