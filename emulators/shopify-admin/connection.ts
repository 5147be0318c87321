/** Relay connections over in-memory lists, with Shopify-like opaque cursors ({last_id, last_value} in base64). */
import { GraphQLError } from "graphql";

export interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
  reverse?: boolean | null;
}

export const MAX_PAGE_SIZE = 250;

interface CursorKey {
  id: number;
  value: string | number;
}

export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify({ last_id: key.id, last_value: key.value })).toString("base64");
}

function decodeCursor(cursor: string, argument: string): CursorKey {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, "base64").toString("utf8")) as { last_id?: unknown; last_value?: unknown };
    if (typeof parsed.last_id === "number" && (typeof parsed.last_value === "string" || typeof parsed.last_value === "number")) {
      return { id: parsed.last_id, value: parsed.last_value };
    }
  } catch {
    // fall through
  }
  throw new GraphQLError(`Invalid cursor for current pagination sort. (argument: ${argument})`, {
    extensions: { code: "BAD_REQUEST" },
  });
}

function compareKeys(a: CursorKey, b: CursorKey): number {
  if (a.value < b.value) return -1;
  if (a.value > b.value) return 1;
  return a.id - b.id;
}

/**
 * Sorts `items` by (value, id), applies reverse, after/before, then first/last. Requires first or last, and
 * page sizes up to 250, like the Admin API.
 */
export function connection<T, V>(
  items: T[],
  args: ConnectionArgs,
  keyOf: (item: T) => CursorKey,
  view: (item: T) => V,
): { nodes: V[]; edges: { cursor: string; node: V }[]; pageInfo: Record<string, unknown> } {
  const { first, last, after, before } = args;
  if ((first === null || first === undefined) && (last === null || last === undefined)) {
    throw new GraphQLError("you must provide one of first or last", { extensions: { code: "BAD_REQUEST" } });
  }
  for (const [name, size] of [["first", first], ["last", last]] as const) {
    if (size !== null && size !== undefined && (size < 0 || size > MAX_PAGE_SIZE)) {
      throw new GraphQLError(`The '${name}' argument must be between 0 and ${MAX_PAGE_SIZE}.`, { extensions: { code: "BAD_REQUEST" } });
    }
  }
  const direction = args.reverse ? -1 : 1;
  const keyed = items.map((item) => ({ item, key: keyOf(item) }));
  keyed.sort((a, b) => direction * compareKeys(a.key, b.key));
  let start = 0;
  let end = keyed.length;
  if (after) {
    const cursor = decodeCursor(after, "after");
    const index = keyed.findIndex((entry) => direction * compareKeys(entry.key, cursor) > 0);
    start = index === -1 ? keyed.length : index;
  }
  if (before) {
    const cursor = decodeCursor(before, "before");
    const index = keyed.findIndex((entry) => direction * compareKeys(entry.key, cursor) >= 0);
    end = index === -1 ? keyed.length : index;
  }
  if (end < start) end = start;
  if (first !== null && first !== undefined) end = Math.min(end, start + first);
  if (last !== null && last !== undefined) start = Math.max(start, end - last);
  const page = keyed.slice(start, end);
  const edges = page.map((entry) => ({ cursor: encodeCursor(entry.key), node: view(entry.item) }));
  return {
    nodes: edges.map((edge) => edge.node),
    edges,
    pageInfo: {
      hasNextPage: end < keyed.length,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}
