/**
 * app/shipping is the domain layer (no I/O): the purchase layer (app/labels) and everything above it build on it, never
 * the other way round. Every import of every shipping source file (tests aside) is read and checked against the
 * layers above.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SHIPPING = fileURLToPath(new URL(".", import.meta.url));
const APP = path.dirname(SHIPPING.replace(/\/$/, ""));
/** The layers built on shipping (app/<folder>). */
const ABOVE = ["labels", "bulk", "jobs", "routes", "print", "privacy", "settings", "webhooks", "extensions", "demo"];

function sources(): string[] {
  return readdirSync(SHIPPING, { recursive: true, encoding: "utf8" })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.endsWith(".d.ts"))
    .map((file) => path.join(SHIPPING, file));
}

/** The relative module specifiers a file imports or re-exports (static and dynamic). */
function specifiers(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found = [...text.matchAll(/(?:^|\s)(?:import|export)\s[^;]*?from\s+["']([^"']+)["']/gm), ...text.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)];
  return found.map((match) => match[1]!).filter((specifier) => specifier.startsWith("."));
}

describe("the shipping layer", () => {
  it("finds its files and their imports (the check below reads something)", () => {
    expect(sources().length).toBeGreaterThan(10);
    expect(specifiers(path.join(SHIPPING, "map.ts")).length).toBeGreaterThan(5);
  });

  it("imports nothing from the layers above it", () => {
    const upward = sources().flatMap((file) =>
      specifiers(file)
        .map((specifier) => path.relative(APP, path.resolve(path.dirname(file), specifier)))
        .filter((target) => ABOVE.includes(target.split(path.sep)[0]!))
        .map((target) => `app/${path.relative(APP, file)} -> app/${target}`),
    );
    expect(upward).toEqual([]);
  });
});
