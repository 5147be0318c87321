/**
 * The few SQL statements of the queue and the semaphore run through one small interface, so the same code works on
 * the app's Prisma client (SQLite, or PostgreSQL when the client was generated for it) and on a plain `pg` pool
 * or transaction client (PostgreSQL). Statements are written once with Prisma.sql (portable placeholders).
 */
import { statements } from "../db-direct.server";
import { Prisma } from "../generated/prisma/client";

export type Dialect = "sqlite" | "postgresql";

/** A Prisma client or interactive-transaction client (only the raw-query methods are used). */
export type PrismaLike = {
  $queryRaw<T = unknown>(query: Prisma.Sql): Prisma.PrismaPromise<T>;
  $executeRaw(query: Prisma.Sql): Prisma.PrismaPromise<number>;
};

/** A `pg` Pool, or a `pg` PoolClient inside BEGIN ... COMMIT. */
export type PgLike = {
  query(text: string, values: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
};

export type SqlTarget = PrismaLike | PgLike;

export interface SqlRunner {
  readonly dialect: Dialect;
  query<T>(statement: Prisma.Sql): Promise<T[]>;
  execute(statement: Prisma.Sql): Promise<number>;
}

function isPrisma(target: SqlTarget): target is PrismaLike {
  return typeof (target as PrismaLike).$queryRaw === "function";
}

export function sqlRunner(target: SqlTarget, dialect: Dialect): SqlRunner {
  if (isPrisma(target)) {
    // The app's client runs these straight on its driver adapter; a transaction's client runs them itself (0202).
    // Looked up at each call, so making a runner does not create the app's lazily made client.
    return {
      dialect,
      query: <T>(statement: Prisma.Sql) => statements(target).$queryRaw<T[]>(statement),
      execute: (statement) => statements(target).$executeRaw(statement),
    };
  }
  if (dialect !== "postgresql") throw new Error("A pg client only runs PostgreSQL");
  return {
    dialect,
    async query<T>(statement: Prisma.Sql) {
      return (await target.query(statement.text, statement.values)).rows as T[];
    },
    async execute(statement) {
      return (await target.query(statement.text, statement.values)).rowCount ?? 0;
    },
  };
}

export const sql = Prisma.sql;
export const rawSql = Prisma.raw;
export const joinSql = Prisma.join;
/** First in a bookkeeping write that may commit without waiting for the disk on SQLite (app/db-sync.ts). */
export { unsynced } from "../db-direct.server";
