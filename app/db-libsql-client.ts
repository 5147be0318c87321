/**
 * The app's SQLite client: @libsql/client 0.18's own local client (its connection pool, transactions, result sets and
 * errors) whose connections keep their prepared statements. See docs/decisions/0194-sqlite-prepared-statement-cache.md.
 *
 * @libsql/client prepares every statement anew on each call (`executeStmt` calls `Database#prepare`), and Prisma sends
 * the same few dozen SQL texts over and over. The library takes no hook for this, but it exports its pool
 * (`ConnectionPool`) and client (`Sqlite3Client`), and the client only reaches a connection through the pool. So we
 * build the client the way `createClient` does, with a pool whose connections answer `prepare` from a per-connection
 * cache: everything else (how a statement is bound and run, the result's shape, BigInt handling, BEGIN/COMMIT,
 * SQLITE_BUSY, the rollback of a connection released mid-transaction) stays the library's own code.
 */
import { createClient, type Client, type Config } from "@libsql/client";
import { ConnectionPool, Sqlite3Client } from "@libsql/client/sqlite3";
import { expandConfig, isInMemoryConfig } from "@libsql/core/config";
import Database from "libsql";
import { UNSYNCED_WRITE } from "./db-sync";

/** Statements kept per connection. Prisma's SQL texts for this app number in the low hundreds at most. */
export const STATEMENT_CACHE_SIZE = 200;

type SyncLevel = "FULL" | "NORMAL";

/** The level a statement needs: none for a read, NORMAL for a marked write, FULL for any other write. */
function syncLevelFor(sql: string): SyncLevel | null {
  if (sql.startsWith(UNSYNCED_WRITE)) return "NORMAL";
  return /^\s*(SELECT|PRAGMA)\b/i.test(sql) ? null : "FULL";
}

type Connection = InstanceType<typeof Database>;
type Statement = ReturnType<Connection["prepare"]>;

/**
 * A least-recently-used map of SQL text to prepared statement, for one connection. Reusing a statement is safe
 * because libSQL resets it before every run and every query (`statementRun`, `statementRowsSync`), binds all the
 * arguments anew, and the client sets its raw and safe-integer modes on each call; the client never leaves a query
 * half-read (`all` reads to the end). Statements are used one at a time: a connection serves one call at a time
 * and every call is synchronous.
 */
class StatementCache {
  private readonly statements = new Map<string, Statement>();
  /** The connection's `synchronous` level as last set here (unknown until the first write), and its setters. */
  private level: SyncLevel | undefined;
  private setters: Partial<Record<SyncLevel, Statement>> = {};

  constructor(
    private readonly connection: Connection,
    private readonly limit: number,
  ) {}

  /**
   * Sets the connection's level for the next write, outside a transaction only (SQLite refuses to change it inside
   * one; the transaction's statements are committed at the level its BEGIN ran with).
   */
  syncFor(level: SyncLevel | null): void {
    if (level === null || level === this.level || this.connection.inTransaction) return;
    const setter = (this.setters[level] ??= Database.prototype.prepare.call(this.connection, `PRAGMA synchronous = ${level}`));
    setter.run([]);
    this.level = level;
  }

  prepare(sql: string): Statement {
    const cached = this.statements.get(sql);
    if (cached !== undefined) {
      // Most recently used last: a Map iterates in insertion order.
      this.statements.delete(sql);
      this.statements.set(sql, cached);
      return cached;
    }
    const statement = Database.prototype.prepare.call(this.connection, sql);
    rememberModes(statement);
    this.forgetOnError(sql, statement);
    this.statements.set(sql, statement);
    if (this.statements.size > this.limit) {
      const oldest = this.statements.keys().next().value as string;
      this.statements.delete(oldest);
    }
    return statement;
  }

