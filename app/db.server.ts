import { PrismaClient } from "./generated/prisma/client";
import { createDriverAdapter } from "./db-adapters";
import { DEFAULT_DATABASE_URL } from "./db-url";

declare global {
  // One client per process, also across Vite dev-server reloads.
  var __etiquettePrisma: PrismaClient | undefined;
}

export function createPrismaClient(url: string = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL): PrismaClient {
  return new PrismaClient({ adapter: createDriverAdapter(url) });
}

const prisma: PrismaClient = globalThis.__etiquettePrisma ?? createPrismaClient();
if (process.env.NODE_ENV !== "production") globalThis.__etiquettePrisma = prisma;

export default prisma;
