/**
 * custom_reference allocation: `<YYYYMMDD>-<counter>` from a per-shop, per-day counter (the public example is
 * "20201218-013"). Each call returns a reference never returned before for that shop, also under concurrency.
 */
import type { PrismaClient } from "../generated/prisma/client";
import { formatReference, referenceDay } from "./references";
import { nextReferenceValue } from "./label-rows.server";

export { formatReference, referenceDay };

/** The shop's next reference of the day: one atomic upsert of its counter (first of the day: 1). */
export async function allocateCustomReference(db: PrismaClient, shop: string, now: Date = new Date()): Promise<string> {
  const day = referenceDay(now);
  return formatReference(day, await nextReferenceValue(db, shop, day));
}
