/**
 * Staging or production, per shop. Staging is the default; production (charged labels) needs an explicit
 * confirmation that is recorded with who confirmed and when, and a configured production URL.
 * "Who" is the Shopify staff member: the user id of the session token's `sub` (see `staffUserIdOf`), never the
 * shop's offline session, which names no person.
 */
import { z } from "zod";
import type { PrismaClient } from "../generated/prisma/client";
import type { LabelEnvironment } from "../labels/accounts.server";

/** A Shopify staff member's user id (the session token's `sub`; numeric). */
const staffUserIdSchema = z.string().trim().regex(/^[1-9]\d{0,19}$/);

/**
 * The staff member behind an admin request: the session token's `sub`, or the online session's associated user.
 * Null when neither names a person (an offline session alone, the local demo).
 */
export function staffUserIdOf(context: {
  sessionToken?: { sub?: unknown } | null;
  session?: { onlineAccessInfo?: { associated_user?: { id?: unknown } } | null } | null;
}): string | null {
  for (const candidate of [context.sessionToken?.sub, context.session?.onlineAccessInfo?.associated_user?.id]) {
    const parsed = staffUserIdSchema.safeParse(typeof candidate === "number" ? String(candidate) : candidate);
    if (parsed.success) return parsed.data;
  }
  return null;
}

export interface EnvironmentState {
  environment: LabelEnvironment;
  productionConfirmedAt: Date | null;
  productionConfirmedBy: string | null;
}

export async function getEnvironment(db: PrismaClient, shop: string): Promise<EnvironmentState> {
  const row = await db.shopSettings.findUnique({ where: { shop } });
  return {
    environment: row?.environment === "production" ? "production" : "staging",
    productionConfirmedAt: row?.productionConfirmedAt ?? null,
    // Rows written before staff members were recorded hold the offline session id: no person, so unknown.
    productionConfirmedBy: staffUserIdSchema.safeParse(row?.productionConfirmedBy).success ? row!.productionConfirmedBy : null,
  };
}

export type EnvironmentChange =
  | { ok: true; state: EnvironmentState }
  | { ok: false; code: "confirmation_required" | "production_not_configured" | "account_missing" | "staff_unknown" };

export async function setEnvironment(
  db: PrismaClient,
  input: {
    shop: string;
    environment: LabelEnvironment;
    confirmedCharges: boolean;
    /** The staff member's user id (`staffUserIdOf`); production is refused without one. */
    confirmedBy: string | null;
    productionConfigured: boolean;
  },
): Promise<EnvironmentChange> {
  if (input.environment === "production") {
    if (!input.productionConfigured) return { ok: false, code: "production_not_configured" };
    if (!input.confirmedCharges) return { ok: false, code: "confirmation_required" };
    if (!staffUserIdSchema.safeParse(input.confirmedBy).success) return { ok: false, code: "staff_unknown" };
    const account = await db.labelServiceAccount.findUnique({
      where: { shop_environment: { shop: input.shop, environment: "production" } },
    });
    if (!account) return { ok: false, code: "account_missing" };
  }
  const data =
    input.environment === "production"
      ? { environment: "production", productionConfirmedAt: new Date(), productionConfirmedBy: input.confirmedBy }
      : { environment: "staging", productionConfirmedAt: null, productionConfirmedBy: null };
  await db.shopSettings.upsert({ where: { shop: input.shop }, create: { shop: input.shop, ...data }, update: data });
  return { ok: true, state: await getEnvironment(db, input.shop) };
}
