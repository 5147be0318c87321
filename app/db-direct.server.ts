/**
 * Raw statements straight to the Prisma client's driver adapter (decision 0202).
 *
 * The hot paths (a label's purchase, a bulk item, the queue, the semaphore, the Shopify budget) already run plain SQL
 * through `$queryRaw`/`$executeRaw` (decision 0199). Prisma 6.19 still sends each of those through its query compiler
 * (a JSON request, the WebAssembly compiler, a query plan, its interpreter): in a bulk job's CPU profile that was
 * about a third of the app's CPU. Here the same statement goes to the adapter the client itself uses, with the same
 * argument and result conversions the client applies to raw queries:
 * - the same adapter object, so on SQLite its lock still orders these statements with Prisma's own transactions;
 * - arguments as the client hands them over (a Date, a bigint, a boolean), which the adapter converts as it does for
 *   Prisma (an ISO date with "+00:00" on SQLite, a timestamp text on PostgreSQL);
 * - columns typed by the adapter's column types as the client types raw rows (DateTime as Date, Int64 as bigint,
 *   Boolean as boolean, Json parsed);
 * - a database error as the client reports a raw query's: PrismaClientKnownRequestError P2010 carrying the adapter's
 *   classification in `meta.driverAdapterError`.
 * On SQLite the adapter's `performIO` is called instead of its `queryRaw`/`executeRaw` (decision 0221).
 * `test/integration/direct-statements.test.ts` holds each of these against the client's own `$queryRaw` on SQLite and
 * PostgreSQL.
 *
 * Only a client made by `createPrismaClient` is served directly. Anything else (an interactive transaction's client,
 * a test double) keeps its own `$queryRaw`/`$executeRaw`: a transaction's statements must stay on its connection.
 */
import type { PrismaLibSQL } from "@prisma/adapter-libsql";
import { UNSYNCED_WRITE } from "./db-sync";
import { Prisma } from "./generated/prisma/client";

/** The mark of a write that may commit without waiting for the disk (db-sync.ts), first in a statement: Prisma.sql`${unsynced}UPDATE …`. */
export const unsynced = Prisma.raw(UNSYNCED_WRITE);

type Adapter = Awaited<ReturnType<PrismaLibSQL["connect"]>>;
type Transaction = Awaited<ReturnType<Adapter["startTransaction"]>>;
type Queryable = Pick<Adapter, "provider" | "queryRaw" | "executeRaw">;
type SqlResult = Awaited<ReturnType<Adapter["queryRaw"]>>;
type ArgType = { scalarType: string; arity: "scalar" | "list"; dbType?: string };

/** The raw methods the hot paths call, in the client's own shape (a tagged template or a Prisma.Sql). */
export type RawStatements = {
  $queryRaw<T = unknown>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<T>;
  $executeRaw(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<number>;
};

/** What a client made by createPrismaClient knows about its adapter: set when the client connects, cleared on dispose. */
export class AdapterHandle {
  adapter: Adapter | undefined;

  /** Wraps the adapter a factory's connect() returns, so a later dispose() forgets it. */
  hold<A extends { dispose(): Promise<void> }>(adapter: A): A {
    this.adapter = adapter as unknown as Adapter;
    const dispose = adapter.dispose.bind(adapter);
    adapter.dispose = async () => {
      if (this.adapter === (adapter as unknown as Adapter)) this.adapter = undefined;
      await dispose();
    };
    return adapter;
  }
}

/** A transaction over raw statements, in the client's own shape (`$transaction(async (tx) => …)`). */
export type RawTransactions = {
  $transaction<T>(work: (tx: RawStatements) => Promise<T>): Promise<T>;
};

type Registered = {
  client: { $connect(): Promise<void> };
  handle: AdapterHandle;
  statements: RawStatements;
  transactions: RawTransactions;
};

const registered = new WeakMap<object, Registered>();

/** A property the app's lazy client proxy (app/db.server.ts) answers with the client it stands for. */
export const UNDERLYING_CLIENT = Symbol.for("etiquette.underlyingPrismaClient");

/** Called by createPrismaClient for the client it made and the handle its adapter factory fills. */
export function registerDirectStatements(client: { $connect(): Promise<void> }, handle: AdapterHandle): void {
  const entry = { client, handle } as Registered;
  entry.statements = statementsOn(() => connected(entry));
  entry.transactions = { $transaction: (work) => inTransaction(entry, work) };
  registered.set(client, entry);
}

function statementsOn(queryable: () => Promise<Queryable>): RawStatements {
  return {
    $queryRaw: async <T>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) =>
      run(await queryable(), toSql(query, values), "query") as Promise<T>,
    $executeRaw: async (query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) =>
      run(await queryable(), toSql(query, values), "execute") as Promise<number>,
  };
}

