/** The emulator's bucket settings from the environment, shared by `npm run emulator:shopify` and `npm run demo`. */
import { z } from "zod";
import { PLAN_NAMES, type BucketOptions, type PlanName } from "./cost";

const envSchema = z.object({
  /** The plan of every shop whose seed names none: standard (2,000/100), advanced (4,000/200), plus (20,000/1,000). */
  SHOPIFY_EMULATOR_PLAN: z.enum(PLAN_NAMES as [PlanName, ...PlanName[]]).optional(),
  /** An explicit bucket for every shop, whatever its plan (both default to the Standard plan's figures). */
  SHOPIFY_EMULATOR_BUCKET_SIZE: z.coerce.number().int().positive().optional(),
  SHOPIFY_EMULATOR_RESTORE_RATE: z.coerce.number().positive().optional(),
});

export class EmulatorEnvError extends Error {}

export function bucketSettingsFromEnv(env: Record<string, string | undefined>): { plan?: PlanName; bucket?: BucketOptions } {
  const blankless = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ""));
  const parsed = envSchema.safeParse(blankless);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
    throw new EmulatorEnvError(`Shopify emulator settings: ${problems} (plans: ${PLAN_NAMES.join(", ")})`);
  }
  const { SHOPIFY_EMULATOR_PLAN: plan, SHOPIFY_EMULATOR_BUCKET_SIZE: size, SHOPIFY_EMULATOR_RESTORE_RATE: rate } = parsed.data;
  return {
    plan,
    bucket: size !== undefined || rate !== undefined ? { size: size ?? 2000, restoreRate: rate ?? 100 } : undefined,
  };
}
