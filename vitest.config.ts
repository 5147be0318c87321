import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    environment: "node",
    include: [
      "app/**/*.test.{ts,tsx}",
      "emulators/**/*.test.ts",
      "scripts/**/*.test.ts",
      "test/**/*.test.ts",
    ],
    // The key that seals recipient data at rest in tests (decision 0172); never a real key. Tests that load the whole
    // configuration set their own environment (test/helpers/app-env.ts, same key).
    env: { ENCRYPTION_KEY: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
