import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

export default defineConfig({
  plugins: [tsconfigPaths()],
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
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
