/** Finds every `#graphql` document in the app's source, for validation against the pinned schema. */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export interface FoundDocument {
  file: string;
  line: number;
  source: string;
}

const SKIP_DIRS = new Set(["generated", "node_modules"]);

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) yield* sourceFiles(full);
    } else if (/\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
      yield full;
    }
  }
}

/** Template literals that start with `#graphql`. Interpolations are not allowed in them (they would hide the text). */
export function findDocuments(source: string, file: string): FoundDocument[] {
  const documents: FoundDocument[] = [];
  const pattern = /`\s*#graphql\b([^`]*)`/g;
  for (const match of source.matchAll(pattern)) {
    const body = match[1] ?? "";
    if (body.includes("${")) {
      throw new Error(`${file}: a #graphql document uses \${...} interpolation; pass variables instead`);
    }
    const line = source.slice(0, match.index).split("\n").length;
    documents.push({ file, line, source: body });
  }
  return documents;
}

export function findAppDocuments(appDir: string): FoundDocument[] {
  const found: FoundDocument[] = [];
  for (const file of sourceFiles(appDir)) {
    found.push(...findDocuments(readFileSync(file, "utf8"), path.relative(path.dirname(appDir), file)));
  }
  return found;
}