  /**
   * A statement whose run fails leaves the cache. SQLite stops a statement that meets SQLITE_BUSY where it was, so it
   * can be retried, and until it is reset or finalized it counts as running: after a deferred transaction's
   * SQLITE_BUSY_SNAPSHOT and its rollback, the connection keeps its old read snapshot (reads see old data, writes
   * fail). libSQL offers no reset but the next run, so the library's way out is the garbage collector finalizing the
   * dropped statement; a cache holding it would keep the connection stuck until the same SQL ran again there. We do
   * better than waiting for the collector: the connection is marked, and the pool closes it when it comes back.
   */
  private forgetOnError(sql: string, statement: Statement): void {
    const level = syncLevelFor(sql);
    for (const method of ["run", "all", "get"] as const) {
      const original = statement[method] as (...args: unknown[]) => unknown;
      Object.defineProperty(statement, method, {
        value: (...args: unknown[]) => {
          // Outside the try: a setter that fails says nothing about this statement.
          this.syncFor(level);
          try {
            return original.apply(statement, args);
          } catch (error) {
            if (this.statements.get(sql) === statement) this.statements.delete(sql);
            if (isBusy(error)) stopped.add(this.connection);
            throw error;
          }
        },
      });
    }
  }

  /**
   * Forgets every statement. libSQL closes a connection only once its last statement is gone, so `close` must drop
   * them; `exec` runs scripts (migrations), which may change the schema a cached statement's column list was read from.
   */
  clear(): void {
    this.statements.clear();
    this.setters = {};
  }

  /** The SQL texts held, least recently used first. */
  texts(): string[] {
    return [...this.statements.keys()];
  }
}

/**
 * The library asks a statement the same three things on every call: `safeIntegers(true)`, `raw(true)` (which throws
 * for a statement that returns no rows: its way of telling a write from a query) and `columns()`, twice. Each is a
 * call into libSQL's native code, and for a write the thrown error is built anew each time; together they cost more
 * than the statement's own run. On a kept statement the answers do not change, so it gives them from memory:
 *  - a mode already set to the value asked is not set again (nothing else sets it: the statement is ours);
 *  - a `raw` call that threw throws the same error again for the same value;
 *  - the column list is read once, frozen (the library only reads it), and read again once a query returns rows of
 *    another width.
 * Why the last point: when another connection changes the schema, SQLite compiles a kept statement again as it runs
 * it, so a `SELECT *` can start returning more or fewer columns. The library reads the columns before it runs the
 * statement, so that one call names its values with the old list, as it did before this memory; the next call reads
 * the new list. What remains is decision 0194's limit: a change that keeps the width but reorders the columns would
 * keep the old names until the statement leaves the cache. The app runs no schema change while it is up; a migration
 * run by a new release beside an old process should be followed by that process's restart.
 */
function rememberModes(statement: Statement): void {
  const columns = statement.columns.bind(statement);
  const all = statement.all.bind(statement);
  let columnList: ReturnType<Statement["columns"]> | undefined;
  const readColumns = () => Object.freeze(columns().map((column) => Object.freeze({ ...column }))) as unknown as ReturnType<Statement["columns"]>;
  Object.defineProperties(statement, {
    raw: { value: rememberedToggle(statement, statement.raw.bind(statement)) },
    safeIntegers: { value: rememberedToggle(statement, statement.safeIntegers.bind(statement)) },
    columns: {
      value: () => (columnList ??= readColumns()),
    },
    // Configurable: `forgetOnError` wraps it in turn.
    all: {
      configurable: true,
      value: (...args: unknown[]) => {
        const rows = (all as (...a: unknown[]) => unknown[])(...args);
        const first = rows[0];
        if (columnList !== undefined && Array.isArray(first) && first.length !== columnList.length) columnList = undefined;
        return rows;
      },
    },
  });
}

/**
 * A statement's mode setter (`raw`, `safeIntegers`) that calls libSQL only when the value asked differs from the
 * last one set, and throws the same error again for a value it once refused.
 */
function rememberedToggle(statement: Statement, set: (toggle: boolean) => unknown): (toggle?: boolean) => Statement {
  const refused = new Map<boolean, unknown>();
  let current: boolean | undefined;
  return (toggle) => {
    const wanted = toggle ?? true;
    if (refused.has(wanted)) throw refused.get(wanted);
    if (current !== wanted) {
      try {
        set(wanted);
      } catch (error) {
        refused.set(wanted, error);
        throw error;
      }
      current = wanted;
    }
    return statement;
  };
}

const caches = new WeakMap<Connection, StatementCache>();
/** Connections one of whose statements met SQLITE_BUSY (see `forgetOnError`): closed when they return to the pool. */
const stopped = new WeakSet<Connection>();

