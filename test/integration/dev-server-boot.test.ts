/**
 * Issue 10 item 8: the background reconciler starts with the process, not with the first request. The app's own
 * Vite dev server (vite.config.ts, as `remix vite:dev` and `shopify app dev` run it) is started and, without a single
 * request, a purchase left unknown before the "restart" gets its lookup.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import type { ViteDevServer } from "vite";
import { createPrismaClient } from "../../app/db.server";
import { appTestEnv } from "../helpers/app-env";
import { createTestDatabaseUrl } from "../helpers/test-db";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const database = createTestDatabaseUrl();
const db = createPrismaClient(database.url);
let server: ViteDevServer | undefined;

afterAll(async () => {
  await globalThis.__etiquetteJobs?.stop(0);
  await server?.close();
  await db.$disconnect();
  database.cleanup();
});

it("the dev server starts the reconciler as soon as it listens, before any request", async () => {
  const attempt = await db.purchaseAttempt.create({
    data: {
      shop: "restarted.myshopify.com",
      orderId: "gid://shopify/Order/1",
      orderName: "#1",
      environment: "staging",
      customReference: "20261123-001",
      orderSlot: "restarted.myshopify.com|gid://shopify/Order/1|1",
      status: "UNKNOWN",
      nextReconcileAt: new Date(Date.now() - 1_000),
      requestJson: "{}",
    },
  });
  Object.assign(process.env, appTestEnv(database.url), { RECONCILE_INTERVAL_MS: "60000" });
  const { createServer } = await import("vite");
  server = await createServer({
    configFile: path.join(root, "vite.config.ts"),
    root,
    logLevel: "silent",
    server: { port: Number(process.env.TEST_VITE_PORT ?? 0), strictPort: false, hmr: false },
  });
  await server.listen();

  // No request is made: the shop has no label-service account, so the lookup fails and the attempt steps its backoff.
  await expect
    .poll(async () => (await db.purchaseAttempt.findUniqueOrThrow({ where: { id: attempt.id } })).reconcileCount, { timeout: 90_000, interval: 500 })
    .toBe(1);
  expect(globalThis.__etiquetteJobs?.reconcileIntervalMs).toBe(60_000);
}, 120_000);
