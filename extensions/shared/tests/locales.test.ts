/**
 * Every extension speaks English and French: both locale files have the same keys, name their own language under
 * "locale" (how the extensions tell the backend the admin's language), and hold every key their source translates.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const extensions = readdirSync(root).filter((name) => existsSync(path.join(root, name, "shopify.extension.toml")));

function flatten(value: unknown, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (inner && typeof inner === "object") Object.assign(out, flatten(inner, name));
    else out[name] = String(inner);
  }
  return out;
}

/** A plural entry ({one, other}) is translated by its key without the suffix. */
const usable = (keys: string[]) => new Set(keys.flatMap((key) => [key, key.replace(/\.(one|other)$/, "")]));

/** The literal keys a source translates: t("a.b"), and both sides of t(x ? "a" : "b"). */
function sourceKeys(directories: string[]): string[] {
  const keys = new Set<string>();
  for (const directory of directories) {
    for (const file of readdirSync(directory).filter((entry) => /\.tsx?$/.test(entry))) {
      const source = readFileSync(path.join(directory, file), "utf8");
      for (const match of source.matchAll(/\bt\(\s*"([\w.]+)"/g)) keys.add(match[1]!);
      for (const match of source.matchAll(/\bt\(\s*[^"()]+\?\s*"([\w.]+)"\s*:\s*"([\w.]+)"/g)) keys.add(match[1]!).add(match[2]!);
    }
  }
  return [...keys];
}

describe("extension locales", () => {
  it("finds the four extensions", () => {
    expect(extensions.sort()).toEqual(["order-label-action", "order-print", "orders-label-selection", "orders-print"]);
  });

  for (const name of extensions) {
    it(`${name}: en and fr have the same keys, name their language and cover the source`, () => {
      const en = flatten(JSON.parse(readFileSync(path.join(root, name, "locales/en.default.json"), "utf8")));
      const fr = flatten(JSON.parse(readFileSync(path.join(root, name, "locales/fr.json"), "utf8")));
      expect(Object.keys(fr).sort()).toEqual(Object.keys(en).sort());
      expect([en.locale, fr.locale]).toEqual(["en", "fr"]);
      for (const key of Object.keys(en)) expect(fr[key], key).not.toBe("");
      const directories = [path.join(root, name, "src"), ...(name.endsWith("print") ? [path.join(root, "shared")] : [])];
      const used = sourceKeys(directories);
      expect(used.length).toBeGreaterThan(3);
      const available = usable(Object.keys(en));
      expect(used.filter((key) => !available.has(key))).toEqual([]);
    });
  }
});
