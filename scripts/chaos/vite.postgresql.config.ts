/**
 * The fault campaign's PostgreSQL build: the app's own Vite config, with the Prisma client generated for
 * PostgreSQL (scripts/chaos/build.ts writes it under .tmp/) in place of app/generated/prisma, so the checkout's
 * SQLite client is never touched.
 */
import path from "node:path";
import { mergeConfig } from "vite";
import base from "../../vite.config";

export const POSTGRES_CLIENT_DIR = path.resolve(import.meta.dirname, "../../.tmp/chaos/prisma-postgresql");

export default mergeConfig(base, {
  resolve: { alias: [{ find: /^(?:\.{1,2}\/)+generated\/prisma\/(.*)$/, replacement: `${POSTGRES_CLIENT_DIR}/$1` }] },
});
