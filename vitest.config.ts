import { realpathSync } from "node:fs";
import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

export default defineConfig({
  plugins: [tsconfigPaths()],
  // Browser-environment tests may import files of packages by URL (`?url`, app/i18n/polaris.ts); node_modules may be
  // a link to a shared install (git worktrees), as in vite.config.ts.
  server: { fs: { allow: [".", realpathSync("node_modules")] } },
  test: {
    // The app's tests (this block) and the admin extensions' (their own JSX runtime and DOM: vitest.extensions.config.ts).
    projects: [
      {
        extends: true,
        test: {
          name: "app",
          environment: "node",
          include: [
            "app/**/*.test.{ts,tsx}",
            "emulators/**/*.test.ts",
            "scripts/**/*.test.ts",
            "test/**/*.test.ts",
          ],
        },
      },
      "./vitest.extensions.config.ts",
    ],
    // The key that seals recipient data at rest in tests (decision 0172); never a real key. Tests that load the whole
    // configuration set their own environment (test/helpers/app-env.ts, same key).
    env: { ENCRYPTION_KEY: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
