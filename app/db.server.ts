import { PrismaClient } from "./generated/prisma/client";
import { createDriverAdapter } from "./db-adapters";
import { AdapterHandle, registerDirectStatements, UNDERLYING_CLIENT } from "./db-direct.server";
import { DEFAULT_DATABASE_URL } from "./db-url";

declare global {
  // One client per process, also across Vite dev-server reloads.
  var __etiquettePrisma: PrismaClient | undefined;
}

export function createPrismaClient(url: string = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL): PrismaClient {
  const handle = new AdapterHandle();
  const client = new PrismaClient({ adapter: createDriverAdapter(url, handle) });
  // The hot paths' raw statements go straight to this client's adapter (decision 0202).
  registerDirectStatements(client, handle);
  return client;
}

function defaultClient(): PrismaClient {
  globalThis.__etiquettePrisma ??= createPrismaClient();
  return globalThis.__etiquettePrisma;
}

/**
 * The app's client, created on first use (not at import), so DATABASE_URL is read once the environment is final.
 */
const prisma: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, property) {
    const client = defaultClient();
    if (property === UNDERLYING_CLIENT) return client;
    const value: unknown = Reflect.get(client, property, client);
    return typeof value === "function" ? value.bind(client) : value;
  },
});

export default prisma;
