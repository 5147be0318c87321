/**
 * A fresh SQLite database per test file, built by applying the committed migrations in order, so tests run
 * against exactly what `prisma migrate deploy` creates.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "libsql";
import { createPrismaClient } from "../../app/db.server";

const MIGRATIONS = fileURLToPath(new URL("../../prisma/migrations", import.meta.url));

export function migrateSqliteFile(file: string): void {
  const sqlite = new Database(file);
  try {
    const folders = readdirSync(MIGRATIONS, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    for (const folder of folders) sqlite.exec(readFileSync(path.join(MIGRATIONS, folder, "migration.sql"), "utf8"));
  } finally {
    sqlite.close();
  }
}

/** Creates a migrated database file and returns its URL (also usable as DATABASE_URL before importing the app). */
export function createTestDatabaseUrl(): { url: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), "etiquette-test-"));
  const file = path.join(dir, "test.sqlite");
  migrateSqliteFile(file);
  return { url: `file:${file}`, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function createTestDatabase() {
  const { url, cleanup } = createTestDatabaseUrl();
  const prisma = createPrismaClient(url);
  return {
    url,
    prisma,
    async close() {
      await prisma.$disconnect();
      cleanup();
    },
  };
}
