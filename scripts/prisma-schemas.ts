/**
 * Writes prisma/postgresql/schema.prisma from prisma/schema.prisma: same models, PostgreSQL datasource.
 * `--check` exits 1 when the committed PostgreSQL schema is stale (used by tests and CI).
 */
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const sqlitePath = path.join(root, "prisma/schema.prisma");
const postgresPath = path.join(root, "prisma/postgresql/schema.prisma");

export function postgresSchemaFrom(sqliteSchema: string): string {
  const replaced = sqliteSchema
    .replace(/provider\s*=\s*"sqlite"/, 'provider = "postgresql"')
    .replace('output       = "../app/generated/prisma"', 'output       = "../../app/generated/prisma"');
  if (replaced === sqliteSchema || !replaced.includes('"postgresql"') || !replaced.includes("../../app/generated")) {
    throw new Error("prisma/schema.prisma no longer has the expected datasource/generator lines");
  }
  return `// GENERATED from prisma/schema.prisma by scripts/prisma-schemas.ts. Edit that file, then run\n// \`npx tsx scripts/prisma-schemas.ts\`.\n${replaced}`;
}

export function expectedPostgresSchema(): string {
  return postgresSchemaFrom(readFileSync(sqlitePath, "utf8"));
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const expected = expectedPostgresSchema();
  if (process.argv.includes("--check")) {
    let actual = "";
    try {
      actual = readFileSync(postgresPath, "utf8");
    } catch {
      // missing file: stale
    }
    if (actual !== expected) {
      console.error("prisma/postgresql/schema.prisma is stale: run `npx tsx scripts/prisma-schemas.ts`.");
      process.exit(1);
    }
  } else {
    mkdirSync(path.dirname(postgresPath), { recursive: true });
    writeFileSync(postgresPath, expected);
    console.log(`wrote ${path.relative(root, postgresPath)}`);
  }
}
