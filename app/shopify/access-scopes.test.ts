/** The access scopes the app asks for: one list in shopify.app.toml, each explained in the README, the demo alike. */
import { readFileSync } from "node:fs";
import toml from "toml";
import { describe, expect, it } from "vitest";
import { DEMO_SCOPES } from "../demo/seed-demo-shop.server";

const root = new URL("../../", import.meta.url);
const requested = (toml.parse(readFileSync(new URL("shopify.app.toml", root), "utf8")) as { access_scopes: { scopes: string } }).access_scopes.scopes
  .split(",")
  .map((scope) => scope.trim());

function readmeTable(): Map<string, string> {
  const readme = readFileSync(new URL("README.md", root), "utf8");
  const section = readme.slice(readme.indexOf("## Access scopes"), readme.indexOf("\n## ", readme.indexOf("## Access scopes") + 1));
  const rows = new Map<string, string>();
  for (const match of section.matchAll(/^\| `([a-z_]+)` \| (.*) \|$/gm)) rows.set(match[1]!, match[2]!.trim());
  return rows;
}

describe("access scopes", () => {
  it("the README explains every requested scope, and only those", () => {
    const table = readmeTable();
    expect([...table.keys()].sort()).toEqual([...requested].sort());
    for (const [scope, why] of table) expect(why.length, scope).toBeGreaterThan(20);
  });

  it("asks for no inventory scope: the inventory item fields read are covered by read_products", () => {
    expect(requested).toContain("read_products");
    expect(requested.filter((scope) => scope.includes("inventory"))).toEqual([]);
  });

  it("the demo session holds exactly the requested scopes", () => {
    expect(DEMO_SCOPES.split(",").sort()).toEqual([...requested].sort());
  });
});
