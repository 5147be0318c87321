/** Which database a DATABASE_URL points at. Shared by prisma.config.ts and app/db.server.ts. */
export type DatabaseKind = "sqlite" | "postgresql";

export const DEFAULT_DATABASE_URL = "file:./prisma/dev.sqlite";

export function databaseKind(url: string): DatabaseKind {
  if (/^postgres(ql)?:\/\//i.test(url)) return "postgresql";
  if (url.startsWith("file:")) return "sqlite";
  throw new Error(
    `DATABASE_URL must start with "file:" (SQLite) or "postgresql://" (PostgreSQL); got "${url.split(":")[0]}:..."`,
  );
}

/** `file:./prisma/dev.sqlite` -> `./prisma/dev.sqlite` (relative to the working directory). */
export function sqliteFilePath(url: string): string {
  return url.replace(/^file:/, "");
}
