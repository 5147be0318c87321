/**
 * custom_reference allocation: `<YYYYMMDD>-<counter>` from a per-shop, per-day counter (the public example is
 * "20201218-013"). Each call returns a reference never returned before for that shop, also under concurrency.
 */
import type { PrismaClient } from "../generated/prisma/client";
import { formatReference, referenceDay } from "./references";

export { formatReference, referenceDay };

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: string }).code === "P2002";
}

export async function allocateCustomReference(db: PrismaClient, shop: string, now: Date = new Date()): Promise<string> {
  const day = referenceDay(now);
  for (let attempt = 0; ; attempt += 1) {
    try {
      const row = await db.referenceCounter.upsert({
        where: { shop_day: { shop, day } },
        create: { shop, day, value: 1 },
        update: { value: { increment: 1 } },
      });
      return formatReference(day, row.value);
    } catch (error) {
      // Two first-of-the-day allocations can race on the insert; the loser increments the winner's row.
      if (!isUniqueViolation(error) || attempt >= 2) throw error;
    }
  }
}
