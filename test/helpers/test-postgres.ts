/**
 * A fresh PostgreSQL database per test file, built from the committed PostgreSQL migrations, dropped at the end.
 * Uses TEST_POSTGRES_URL (default postgresql://postgres@127.0.0.1:5432/test) as the admin connection.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { PgAdapterFactory } from "../../app/db-adapters";
import { AdapterHandle, registerDirectStatements } from "../../app/db-direct.server";

const MIGRATIONS = fileURLToPath(new URL("../../prisma/postgresql/migrations", import.meta.url));
export const ADMIN_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

export async function createPostgresTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `etiquette_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: ADMIN_POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(ADMIN_POSTGRES_URL);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const folders = readdirSync(MIGRATIONS, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    for (const folder of folders) await client.query(readFileSync(path.join(MIGRATIONS, folder, "migration.sql"), "utf8"));
  } finally {
    await client.end();
  }
  return {
    url: url.toString(),
    async drop() {
      const again = new pg.Client({ connectionString: ADMIN_POSTGRES_URL });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await again.end();
    },
  };
}

/**
 * The app's Prisma client generated for PostgreSQL (the checkout's own is SQLite), into a scratch folder of the
 * checkout (.tmp/, ignored by git), connected to `url` through a `pg` pool. `close` disconnects and removes it.
 */
export async function createPostgresPrismaClient<Client>(url: string, options: { max?: number } = {}): Promise<{ prisma: Client; pool: pg.Pool; close: () => Promise<void> }> {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  mkdirSync(path.join(root, ".tmp"), { recursive: true });
  const scratch = mkdtempSync(path.join(root, ".tmp", "pg-client-"));
  const schema = readFileSync(path.join(root, "prisma/postgresql/schema.prisma"), "utf8").replace('output       = "../../app/generated/prisma"', 'output       = "./client"');
  writeFileSync(path.join(scratch, "schema.prisma"), schema);
  execFileSync(path.join(root, "node_modules/.bin/prisma"), ["generate", "--schema", path.join(scratch, "schema.prisma")], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/test" },
    stdio: "ignore",
  });
  const generated = (await import(/* @vite-ignore */ path.join(scratch, "client/client.ts"))) as { PrismaClient: new (options: { adapter: unknown }) => Client };
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 4 });
  pool.on("error", () => undefined);
  // Made as createPrismaClient makes the app's: the hot paths' raw statements go straight to its adapter (0202).
  const handle = new AdapterHandle();
  const prisma = new generated.PrismaClient({ adapter: new PgAdapterFactory(pool, handle) });
  registerDirectStatements(prisma as { $connect(): Promise<void> }, handle);
  return {
    prisma,
    pool,
    async close() {
      await (prisma as { $disconnect(): Promise<void> }).$disconnect();
      await pool.end();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