/**
 * The raw methods to use on `db`: direct to the adapter for a client made by createPrismaClient (or the app's proxy
 * of one), else `db`'s own.
 */
export function statements(db: RawStatements): RawStatements {
  return registeredAs(db)?.statements ?? db;
}

/**
 * The registration of `db` or of the client the app's proxy stands for. Only an exact registered client: a
 * transaction client forwards unknown properties to its parent client, so it must not be recognised by anything it
 * would inherit.
 */
function registeredAs(db: object): Registered | undefined {
  return registered.get((db as { [UNDERLYING_CLIENT]?: object })[UNDERLYING_CLIENT] ?? db);
}

/**
 * Transactions on `db`: on the adapter for a client made by createPrismaClient (as `statements`), else `db`'s own
 * `$transaction`.
 */
export function transactions(db: RawTransactions): RawTransactions {
  return registeredAs(db)?.transactions ?? db;
}

/**
 * `work` in one transaction of the adapter, as the client runs an interactive one: the adapter opens it (on SQLite
 * `BEGIN DEFERRED` under its lock, held to the end; on PostgreSQL a pooled connection of its own and `BEGIN`); it is
 * committed when `work` resolves and rolled back when it throws. On PostgreSQL the client itself sends COMMIT or
 * ROLLBACK before the adapter hands the connection back (the adapter says so with `usePhantomQuery: false`).
 * `work` runs its statements on `tx` only: on SQLite a statement on the client itself would wait for the adapter's
 * lock, which this transaction holds until `work` ends (unlike the client's, this has no timeout to break that).
 */
async function inTransaction<T>(entry: Registered, work: (tx: RawStatements) => Promise<T>): Promise<T> {
  const adapter = await connected(entry);
  let transaction: Transaction;
  try {
    transaction = await adapter.startTransaction();
  } catch (error) {
    throw asRawQueryError(error);
  }
  let result: T;
  let open = true;
  try {
    result = await work(
      statementsOn(async () => {
        // Like the client's transaction client: nothing runs on it once it has ended (on PostgreSQL its connection
        // is back in the pool, maybe inside another caller's transaction).
        if (!open) throw new Error("This transaction has already ended; its statements can no longer run");
        return transaction;
      }),
    );
  } catch (error) {
    open = false;
    await close(transaction, "ROLLBACK").catch(() => undefined);
    throw error;
  }
  open = false;
  try {
    await close(transaction, "COMMIT");
  } catch (error) {
    throw asRawQueryError(error);
  }
  return result;
}

async function close(transaction: Transaction, verb: "COMMIT" | "ROLLBACK"): Promise<void> {
  try {
    if (!transaction.options.usePhantomQuery) await transaction.executeRaw({ sql: verb, args: [], argTypes: [] });
  } finally {
    if (verb === "COMMIT") await transaction.commit();
    else await transaction.rollback();
  }
}

function toSql(query: TemplateStringsArray | Prisma.Sql, values: unknown[]): Prisma.Sql {
  return query instanceof Prisma.Sql ? query : Prisma.sql(query, ...values);
}

async function connected(entry: Registered): Promise<Adapter> {
  if (!entry.handle.adapter) await entry.client.$connect();
  const adapter = entry.handle.adapter;
  if (!adapter) throw new Error("The database client did not connect its driver adapter");
  return adapter;
}

