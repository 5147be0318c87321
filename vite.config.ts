import { realpathSync } from "node:fs";
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig, type UserConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { REMIX_FUTURE } from "./app/remix-future";
import { startServerBuild } from "./dev/start-server-build";

// The Shopify CLI sets HOST; Vite's HMR must follow the tunnel URL in `shopify app dev`.
const host = new URL(process.env.SHOPIFY_APP_URL || "http://localhost").hostname;
const hmrConfig =
  host === "localhost"
    ? { protocol: "ws", host: "localhost", port: Number(process.env.HMR_PORT || 64999), clientPort: Number(process.env.HMR_PORT || 64999) }
    : { protocol: "wss", host, port: parseInt(process.env.FRONTEND_PORT ?? "8002", 10), clientPort: 443 };

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig({
  // Each checkout keeps its own optimised-dependency cache (two demos or worktrees never share one).
  cacheDir: ".cache/vite",
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
  optimizeDeps: { include: ["@shopify/app-bridge-react", "@shopify/polaris"] },
}) satisfies UserConfig;
