/**
 * Shopify refuses an admin extension whose built file is over 64 KB deflated (checked at deploy). Built here by the
 * Shopify CLI itself when a bundle is missing or older than its sources, then measured like the CLI measures.
 */
import { describe, expect, it } from "vitest";
import { EXTENSION_SIZE_LIMIT_BYTES, extensionSizes, listExtensions } from "./extension-sizes";

describe("admin extension bundles", () => {
  const sizes = extensionSizes({ build: "if-stale" });

  it("are built for every extension, with the order action's should-render", () => {
    const handles = listExtensions().map((extension) => extension.handle);
    expect(handles).toEqual(["order-label-action", "order-print", "orders-label-selection", "orders-print"]);
    for (const handle of handles) expect(sizes.some((size) => size.file.endsWith(`dist/${handle}.js`)), handle).toBe(true);
    expect(sizes.some((size) => size.file.endsWith("dist/order-label-action-conditions.js"))).toBe(true);
  });

  it("each stay under Shopify's 64 KB compressed limit", () => {
    for (const size of sizes) {
      expect(size.deflatedBytes, `${size.file} is ${size.deflatedBytes} bytes deflated`).toBeLessThanOrEqual(EXTENSION_SIZE_LIMIT_BYTES);
    }
  });

  it("bundle Preact, not React (the JSX runtime comes from extensions/tsconfig.json)", async () => {
    const { readFileSync } = await import("node:fs");
    for (const size of sizes.filter((entry) => !entry.file.includes("-conditions"))) {
      const metafile = JSON.parse(readFileSync(size.file.replace(/\.js$/, ".metafile.json"), "utf8")) as { inputs: Record<string, unknown> };
      const inputs = Object.keys(metafile.inputs);
      expect(inputs.some((input) => input.includes("node_modules/preact/"))).toBe(true);
      expect(inputs.filter((input) => input.includes("node_modules/react/"))).toEqual([]);
    }
  });
});
