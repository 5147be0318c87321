import { realpathSync } from "node:fs";
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig, type UserConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { REMIX_FUTURE } from "./app/remix-future";
import { applyShopifyCliEnv } from "./dev/cli-env";
import { startServerBuild } from "./dev/start-server-build";

// `shopify app dev` passes the tunnel URL as HOST and no .env: make them the app's SHOPIFY_APP_URL and environment.
applyShopifyCliEnv(process.env);
// Vite's HMR must follow the tunnel URL in `shopify app dev`.
const host = new URL(process.env.SHOPIFY_APP_URL || "http://localhost").hostname;
const hmrPort = process.env.HMR_PORT ? Number(process.env.HMR_PORT) : undefined;
// Live reload: through the tunnel in `shopify app dev`; on localhost, its own port when HMR_PORT is set (64999 for
// the CLI's localhost mode), else the app's own port in the demo, so two demos never clash on a fixed fourth port.
const hmrConfig =
  host !== "localhost"
    ? { protocol: "wss", host, port: parseInt(process.env.FRONTEND_PORT ?? "8002", 10), clientPort: 443 }
    : hmrPort !== undefined || !process.env.ETIQUETTE_DEMO
      ? { protocol: "ws", host: "localhost", port: hmrPort ?? 64999, clientPort: hmrPort ?? 64999 }
      : { protocol: "ws", host: "localhost" };

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig({
  // Each checkout keeps its own optimised-dependency cache (two demos or worktrees never share one); the browser
  // journeys point it at their temporary folder, so they start cold like a fresh clone.
  cacheDir: process.env.ETIQUETTE_VITE_CACHE_DIR || ".cache/vite",
  server: {
    allowedHosts: [host],
    cors: { preflightContinue: true },
    port: Number(process.env.PORT || 3000),
    hmr: hmrConfig,
    // realpath: node_modules may be a link to a shared install (git worktrees).
    fs: { allow: ["app", "node_modules", realpathSync("node_modules")] },
  },
  plugins: [
    remix({
      ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
      future: REMIX_FUTURE,
    }),
    tsconfigPaths(),
    // The reconciler starts with the dev server, not with the first request.
    startServerBuild(),
  ],
  build: { assetsInlineLimit: 0 },
  optimizeDeps: {
    // Scan every route at start-up, so all the browser's dependencies are pre-bundled before the first page load
    // (otherwise Vite finds them on that load, optimises again and reloads the page, twice on a fresh clone).
    entries: ["app/root.tsx", "app/routes/**/*.tsx", "!app/routes/**/*.test.tsx"],
    include: ["@shopify/app-bridge-react", "@shopify/polaris"],
  },
}) satisfies UserConfig;
