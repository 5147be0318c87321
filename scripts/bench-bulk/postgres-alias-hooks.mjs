// Resolve hook: app/generated/prisma/client(.ts) -> the PostgreSQL client generated under .tmp/ (postgres-client.ts).
import { pathToFileURL } from "node:url";

let target;

export function initialize(data) {
  target = pathToFileURL(`${data.target}/client.ts`).href;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  return /\/app\/generated\/prisma\/client(\.ts)?$/.test(resolved.url) ? { ...resolved, url: target } : resolved;
}