async function run(adapter: Queryable, statement: Prisma.Sql, kind: "query" | "execute"): Promise<unknown> {
  const values = statement.values;
  const query = {
    sql: adapter.provider === "postgres" ? statement.text : statement.sql,
    args: values.map(argument),
    argTypes: values.map(argType),
  } as Parameters<Adapter["queryRaw"]>[0];
  try {
    if (isLibsql(adapter)) {
      // What queryRaw/executeRaw do, without their debug line and the intermediate rows (decision 0221): the same
      // lock, argument mapping, call and error conversion.
      const result = await adapter.performIO(query);
      return kind === "execute" ? (result.rowsAffected ?? 0) : libsqlRowsOf(result);
    }
    if (kind === "execute") return await adapter.executeRaw(query);
    const result: SqlResult = await adapter.queryRaw(query);
    return rowsOf(result.columnNames, result.columnTypes as number[], result.rows, value);
  } catch (error) {
    throw asRawQueryError(error);
  }
}

/**
 * The client sends raw arguments as JSON, so undefined, NaN and an infinite number reach the database as NULL (a
 * driver would refuse some of them, or store NaN on PostgreSQL); an invalid date it refuses before sending.
 */
function argument(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === "number" && !Number.isFinite(value)) return null;
  if (value instanceof Date && Number.isNaN(value.getTime()))
    throw new Error("An invalid date cannot be sent to the database");
  if (Array.isArray(value)) return value.map(argument);
  return value;
}

/**
 * The adapters only look at an argument's type for values the client sends as text (a date, a bigint, bytes); the
 * values here are the caller's own, so the type only says whether it is a list.
 */
function argType(value: unknown): ArgType {
  return { scalarType: "unknown", arity: Array.isArray(value) ? "list" : "scalar" };
}

/** Column types of @prisma/driver-adapter-utils (ColumnTypeEnum) that the conversions below name. */
const COLUMN = {
  Int32: 0,
  Int64: 1,
  Float: 2,
  Double: 3,
  Numeric: 4,
  Boolean: 5,
  Text: 7,
  Date: 8,
  Time: 9,
  DateTime: 10,
  Json: 11,
  Bytes: 13,
  UnknownNumber: 128,
} as const;

/** Rows as the client gives a raw query's: one record per row, each column's value read by `read` from its type. */
function rowsOf(names: readonly string[], types: readonly number[], rows: readonly ArrayLike<unknown>[], read: (raw: unknown, type: number) => unknown): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = new Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    const record: Record<string, unknown> = {};
    for (let c = 0; c < names.length; c++) record[names[c]!] = read(row[c], types[c]!);
    out[r] = record;
  }
  return out;
}

/** One raw column value as the client gives it (serializeRawSql then deserializeRawResult in Prisma 6.19). */
function value(raw: unknown, type: number): unknown {
  if (raw === null || raw === undefined) return null;
  switch (type) {
    case COLUMN.Int32:
      return Math.trunc(Number(raw));
    case COLUMN.Int64:
      return typeof raw === "number" ? BigInt(Math.trunc(raw)) : BigInt(raw as string | bigint);
    case COLUMN.Boolean:
      return typeof raw === "boolean" ? raw : typeof raw === "number" ? raw === 1 : raw === "true" || raw === "1";
    case COLUMN.Date:
    case COLUMN.DateTime:
      return new Date(raw as string);
    case COLUMN.Time:
      return new Date(`1970-01-01T${raw as string}Z`);
    case COLUMN.Json:
      return typeof raw === "string" ? JSON.parse(raw) : raw;
    case COLUMN.Bytes:
      return Array.isArray(raw) ? new Uint8Array(raw as number[]) : raw;
    case COLUMN.Numeric:
      return new Prisma.Decimal(raw as string);
    default:
      if (type >= 64 && type < 128)
        throw new Error(`Array column types are not read by direct statements (type ${type})`);
      return raw;
  }
}

/** A @libsql/client result set, as the libSQL adapter's `performIO` returns it (rows are array-like). */
type LibsqlResultSet = { columns: string[]; columnTypes: string[]; rows: ArrayLike<unknown>[]; rowsAffected?: number };
type LibsqlQueryable = Queryable & { performIO(query: Parameters<Adapter["queryRaw"]>[0]): Promise<LibsqlResultSet> };

/**
 * The libSQL adapter and its transactions (@prisma/adapter-libsql 6.19): `queryRaw` and `executeRaw` are `performIO`
 * (the adapter's lock, its argument mapping, the client's call, its error conversion) plus a debug line, and for a
 * query the column types and row mapping that `libsqlRowsOf` does here. Any other adapter keeps its own methods.
 */
