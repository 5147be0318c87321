/** Unpacks the pinned Admin schema where @shopify/api-codegen-preset looks for it, so codegen never downloads one. */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { ADMIN_API_VERSION, ADMIN_SCHEMA_FILE } from "../shopify-schema/load";

const target = path.resolve(import.meta.dirname, `../app/types/admin-${ADMIN_API_VERSION}.schema.json`);
mkdirSync(path.dirname(target), { recursive: true });
const { data } = JSON.parse(gunzipSync(readFileSync(ADMIN_SCHEMA_FILE)).toString("utf8")) as { data: unknown };
writeFileSync(target, JSON.stringify(data));
console.log(`unpacked ${path.relative(process.cwd(), target)}`);
