/**
 * Driver adapters for Prisma's JS engine, shared by prisma.config.ts (migrations) and app/db.server.ts (queries).
 */
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import type { AdapterHandle } from "./db-direct.server";
import { createStatementCachingClient } from "./db-libsql-client";
import { databaseKind } from "./db-url";

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

/**
 * How long a SQLite statement waits for another connection's write lock before failing with SQLITE_BUSY.
 * better-sqlite3 (our driver until decision 0160) waited 5 s by default; libSQL waits 0 ms unless told, so we say it.
 */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * @prisma/adapter-libsql 6.19 bundles @libsql/client 0.8, which has no busy timeout and opens a new connection for
 * every transaction. We hand it the app's own @libsql/client (0.18: a small connection pool, each connection with
 * the busy timeout) instead; the adapter only calls execute, executeMultiple, transaction and close, which both
 * versions have with the same meaning. Its connections keep their prepared statements (decision 0194).
 */
class LibsqlAdapterFactory extends PrismaLibSQL {
  private journal: Promise<unknown> = Promise.resolve();

  constructor(
    config: ConstructorParameters<typeof PrismaLibSQL>[0],
    private readonly handle?: AdapterHandle,
  ) {
    super(config);
  }

  override createClient(config: Parameters<PrismaLibSQL["createClient"]>[0]): ReturnType<PrismaLibSQL["createClient"]> {
    const client = createStatementCachingClient({ url: config.url, timeout: SQLITE_BUSY_TIMEOUT_MS });
    // Write-ahead log (decision 0191): a commit appends to the log and syncs it once, instead of the rollback
    // journal's several syncs and file creations, and readers no longer wait for a writer. `synchronous` stays FULL
    // (SQLite's default), so a committed purchase attempt survives a power cut. The mode is stored in the file.
    if (!SQLITE_IN_MEMORY.test(config.url)) this.journal = client.execute("PRAGMA journal_mode = WAL");
    return client as unknown as ReturnType<PrismaLibSQL["createClient"]>;
  }

  override async connect(): ReturnType<PrismaLibSQL["connect"]> {
    const adapter = await super.connect();
    await this.journal;
    return this.handle ? this.handle.hold(adapter) : adapter;
  }
}

/** PrismaPg, telling the handle (if any) which adapter it connected (decision 0202). */
export class PgAdapterFactory extends PrismaPg {
  constructor(
    pool: pg.Pool,
    private readonly handle?: AdapterHandle,
  ) {
    super(pool);
  }

  override async connect(): ReturnType<PrismaPg["connect"]> {
    const adapter = await super.connect();
    return this.handle ? this.handle.hold(adapter) : adapter;
  }
}

const SQLITE_IN_MEMORY = /^(file:)?:memory:|mode=memory/;

/** The adapter factory for `url`; `handle`, when given, learns the adapter each connect() makes (db-direct.server.ts). */
export function createDriverAdapter(url: string, handle?: AdapterHandle): PrismaPg | PrismaLibSQL {
  if (databaseKind(url) === "postgresql") {
    const pool = new pg.Pool({ connectionString: url });
    pool.on("connect", (client) => patchClient(client as unknown as { query: AnyQuery }));
    return new PgAdapterFactory(pool, handle);
  }
  // libSQL (Node-API, runs on Node 20 to 24): see docs/decisions/0160-libsql-sqlite-driver.md.
  return new LibsqlAdapterFactory({ url }, handle);
}
