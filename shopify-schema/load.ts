/** Loads the pinned Admin API 2026-10 schema (introspection JSON, gzipped) with graphql 16. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from "graphql";

export const ADMIN_API_VERSION = "2026-10";
export const ADMIN_SCHEMA_FILE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  `admin-${ADMIN_API_VERSION}.introspection.json.gz`,
);

let cached: GraphQLSchema | undefined;

export function loadAdminSchema(): GraphQLSchema {
  if (!cached) {
    const json = JSON.parse(gunzipSync(readFileSync(ADMIN_SCHEMA_FILE)).toString("utf8")) as {
      data: IntrospectionQuery;
    };
    cached = buildClientSchema(json.data);
  }
  return cached;
}
