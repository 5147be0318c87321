/**
 * Layouts that hold in the mobile admin (issue 16 item 12): no fixed multi-column grid. A Polaris InlineGrid with more
 * than one column must say how many per breakpoint (one column on phones), e.g. `columns={{ xs: 1, sm: 2, md: 5 }}`.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const appDir = path.join(path.dirname(new URL(import.meta.url).pathname), "..", "app");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sources(full);
    return entry.name.endsWith(".tsx") && !entry.name.endsWith(".test.tsx") ? [full] : [];
  });
}

describe("grids in the app's pages", () => {
  it("have one column on phones: no fixed columns={N>1}, and a responsive one starts with xs: 1", () => {
    const offenders: string[] = [];
    for (const file of sources(appDir)) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(/columns=\{\s*(\d+)\s*\}/g)) if (Number(match[1]) > 1) offenders.push(`${path.relative(appDir, file)}: ${match[0]}`);
      for (const match of text.matchAll(/columns=\{\{([^}]*)\}\}/g)) if (!/\bxs:\s*1\b/.test(match[1]!)) offenders.push(`${path.relative(appDir, file)}: ${match[0]}`);
      for (const match of text.matchAll(/gridTemplateColumns:\s*["'`]repeat\(\s*[2-9]/g)) offenders.push(`${path.relative(appDir, file)}: ${match[0]}`);
    }
    expect(offenders).toEqual([]);
  });
});
