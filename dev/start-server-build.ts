/**
 * Vite plugin (dev server only): loads the Remix server build as soon as the dev server listens, exactly as the first
 * request would. Its entry module starts the process-wide work (the background reconciler, entry.server.tsx), so a
 * purchase left unknown before a restart is checked at boot, not when someone next opens the app. In production
 * `remix-serve` imports the built server at start, which has the same effect.
 */
import type { Plugin, ViteDevServer } from "vite";

/** The id under which the Remix Vite plugin serves the server build (what its request handler loads). */
export const REMIX_SERVER_BUILD_ID = "virtual:remix/server-build";

export function loadServerBuildOnListen(server: Pick<ViteDevServer, "httpServer" | "ssrLoadModule" | "config">): void {
  const load = () => {
    server.ssrLoadModule(REMIX_SERVER_BUILD_ID).catch((error: unknown) => {
      server.config.logger.error(`[etiquette] could not load the server build at start: ${error instanceof Error ? error.message : String(error)}`);
    });
  };
  // Middleware mode has no server of its own: load right away.
  if (!server.httpServer) load();
  else server.httpServer.once("listening", load);
}

export function startServerBuild(): Plugin {
  return {
    name: "etiquette:start-server-build",
    apply: "serve",
    configureServer(server) {
      loadServerBuildOnListen(server);
    },
  };
}
