/**
 * Prisma 6.19 with the JavaScript schema engine (no binary download): the database kind follows DATABASE_URL.
 * - `file:...`                  -> SQLite (prisma/schema.prisma, prisma/migrations)
 * - `postgres://` / `postgresql://` -> PostgreSQL (prisma/postgresql/schema.prisma, prisma/postgresql/migrations)
 */
import path from "node:path";
import { defineConfig } from "prisma/config";
import { createDriverAdapter } from "./app/db-adapters";
import { databaseKind, DEFAULT_DATABASE_URL } from "./app/db-url";

try {
  process.loadEnvFile?.(".env");
} catch {
  // no .env file: the environment is used as it is
}
const url = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
process.env.DATABASE_URL = url;
const kind = databaseKind(url);
const root = kind === "postgresql" ? "prisma/postgresql" : "prisma";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join(root, "schema.prisma"),
  migrations: { path: path.join(root, "migrations") },
  adapter: async () => createDriverAdapter(url),
});
