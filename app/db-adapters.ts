/**
 * Driver adapters for Prisma's JS engine, shared by prisma.config.ts (migrations) and app/db.server.ts (queries).
 */
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { databaseKind, sqliteFilePath } from "./db-url";

// PostgreSQL returns some catalogue values (current_schema(), pg_namespace.nspname, ...) with the `name` or
// `"char"` types. @prisma/adapter-pg 6.19 rejects those type ids, which breaks `migrate deploy` with
// "Column type 'name' could not be deserialized". Both are plain text on the wire, so we relabel them as text.
const TEXT_LIKE_OIDS = new Set([18 /* "char" */, 19 /* name */]);
const TEXT_OID = 25;

type Field = { dataTypeID: number };
type Result = { fields?: Field[] } | undefined;

function relabel<T extends Result>(result: T): T {
  for (const field of result?.fields ?? []) {
    if (TEXT_LIKE_OIDS.has(field.dataTypeID)) field.dataTypeID = TEXT_OID;
  }
  return result;
}

type AnyQuery = (...args: unknown[]) => unknown;

function patchClient(client: { query: AnyQuery }): void {
  const original = client.query.bind(client);
  client.query = (...args: unknown[]) => {
    const last = args.at(-1);
    if (typeof last === "function") {
      const callback = last as (error: unknown, result: Result) => void;
      args[args.length - 1] = (error: unknown, result: Result) => callback(error, relabel(result));
      return original(...args);
    }
    const returned = original(...args);
    if (returned && typeof (returned as Promise<Result>).then === "function") {
      return (returned as Promise<Result>).then(relabel);
    }
    return returned;
  };
}

export function createDriverAdapter(url: string): PrismaPg | PrismaBetterSQLite3 {
  if (databaseKind(url) === "postgresql") {
    const pool = new pg.Pool({ connectionString: url });
    pool.on("connect", (client) => patchClient(client as unknown as { query: AnyQuery }));
    return new PrismaPg(pool);
  }
  return new PrismaBetterSQLite3({ url: sqliteFilePath(url) });
}
