/**
 * GET /readyz: may this process take traffic? Three checks, each named in the answer (never shop data):
 *   database     `SELECT 1` answers
 *   migrations   every migration folder shipped with the app is recorded as applied (finished, not rolled back)
 *   jobs         this process's job queue has started and is not stopping
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { databaseKind } from "../db-url";
import type { PrismaLike } from "../jobs/sql.server";
import { sql } from "../jobs/sql.server";

export type CheckName = "database" | "migrations" | "jobs";
export type Check = { name: CheckName; ok: boolean; detail?: string };
export type Readiness = { ready: boolean; checks: Check[] };

export type JobsState = "starting" | "running" | "stopping" | "stopped" | "failed";

export type ReadinessDeps = {
  db: PrismaLike;
  /** Folder names of the migrations this build expects. */
  expectedMigrations: () => string[];
  jobsState: () => JobsState;
  /** A check that does not answer within this time fails (default 2 s). */
  timeoutMs?: number;
};

/** The migration folders for this DATABASE_URL, read from prisma/ under the working directory (where the app runs). */
export function migrationFolders(databaseUrl: string, root: string = process.cwd()): string[] {
  const dir = databaseKind(databaseUrl) === "postgresql" ? "prisma/postgresql/migrations" : "prisma/migrations";
  return readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function message(error: unknown): string {
  // The first line only: driver errors can carry the query; none carries shop data here (fixed statements).
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]?.slice(0, 200) ?? "";
}

export async function checkReadiness(deps: ReadinessDeps): Promise<Readiness> {
  const timeoutMs = deps.timeoutMs ?? 2000;
  const checks: Check[] = [];

  let databaseOk = false;
  try {
    await withTimeout(deps.db.$queryRaw(sql`SELECT 1`), timeoutMs);
    databaseOk = true;
    checks.push({ name: "database", ok: true });
  } catch (error) {
    checks.push({ name: "database", ok: false, detail: message(error) });
  }

  if (!databaseOk) {
    checks.push({ name: "migrations", ok: false, detail: "database unreachable" });
  } else {
    try {
      const rows = await withTimeout(
        deps.db.$queryRaw<{ migration_name: string }[]>(
          sql`SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
        ),
        timeoutMs,
      );
      const applied = new Set(rows.map((row) => row.migration_name));
      const missing = deps.expectedMigrations().filter((name) => !applied.has(name));
      checks.push(
        missing.length === 0
          ? { name: "migrations", ok: true }
          : { name: "migrations", ok: false, detail: `not applied: ${missing.join(", ")} (run npm run setup)` },
      );
    } catch (error) {
      checks.push({ name: "migrations", ok: false, detail: `${message(error)} (run npm run setup)` });
    }
  }

  const jobs = deps.jobsState();
  checks.push(jobs === "running" ? { name: "jobs", ok: true } : { name: "jobs", ok: false, detail: `job queue ${jobs}` });

  return { ready: checks.every((check) => check.ok), checks };
}
