/**
 * A fresh PostgreSQL database per test file, built from the committed PostgreSQL migrations, dropped at the end.
 * Uses TEST_POSTGRES_URL (default postgresql://postgres@127.0.0.1:5432/test) as the admin connection.
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

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
