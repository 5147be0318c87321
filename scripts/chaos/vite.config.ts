/**
 * The fault campaign's builds: the app's own Vite config, built into .tmp/chaos/build-<database> (so a campaign
 * never reads or clobbers build/, and the SQLite and PostgreSQL builds coexist), and for PostgreSQL with the Prisma
 * client generated for PostgreSQL (scripts/chaos/build.ts writes it under .tmp/) in place of app/generated/prisma,
 * so the checkout's SQLite client is never touched. CHAOS_BUILD_DB picks the database.
 */
import path from "node:path";
import { vitePlugin as remix } from "@remix-run/dev";
import { mergeConfig, type PluginOption, type UserConfig } from "vite";
import base from "../../vite.config";
import { REMIX_FUTURE } from "../../app/remix-future";

const root = path.resolve(import.meta.dirname, "../..");
export const POSTGRES_CLIENT_DIR = path.join(root, ".tmp/chaos/prisma-postgresql");
export const buildDirectory = (kind: "sqlite" | "postgresql") => path.join(root, `.tmp/chaos/build-${kind}`);

const kind = process.env.CHAOS_BUILD_DB === "postgresql" ? "postgresql" : "sqlite";
const flatten = (plugins: PluginOption[]): PluginOption[] => plugins.flatMap((plugin) => (Array.isArray(plugin) ? flatten(plugin) : [plugin]));
const others = flatten(base.plugins ?? []).filter((plugin) => !(plugin && "name" in plugin && plugin.name.startsWith("remix")));

export default mergeConfig(
  { ...base, plugins: [] } satisfies UserConfig,
  {
    plugins: [remix({ ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"], future: REMIX_FUTURE, buildDirectory: buildDirectory(kind) }), ...others],
    resolve:
      kind === "postgresql" ? { alias: [{ find: /^(?:\.{1,2}\/)+generated\/prisma\/(.*)$/, replacement: `${POSTGRES_CLIENT_DIR}/$1` }] } : {},
  },
);
