/**
 * Prisma 6 generates its client for one provider, and the checkout's app/generated is SQLite's. The PostgreSQL bulk
 * bench generates a PostgreSQL client under .tmp/ (ignored by git) and runs its processes with a resolve hook
 * (postgres-alias.mjs) that hands every import of app/generated/prisma/client that client instead.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const POSTGRES_CLIENT_DIR = path.join(root, ".tmp/bench-bulk/client");
export const POSTGRES_ALIAS_HOOK = path.join(root, "scripts/bench-bulk/postgres-alias.mjs");

export function generatePostgresClient(databaseUrl: string): void {
  const dir = path.dirname(POSTGRES_CLIENT_DIR);
  mkdirSync(dir, { recursive: true });
  const schema = readFileSync(path.join(root, "prisma/postgresql/schema.prisma"), "utf8").replace(/output\s*=\s*"[^"]*"/, `output = ${JSON.stringify(POSTGRES_CLIENT_DIR)}`);
  const schemaFile = path.join(dir, "schema.prisma");
  writeFileSync(schemaFile, schema);
  const result = spawnSync(path.join(root, "node_modules/.bin/prisma"), ["generate", "--schema", schemaFile], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`prisma generate (PostgreSQL) failed:\n${result.stdout}\n${result.stderr}`);
}
