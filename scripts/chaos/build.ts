/**
 * Production builds for the campaign, one per database: Prisma 6's generated client is made for one provider, so
 * the PostgreSQL run uses a client generated under .tmp/ (the checkout's app/generated stays the SQLite one).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { PrismaClient } from "../../app/generated/prisma/client";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { root } from "./apps";
import { buildDirectory, POSTGRES_CLIENT_DIR } from "./vite.config";

function run(command: string, args: string[], env: Record<string, string> = {}): void {
  const result = spawnSync(command, args, { cwd: root, env: { ...process.env, ...env }, encoding: "utf8", timeout: 600_000 });
  if (result.status !== 0) throw new Error(`${path.basename(command)} ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
}

/** Generates the PostgreSQL Prisma client under .tmp/chaos (from prisma/postgresql/schema.prisma, output redirected). */
export function generatePostgresClient(databaseUrl: string): void {
  const dir = path.dirname(POSTGRES_CLIENT_DIR);
  mkdirSync(dir, { recursive: true });
  const schema = readFileSync(path.join(root, "prisma/postgresql/schema.prisma"), "utf8").replace(
    /output\s*=\s*"[^"]*"/,
    `output = ${JSON.stringify(POSTGRES_CLIENT_DIR)}`,
  );
  const schemaFile = path.join(dir, "schema.prisma");
  writeFileSync(schemaFile, schema);
  run(path.join(root, "node_modules/.bin/prisma"), ["generate", "--schema", schemaFile], { DATABASE_URL: databaseUrl });
}

/** `remix vite:build` into .tmp/chaos/build-<database>. Returns the time it took. */
export function buildFor(kind: "sqlite" | "postgresql", postgresUrl: string): number {
  const started = performance.now();
  if (kind === "postgresql") generatePostgresClient(postgresUrl);
  const cli = path.join(root, "node_modules/@remix-run/dev/dist/cli.js");
  run(process.execPath, [cli, "vite:build", "--config", "scripts/chaos/vite.config.ts"], { CHAOS_BUILD_DB: kind });
  return performance.now() - started;
}

/** The server bundle remix-serve runs for a database's campaign. */
export function serverBuildFor(kind: "sqlite" | "postgresql"): string {
  return path.join(buildDirectory(kind), "server/index.js");
}

/**
 * A Prisma client for the campaign's own reads and the demo shop's seeding, on either database, and how to close
 * it (for PostgreSQL its own pool, ended before the database is dropped).
 */
export async function campaignClient(kind: "sqlite" | "postgresql", databaseUrl: string): Promise<{ db: PrismaClient; close: () => Promise<void> }> {
  if (kind === "sqlite") {
    const db = (await import("../../app/db.server")).createPrismaClient(databaseUrl);
    return { db, close: () => db.$disconnect() };
  }
  // Same models, other provider: typed as the app's client (the generated API is identical).
  const module = (await import(path.join(POSTGRES_CLIENT_DIR, "client.ts"))) as { PrismaClient: new (options: unknown) => PrismaClient };
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  pool.on("error", () => undefined); // an idle connection closed by the server is not the campaign's failure
  const db = new module.PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    db,
    close: async () => {
      await db.$disconnect();
      await pool.end();
    },
  };
}
