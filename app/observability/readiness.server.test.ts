/**
 * /readyz over a real SQLite database (the committed migrations, recorded in _prisma_migrations as `prisma migrate
 * deploy` records them) and the route answers: 200 when all three checks pass, 503 naming the one that did not.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "../db.server";
import type { PrismaClient } from "../generated/prisma/client";
import { createTestDatabase } from "../../test/helpers/test-db";
import { healthResponse, readinessResponse } from "./endpoints.server";
import { checkReadiness, migrationFolders, type JobsState } from "./readiness.server";

const database = createTestDatabase();
const expected = migrationFolders("file:x");

beforeAll(async () => {
  await database.prisma.$executeRawUnsafe(`CREATE TABLE "_prisma_migrations" ("id" TEXT PRIMARY KEY NOT NULL, "checksum" TEXT NOT NULL,
    "finished_at" DATETIME, "migration_name" TEXT NOT NULL, "logs" TEXT, "rolled_back_at" DATETIME,
    "started_at" DATETIME NOT NULL DEFAULT current_timestamp, "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0)`);
  for (const [index, name] of expected.entries()) {
    await database.prisma.$executeRawUnsafe(
      `INSERT INTO "_prisma_migrations" ("id", "checksum", "finished_at", "migration_name", "applied_steps_count") VALUES (?, 'x', current_timestamp, ?, 1)`,
      `m${index}`,
      name,
    );
  }
});
afterAll(() => database.close());

const ready = (db: PrismaClient, jobs: JobsState = "running", migrations = () => expected) =>
  checkReadiness({ db, expectedMigrations: migrations, jobsState: () => jobs });

async function answer(db: PrismaClient, jobs?: JobsState, migrations?: () => string[]) {
  const response = readinessResponse(await ready(db, jobs, migrations));
  return { status: response.status, body: (await response.json()) as { status: string; checks: { name: string; ok: boolean; detail?: string }[] } };
}

describe("GET /healthz", () => {
  it("answers 200 without touching anything", async () => {
    const response = healthResponse();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
    expect(response.headers.get("cache-control")).toBe("no-store");
  });
});

describe("GET /readyz", () => {
  it("is 200 when the database answers, every migration is applied and the queue runs", async () => {
    expect(expected.length).toBeGreaterThan(0);
    const { status, body } = await answer(database.prisma);
    expect(status).toBe(200);
    expect(body).toEqual({
      status: "ready",
      checks: [
        { name: "database", ok: true },
        { name: "migrations", ok: true },
        { name: "jobs", ok: true },
      ],
    });
  });

  it("is 503 naming a migration that was not applied", async () => {
    const { status, body } = await answer(database.prisma, "running", () => [...expected, "29990101000000_not_yet"]);
    expect(status).toBe(503);
    expect(body.checks[1]).toEqual({ name: "migrations", ok: false, detail: "not applied: 29990101000000_not_yet (run npm run setup)" });
  });

  it("is 503 when the database was never migrated with prisma (no _prisma_migrations table)", async () => {
    const bare = createTestDatabase();
    try {
      const { status, body } = await answer(bare.prisma);
      expect(status).toBe(503);
      expect(body.checks.find((check) => check.name === "migrations")?.ok).toBe(false);
    } finally {
      await bare.close();
    }
  });

  it.each(["starting", "stopping", "stopped", "failed"] as const)("is 503 while the job queue is %s", async (jobs) => {
    const { status, body } = await answer(database.prisma, jobs);
    expect(status).toBe(503);
    expect(body.checks[2]).toEqual({ name: "jobs", ok: false, detail: `job queue ${jobs}` });
  });

  it("is 503 when the database cannot be reached", async () => {
    const unreachable = createPrismaClient("file:/nonexistent-etiquette-dir/none.sqlite");
    try {
      const { status, body } = await answer(unreachable);
      expect(status).toBe(503);
      expect(body.checks[0]).toMatchObject({ name: "database", ok: false });
      expect(body.checks[1]).toEqual({ name: "migrations", ok: false, detail: "database unreachable" });
    } finally {
      await unreachable.$disconnect().catch(() => undefined);
    }
  });
});