function isLibsql(adapter: Queryable): adapter is LibsqlQueryable {
  return adapter.provider === "sqlite" && (adapter as { adapterName?: string }).adapterName === "@prisma/adapter-libsql" && typeof (adapter as Partial<LibsqlQueryable>).performIO === "function";
}

/** SQLite declared column types as the libSQL adapter maps them (its `mapDeclType`); any other is inferred from the values. */
const DECLARED = new Map<string, number>([
  ["DECIMAL", COLUMN.Numeric],
  ["FLOAT", COLUMN.Float],
  ...["DOUBLE", "DOUBLE PRECISION", "NUMERIC", "REAL"].map((name) => [name, COLUMN.Double] as const),
  ...["TINYINT", "SMALLINT", "MEDIUMINT", "INT", "INTEGER", "SERIAL", "INT2"].map((name) => [name, COLUMN.Int32] as const),
  ...["BIGINT", "UNSIGNED BIG INT", "INT8"].map((name) => [name, COLUMN.Int64] as const),
  ["DATETIME", COLUMN.DateTime],
  ["TIMESTAMP", COLUMN.DateTime],
  ["TIME", COLUMN.Time],
  ["DATE", COLUMN.Date],
  ...["TEXT", "CLOB", "CHARACTER", "VARCHAR", "VARYING CHARACTER", "NCHAR", "NATIVE CHARACTER", "NVARCHAR"].map((name) => [name, COLUMN.Text] as const),
  ["BLOB", COLUMN.Bytes],
  ["BOOLEAN", COLUMN.Boolean],
  ["JSONB", COLUMN.Json],
]);

/** The adapter's type for a column declared with none it knows: from its first non-null value (its `inferColumnType`). */
function inferredType(rows: ArrayLike<unknown>[], column: number): number {
  for (const row of rows) {
    const raw = row[column];
    if (raw === null || raw === undefined) continue;
    switch (typeof raw) {
      case "string":
        return COLUMN.Text;
      case "bigint":
        return COLUMN.Int64;
      case "boolean":
        return COLUMN.Boolean;
      case "number":
        return COLUMN.UnknownNumber;
      default:
        if (raw instanceof ArrayBuffer) return COLUMN.Bytes;
        throw new Error(`unexpected value of type ${typeof raw}: ${JSON.stringify(raw)}`);
    }
  }
  return COLUMN.Int32;
}

/** A libSQL result set's rows as the client gives a raw query's: the adapter's column types and row mapping, then `value`. */
function libsqlRowsOf(result: LibsqlResultSet): Record<string, unknown>[] {
  const { columns, columnTypes: declared, rows } = result;
  const types = columns.map((_, c) => DECLARED.get((declared[c] ?? "").toUpperCase()) ?? inferredType(rows, c));
  return rowsOf(columns, types, rows, (raw, type) => value(libsqlMapped(raw, type), type));
}

/** One value as the libSQL adapter maps it (its `mapRow`) before the client reads it. */
function libsqlMapped(raw: unknown, type: number): unknown {
  if (raw instanceof ArrayBuffer) return Array.from(new Uint8Array(raw));
  if (typeof raw === "number" && (type === COLUMN.Int32 || type === COLUMN.Int64) && !Number.isInteger(raw)) return Math.trunc(raw);
  if ((typeof raw === "number" || typeof raw === "bigint") && type === COLUMN.DateTime) return new Date(Number(raw)).toISOString();
  if (typeof raw === "bigint") return raw.toString();
  return raw;
}

type AdapterError = Error & { cause: { kind: string; originalCode?: string; originalMessage?: string } };

function isAdapterError(error: unknown): error is AdapterError {
  return (
    error instanceof Error &&
    error.name === "DriverAdapterError" &&
    typeof (error as { cause?: unknown }).cause === "object"
  );
}

/** A database error as the client reports one from a raw query (P2010, the adapter's error in meta). */
function asRawQueryError(error: unknown): unknown {
  if (!isAdapterError(error)) return error;
  const message = `Raw query failed. Code: \`${error.cause.originalCode ?? "N/A"}\`. Message: \`${error.cause.originalMessage ?? error.cause.kind}\``;
  return new Prisma.PrismaClientKnownRequestError(message, {
    code: "P2010",
    clientVersion: Prisma.prismaVersion.client,
    meta: { driverAdapterError: error },
  });
}
