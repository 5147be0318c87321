/**
 * Configuration of the label-service client: one account per environment (staging, production) and the client's
 * tunables (timeouts, pacing, caches). Staging is the default environment: production labels are charged.
 */
import { z } from "zod";

export const LABEL_SERVICE_ENVIRONMENTS = ["staging", "production"] as const;
export const labelServiceEnvironmentSchema = z.enum(LABEL_SERVICE_ENVIRONMENTS);
export type LabelServiceEnvironment = z.infer<typeof labelServiceEnvironmentSchema>;

/** One environment's account: where the service lives and who we are there. */
export const labelServiceAccountSchema = z.object({
  baseUrl: z.url({ protocol: /^https?$/ }).transform((url) => url.replace(/\/+$/, "")),
  email: z.email(),
  password: z.string().min(1),
});
export type LabelServiceAccount = z.input<typeof labelServiceAccountSchema>;

/** Both environments; production is optional (a shop may only ever use staging). */
export const labelServiceConfigSchema = z.object({
  defaultEnvironment: labelServiceEnvironmentSchema.default("staging"),
  environments: z.object({
    staging: labelServiceAccountSchema,
    production: labelServiceAccountSchema.optional(),
  }),
});
export type LabelServiceConfig = z.output<typeof labelServiceConfigSchema>;

/** Tunables. Every field has a default; see docs/readme/label-client.md. */
export const labelServiceOptionsSchema = z.object({
  /** generate_label may take long on the carrier's side; 60 s by default. */
  generateTimeoutMs: z.number().int().positive().default(60_000),
  /** authenticate, list, carrier services: 15 s by default. */
  defaultTimeoutMs: z.number().int().positive().default(15_000),
  /** Token lifetime used when the token carries no readable JWT `exp`. */
  tokenLifetimeSeconds: z.number().positive().default(3_600),
  /** Renew this long before expiry (capped at a tenth of the remaining lifetime for very short tokens). */
  tokenRefreshMarginSeconds: z.number().nonnegative().default(60),
  /** Maximum calls in flight per account (shared by every client of the same account in this process). */
  maxConcurrency: z.number().int().positive().default(4),
  /** 429 on a call that is safe to repeat (authenticate, list, carrier services): retries after Retry-After. */
  maxRateLimitRetries: z.number().int().nonnegative().default(2),
  /** Wait used when a 429 has no usable Retry-After. */
  defaultRetryAfterMs: z.number().int().nonnegative().default(1_000),
  /** A Retry-After longer than this is not waited for: the call fails as rate_limited. */
  maxRetryAfterMs: z.number().int().nonnegative().default(30_000),
  /** Path of the carrier-service lookup (documented as GET /carrier_services/services?country=XX). */
  carrierServicesPath: z.string().startsWith("/").default("/carrier_services/services"),
  /** How long a carrier-service list is reused per (environment, country). */
  carrierServicesTtlMs: z.number().int().nonnegative().default(60 * 60_000),
  /** findLabelByReference / findLabelById read at most this many pages. */
  findMaxPages: z.number().int().positive().default(20),
  /**
   * Safety cap of lookUpLabelByReference / lookUpLabelById, which read back to a given time (LABEL_LOOKUP_MAX_PAGES in
   * the app). Reaching it leaves the lookup incomplete, never "absent".
   */
  lookupMaxPages: z.number().int().positive().default(500),
  /** listing stops after this many pages even without an empty page (protection against a broken server). */
  iterateMaxPages: z.number().int().positive().default(1_000),
});
export type LabelServiceOptionsInput = z.input<typeof labelServiceOptionsSchema>;
export type LabelServiceOptions = z.output<typeof labelServiceOptionsSchema>;

/**
 * Reads the configuration from environment variables:
 * LABEL_SERVICE_STAGING_URL / _EMAIL / _PASSWORD, LABEL_SERVICE_PRODUCTION_URL / _EMAIL / _PASSWORD,
 * LABEL_SERVICE_DEFAULT_ENVIRONMENT (staging when absent). Production is configured only when its URL is set.
 */
export function labelServiceConfigFromEnv(env: Record<string, string | undefined>): LabelServiceConfig {
  const account = (prefix: string) => ({
    baseUrl: env[`${prefix}_URL`],
    email: env[`${prefix}_EMAIL`],
    password: env[`${prefix}_PASSWORD`],
  });
  return labelServiceConfigSchema.parse({
    defaultEnvironment: env.LABEL_SERVICE_DEFAULT_ENVIRONMENT || undefined,
    environments: {
      staging: account("LABEL_SERVICE_STAGING"),
      production: env.LABEL_SERVICE_PRODUCTION_URL ? account("LABEL_SERVICE_PRODUCTION") : undefined,
    },
  });
}
