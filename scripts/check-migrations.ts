/**
 * Proves the committed migrations are complete and apply cleanly, for both databases:
 *   1. `prisma migrate deploy` on an empty database (SQLite file, and PostgreSQL when --postgres URL is given);
 *   2. the schema it produced equals the schema built straight from schema.prisma (`migrate diff --from-empty`).
 * A model change without its migration fails step 2. Also checks prisma/postgresql/schema.prisma is in sync.
 *
 *   npx tsx scripts/check-migrations.ts [--postgres postgresql://postgres@127.0.0.1:5432/test]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { expectedPostgresSchema } from "./prisma-schemas";
import { readFileSync } from "node:fs";

const root = path.resolve(import.meta.dirname, "..");

function prisma(args: string[], databaseUrl: string): string {
  return execFileSync(path.join(root, "node_modules/.bin/prisma"), args, {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

function fail(message: string): never {
  console.error(`✗ ${message}`);
  process.exit(1);
}

function sqliteShape(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db
      .prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE '_prisma_migrations%' AND name NOT LIKE 'sqlite_%' ORDER BY type, name")
      .all() as { type: string; name: string; sql: string | null }[];
    return rows.map((row) => `${row.type} ${row.name}: ${(row.sql ?? "").replace(/\s+/g, " ").replace(/ ?([,()]) ?/g, "$1").trim()}`);
  } finally {
    db.close();
  }
}

function checkSqlite(): void {
  const dir = mkdtempSync(path.join(tmpdir(), "etiquette-migrations-"));
  try {
    const deployed = path.join(dir, "deployed.sqlite");
    const direct = path.join(dir, "direct.sqlite");
    prisma(["migrate", "deploy"], `file:${deployed}`);
    const script = prisma(["migrate", "diff", "--from-empty", "--to-schema-datamodel", "prisma/schema.prisma", "--script"], `file:${direct}`);
    const db = new Database(direct);
    db.exec(script);
    db.close();
    const [a, b] = [sqliteShape(deployed), sqliteShape(direct)];
    if (JSON.stringify(a) !== JSON.stringify(b)) {
      fail(`SQLite migrations drift from prisma/schema.prisma.\n deployed: ${a.join("\n   ")}\n expected: ${b.join("\n   ")}`);
    }
    console.log(`✓ SQLite: migrations apply and match prisma/schema.prisma (${a.length} tables and indexes)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgresShape(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const columns = await client.query(
      `SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns
       WHERE table_schema = 'public' AND table_name <> '_prisma_migrations' ORDER BY table_name, column_name`,
    );
    const indexes = await client.query(
      `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename <> '_prisma_migrations' ORDER BY indexname`,
    );
    return [
      ...columns.rows.map((row) => Object.values(row).join(" | ")),
      ...indexes.rows.map((row) => `${row.indexname}: ${row.indexdef}`),
    ];
  } finally {
    await client.end();
  }
}

async function checkPostgres(adminUrl: string): Promise<void> {
  const suffix = `${process.pid}_${Date.now()}`;
  const names = [`etiquette_deployed_${suffix}`, `etiquette_direct_${suffix}`];
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const urlFor = (name: string) => {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return url.toString();
  };
  try {
    for (const name of names) await admin.query(`CREATE DATABASE ${name}`);
    const [deployedUrl, directUrl] = names.map(urlFor) as [string, string];
    prisma(["migrate", "deploy"], deployedUrl);
    const script = prisma(
      ["migrate", "diff", "--from-empty", "--to-schema-datamodel", "prisma/postgresql/schema.prisma", "--script"],
      directUrl,
    );
    const direct = new pg.Client({ connectionString: directUrl });
    await direct.connect();
    await direct.query(script);
    await direct.end();
    const [a, b] = [await postgresShape(deployedUrl), await postgresShape(directUrl)];
    if (JSON.stringify(a) !== JSON.stringify(b)) {
      fail(`PostgreSQL migrations drift from prisma/postgresql/schema.prisma.\n deployed:\n   ${a.join("\n   ")}\n expected:\n   ${b.join("\n   ")}`);
    }
    console.log(`✓ PostgreSQL: migrations apply and match prisma/postgresql/schema.prisma (${a.length} columns and indexes)`);
  } finally {
    for (const name of names) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

if (readFileSync(path.join(root, "prisma/postgresql/schema.prisma"), "utf8") !== expectedPostgresSchema()) {
  fail("prisma/postgresql/schema.prisma is stale: run `npm run prisma:schemas`");
}
console.log("✓ prisma/postgresql/schema.prisma is generated from prisma/schema.prisma");
checkSqlite();
const postgresIndex = process.argv.indexOf("--postgres");
if (postgresIndex > 0) {
  const url = process.argv[postgresIndex + 1];
  if (!url) fail("--postgres needs a URL");
  await checkPostgres(url);
}
