/**
 * Staging or production, per shop. Staging is the default; production (charged labels) needs an explicit
 * confirmation that is recorded with who confirmed and when, and a configured production URL.
 */
import type { PrismaClient } from "../generated/prisma/client";
import type { LabelEnvironment } from "../labels/accounts.server";

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
    productionConfirmedBy: row?.productionConfirmedBy ?? null,
  };
}

export type EnvironmentChange =
  | { ok: true; state: EnvironmentState }
  | { ok: false; code: "confirmation_required" | "production_not_configured" | "account_missing" };

export async function setEnvironment(
  db: PrismaClient,
  input: {
    shop: string;
    environment: LabelEnvironment;
    confirmedCharges: boolean;
    confirmedBy: string;
    productionConfigured: boolean;
  },
): Promise<EnvironmentChange> {
  if (input.environment === "production") {
    if (!input.productionConfigured) return { ok: false, code: "production_not_configured" };
    if (!input.confirmedCharges) return { ok: false, code: "confirmation_required" };
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
