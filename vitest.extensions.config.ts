/**
 * The admin extensions' unit tests (extensions/<name>/tests): Preact JSX, happy-dom, and Shopify's extension tester
 * (its mock `shopify` global and `fetch`). A project of `npm test` (vitest.config.ts); alone:
 * `npx vitest run --config vitest.extensions.config.ts`.
 */
import { defineConfig } from "vitest/config";

export default defineConfig({
  // Vite 6 transforms with esbuild: Preact JSX (extensions/tsconfig.json says the same for the CLI build).
  esbuild: { jsx: "automatic", jsxImportSource: "preact" },
  test: {
    name: "extensions",
    environment: "happy-dom",
    include: ["extensions/*/tests/**/*.test.{ts,tsx}"],
    // The tester imports each extension's module itself; inlined so that import goes through Vite's transform.
    server: { deps: { inline: ["@shopify/ui-extensions-tester"] } },
    testTimeout: 30_000,
  },
});