function isBusy(error: unknown): boolean {
  const rawCode = (error as { rawCode?: unknown } | null)?.rawCode;
  return typeof rawCode === "number" && (rawCode & 0xff) === 5;
}

function keepStatements(connection: Connection, limit: number): void {
  if (caches.has(connection)) return;
  const cache = new StatementCache(connection, limit);
  caches.set(connection, cache);
  // Own properties shadow the prototype's methods for this connection only.
  connection.prepare = ((sql: string) => cache.prepare(sql)) as Connection["prepare"];
  connection.exec = ((sql: string) => {
    cache.clear();
    // Scripts (migrations, executeMultiple) commit durably like any unmarked write.
    cache.syncFor("FULL");
    return Database.prototype.exec.call(connection, sql);
  }) as Connection["exec"];
  connection.close = (() => {
    cache.clear();
    return Database.prototype.close.call(connection);
  }) as Connection["close"];
}

/** The SQL texts a connection holds prepared, least recently used first (tests). */
export function cachedStatements(connection: Connection): string[] {
  return caches.get(connection)?.texts() ?? [];
}

/** The library's pool; each connection it opens gets a statement cache before anyone uses it. */
class StatementCachingPool extends ConnectionPool {
  constructor(
    path: string,
    options: ConstructorParameters<typeof ConnectionPool>[1],
    maxConnections: number,
    private readonly cacheSize: number,
  ) {
    super(path, options, maxConnections);
  }

  override acquireSync(forTransaction?: boolean): Connection {
    const connection = super.acquireSync(forTransaction);
    keepStatements(connection, this.cacheSize);
    return connection;
  }

  /**
   * A connection stopped by SQLITE_BUSY is rolled back if it is still in a transaction (so it lets go of its locks
   * now), then closed; the library's `release` drops a closed connection. It would not hand a call waiting for a
   * connection anything in its place, so we open a fresh one and release that: it goes to the waiter, or stays idle.
   */
  override release(connection: Connection): void {
    if (!stopped.has(connection) || !connection.open) {
      super.release(connection);
      return;
    }
    try {
      if (connection.inTransaction) connection.exec("ROLLBACK");
    } catch {
      // closing it is all that is left to do
    }
    connection.close();
    super.release(connection);
    try {
      super.release(this.acquireSync());
    } catch {
      // the pool is closed, or the database cannot be opened: the next call will say so
    }
  }
}

/**
 * Same contract as `createClient(config)` from @libsql/client for a local file or in-memory database, with prepared
 * statements kept per connection. Anything else (a remote URL, an embedded replica, encryption, a malformed file URL)
 * goes to the library's `createClient` unchanged, which serves or rejects it as it always has.
 */
export function createStatementCachingClient(config: Config, cacheSize = STATEMENT_CACHE_SIZE): Client {
  const expanded = expandConfig(config, true);
  const host = expanded.authority?.host.toLowerCase();
  const plainFile =
    expanded.scheme === "file" &&
    (expanded.authority === undefined ||
      ((host === "" || host === "localhost") && expanded.authority.port === undefined && expanded.authority.userinfo === undefined)) &&
    expanded.syncUrl === undefined &&
    expanded.encryptionKey === undefined &&
    expanded.remoteEncryptionKey === undefined;
  if (!plainFile) return createClient(config);

  // As the library's `_createClient` does for a file URL: an in-memory database lives on the connection that opened
  // it, so it gets exactly one; a file gets up to `concurrency` (20 by default).
  const inMemory = isInMemoryConfig(expanded);
  const path = inMemory ? `file:${expanded.path}` : expanded.path;
  const pool = new StatementCachingPool(path, { timeout: expanded.timeout }, inMemory ? 1 : Math.max(1, expanded.concurrency), cacheSize);
  // The library checks that the database opens before it returns a client; so do we, and on failure let the library
  // open it again so the caller gets the library's own error.
  try {
    const probe = pool.acquireSync();
    probe.prepare("SELECT 1 AS checkThatTheDatabaseCanBeOpened").all();
    pool.release(probe);
  } catch {
    pool.close();
    return createClient(config);
  }
  return new Sqlite3Client(pool, expanded.intMode);
}
