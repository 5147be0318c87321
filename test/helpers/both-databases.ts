/**
 * The app's client on each database it runs on, for tests that must hold on both: a migrated SQLite file, and a
 * PostgreSQL database of its own (created, and dropped on close). Each is made as the app makes its own.
 */
import { afterAll, beforeAll } from "vitest";
import type { PrismaClient } from "../../app/generated/prisma/client";
import { createTestDatabase } from "./test-db";
import { createPostgresPrismaClient, createPostgresTestDatabase } from "./test-postgres";

export type DatabaseSetup = { db: PrismaClient; close: () => Promise<void> };

export const BOTH_DATABASES: [string, () => Promise<DatabaseSetup>][] = [
  [
    "SQLite",
    async () => {
      const database = createTestDatabase();
      return { db: database.prisma, close: () => database.close() };
    },
  ],
  [
    "PostgreSQL",
    async () => {
      const database = await createPostgresTestDatabase();
      const client = await createPostgresPrismaClient<PrismaClient>(database.url);
      return {
        db: client.prisma,
        async close() {
          await client.close();
          await database.drop();
        },
      };
    },
  ],
];

/** Opens the database before the suite's tests (handing its client to `ready`) and closes it after them. */
export function useDatabase(open: () => Promise<DatabaseSetup>, ready: (db: PrismaClient) => void): void {
  let setup: DatabaseSetup | undefined;
  beforeAll(async () => {
    setup = await open();
    ready(setup.db);
  }, 120_000);
  afterAll(async () => setup?.close());
}
