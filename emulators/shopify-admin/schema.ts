/** The pinned Shopify Admin 2026-10 schema, built once from the committed introspection JSON. */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";
import { buildClientSchema, isEnumType, type GraphQLSchema, type IntrospectionQuery } from "graphql";

export const API_VERSION = "2026-10";

const here = path.dirname(fileURLToPath(import.meta.url));
export const SCHEMA_FILE = path.resolve(here, "../../shopify-schema/admin-2026-10.introspection.json.gz");

let cached: GraphQLSchema | undefined;

export function adminSchema(): GraphQLSchema {
  if (!cached) {
    const json = JSON.parse(zlib.gunzipSync(fs.readFileSync(SCHEMA_FILE)).toString()) as { data: IntrospectionQuery };
    cached = buildClientSchema(json.data);
  }
  return cached;
}

/** Values of an enum of the pinned schema (used to validate seeds against CountryCode, CurrencyCode...). */
export function enumValues(typeName: string): Set<string> {
  const type = adminSchema().getType(typeName);
  if (!type || !isEnumType(type)) throw new Error(`${typeName} is not an enum of the ${API_VERSION} schema`);
  return new Set(type.getValues().map((value) => value.name));
}
