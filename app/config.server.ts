/**
 * Every environment variable the app reads, parsed once with zod. A missing or malformed variable stops the app
 * with a message that names it. `.env.example` documents each one.
 */
import { z } from "zod";
import { DEFAULT_DATABASE_URL, databaseKind } from "./db-url";

const boolean = z
  .enum(["1", "0", "true", "false", "yes", "no", ""])
  .transform((value) => value === "1" || value === "true" || value === "yes");

const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });

/** 32 random bytes, as 64 hex characters or base64. */
const encryptionKey = z.string().transform((value, ctx) => {
  const trimmed = value.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64");
  if (bytes.length !== 32) {
    ctx.addIssue({
      code: "custom",
      message: "must be 32 bytes, as 64 hex characters or base64 (generate one with `openssl rand -hex 32`)",
    });
    return z.NEVER;
  }
  return bytes;
});

const DEFAULT_RECONCILE_BACKOFF_MS = "0,5000,30000,120000,600000,1800000";

/** Comma-separated milliseconds, e.g. "0,5000,30000": the delay before each reconciliation try. */
const millisecondList = z
  .string()
  .regex(/^ *[0-9]+ *(, *[0-9]+ *){0,49}$/, "must list whole milliseconds separated by commas (at most 50), e.g. 0,5000,30000")
  .transform((value) => value.split(",").map((item) => Number(item.trim())));

/**
 * Reconciliation and fulfillment timings (docs/decisions/0060). Today's values are the defaults; a test or the chaos
 * campaign sets them shorter. Parsed on their own too (`reconcileTimings`), so plain modules can read them without
 * the Shopify credentials.
 */
export const reconcileEnvShape = {
  /** Delays before each lookup of a purchase whose outcome is unknown; after the last one it needs review. */
  RECONCILE_BACKOFF_MS: z.string().default(DEFAULT_RECONCILE_BACKOFF_MS).pipe(millisecondList),
  /** A purchase still in flight after this long lost its process: it is reconciled like an unknown outcome. */
  RECONCILE_STALE_AFTER_MS: z.coerce.number().int().positive().default(600_000),
  /** How often the background pass runs in every app process. */
  RECONCILE_INTERVAL_MS: z.coerce.number().int().min(100).default(5_000),
  /** A Shopify fulfillment push claimed this long ago without an outcome is taken over (the process died). */
  FULFILLMENT_CLAIM_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  /**
   * Safety cap on the pages of the service's label list read by one lookup. A lookup reads back to the purchase's
   * own time; this only stops a list that never ends. A lookup stopped by the cap never counts as "not bought".
   */
  LABEL_LOOKUP_MAX_PAGES: z.coerce.number().int().positive().max(100_000).default(500),
  /**
   * A purchase the service did not answer (timeout, reset, a gateway error, a malformed answer) may still be
   * processed, and charged, later. A lookup counts towards "no label was bought" only this long after the call
   * (docs/decisions/0061).
   */
  RECONCILE_LATE_CHARGE_WINDOW_MS: z.coerce.number().int().min(0).default(600_000),
};

export const envSchema = z
  .object({
    ...reconcileEnvShape,
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    SHOPIFY_API_KEY: z.string().min(1, "is required (the app's client id from the Partner Dashboard)"),
    SHOPIFY_API_SECRET: z.string().min(1, "is required (the app's client secret)"),
    SHOPIFY_APP_URL: httpUrl,
    SCOPES: z.string().optional(),
    SHOP_CUSTOM_DOMAIN: z.string().optional(),
    DATABASE_URL: z
      .string()
      .default(DEFAULT_DATABASE_URL)
      .refine(
        (url) => {
          try {
            databaseKind(url);
            return true;
          } catch {
            return false;
          }
        },
        { message: 'must start with "file:" (SQLite) or "postgresql://" (PostgreSQL)' },
      ),
    ENCRYPTION_KEY: encryptionKey,
    ENCRYPTION_KEY_VERSION: z.coerce.number().int().min(1).default(1),
    /** Older keys still able to decrypt, as "version:key,version:key" (key rotation). */
    ENCRYPTION_PREVIOUS_KEYS: z.string().default(""),
    LABEL_SERVICE_STAGING_URL: httpUrl.default("http://127.0.0.1:4010"),
    /** Unknown publicly; production stays unavailable until it is set. */
    LABEL_SERVICE_PRODUCTION_URL: httpUrl.optional(),
    LABEL_SERVICE_CARRIER_SERVICES_PATH: z.string().startsWith("/").default("/carrier_services/services"),
    LABEL_SERVICE_GENERATE_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
    LABEL_SERVICE_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
    LABEL_SERVICE_MAX_CONCURRENCY: z.coerce.number().int().positive().default(4),
    LABEL_SERVICE_TOKEN_LIFETIME_SECONDS: z.coerce.number().int().positive().default(3600),
    /** Demo mode: the app talks to the local emulators. Refused when NODE_ENV=production. */
    ETIQUETTE_DEMO: boolean.default(false),
    /** Where the Admin API is reached in demo mode (the Shopify Admin emulator). */
    SHOPIFY_ADMIN_EMULATOR_URL: httpUrl.optional(),
    // pino's levels (app/observability/logger.server.ts reads the same variable).
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    /** "pretty" for one readable line per entry in development; JSON lines otherwise (the logger reads it too). */
    LOG_FORMAT: z.enum(["json", "pretty", ""], { error: 'must be "pretty" or "json" (or empty for JSON)' }).default(""),
    /** Turns GET /metrics on; scrapers send it as a bearer token. Unset: /metrics answers 404. */
    METRICS_TOKEN: z.preprocess(
      (value) => (value === "" ? undefined : value),
      z.string().min(16, "must be at least 16 characters (generate one with `openssl rand -hex 16`)").optional(),
    ),
    /** The interface the production server listens on (server.mjs); unset: every interface. */
    HOST: z.preprocess((value) => (value === "" ? undefined : value), z.string().optional()),
  })
  .superRefine((env, ctx) => {
    if (env.RECONCILE_STALE_AFTER_MS <= env.LABEL_SERVICE_GENERATE_TIMEOUT_MS) {
      ctx.addIssue({
        code: "custom",
        path: ["RECONCILE_STALE_AFTER_MS"],
        message: `must be longer than LABEL_SERVICE_GENERATE_TIMEOUT_MS (${env.LABEL_SERVICE_GENERATE_TIMEOUT_MS}): a purchase still waiting for its answer would be taken for dead`,
      });
    }
    if (env.ETIQUETTE_DEMO && env.NODE_ENV === "production") {
      ctx.addIssue({
        code: "custom",
        path: ["ETIQUETTE_DEMO"],
        message: "demo mode cannot run with NODE_ENV=production; unset ETIQUETTE_DEMO for a deployed app",
      });
    }
    if (env.ETIQUETTE_DEMO && !env.SHOPIFY_ADMIN_EMULATOR_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["SHOPIFY_ADMIN_EMULATOR_URL"],
        message: "is required in demo mode (the Shopify Admin emulator's URL, e.g. http://127.0.0.1:4020)",
      });
    }
  });

export type AppConfig = z.infer<typeof envSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((problem) => `  - ${problem}`).join("\n")}\nSee .env.example.`);
    this.name = "ConfigError";
  }
}

/** Parses an environment; throws a ConfigError naming every bad variable. Never echoes secret values. */
export function parseConfig(env: Record<string, string | undefined>): AppConfig {
  const result = envSchema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join(".") || "(environment)"} ${issue.message}`);
  throw new ConfigError(problems);
}

let cached: AppConfig | undefined;

/** The app's configuration, parsed on first use (at boot, from shopify.server.ts). */
export function config(): AppConfig {
  cached ??= parseConfig(process.env);
  return cached;
}

const reconcileEnvSchema = z.object(reconcileEnvShape);

export interface ReconcileTimings {
  backoffMs: readonly number[];
  staleAfterMs: number;
  intervalMs: number;
  claimTimeoutMs: number;
  lookupMaxPages: number;
  lateChargeWindowMs: number;
}

function timingsOf(env: z.infer<typeof reconcileEnvSchema>): ReconcileTimings {
  return {
    backoffMs: env.RECONCILE_BACKOFF_MS,
    staleAfterMs: env.RECONCILE_STALE_AFTER_MS,
    intervalMs: env.RECONCILE_INTERVAL_MS,
    claimTimeoutMs: env.FULFILLMENT_CLAIM_TIMEOUT_MS,
    lookupMaxPages: env.LABEL_LOOKUP_MAX_PAGES,
    lateChargeWindowMs: env.RECONCILE_LATE_CHARGE_WINDOW_MS,
  };
}

/** Today's values (no variable set). */
export const DEFAULT_RECONCILE_TIMINGS: ReconcileTimings = timingsOf(reconcileEnvSchema.parse({}));

let cachedTimings: ReconcileTimings | undefined;

/**
 * The reconciliation timings of this process. Only these variables are read, so modules and tests that never load the
 * whole configuration get them too; a malformed value throws a ConfigError naming it (the boot parse does the same).
 */
export function reconcileTimings(env: Record<string, string | undefined> = process.env): ReconcileTimings {
  if (env !== process.env) return parseTimings(env);
  cachedTimings ??= parseTimings(env);
  return cachedTimings;
}

function parseTimings(env: Record<string, string | undefined>): ReconcileTimings {
  const result = reconcileEnvSchema.safeParse(env);
  if (!result.success) throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`));
  return timingsOf(result.data);
}

/** Decryption keys by version: the current one plus ENCRYPTION_PREVIOUS_KEYS. */
export function encryptionKeys(
  appConfig: Pick<AppConfig, "ENCRYPTION_KEY" | "ENCRYPTION_KEY_VERSION" | "ENCRYPTION_PREVIOUS_KEYS"> = config(),
): Map<number, Buffer> {
  const keys = new Map<number, Buffer>([[appConfig.ENCRYPTION_KEY_VERSION, appConfig.ENCRYPTION_KEY]]);
  for (const entry of appConfig.ENCRYPTION_PREVIOUS_KEYS.split(",").filter(Boolean)) {
    const [version, key] = entry.split(":");
    const parsed = encryptionKey.safeParse(key ?? "");
    if (!version || !/^[0-9]+$/.test(version) || !parsed.success) {
      throw new ConfigError([`ENCRYPTION_PREVIOUS_KEYS has a malformed entry (expected "version:key")`]);
    }
    keys.set(Number(version), parsed.data);
  }
  return keys;
}

const encryptionEnvSchema = z.object({
  ENCRYPTION_KEY: encryptionKey,
  ENCRYPTION_KEY_VERSION: z.coerce.number().int().min(1).default(1),
  ENCRYPTION_PREVIOUS_KEYS: z.string().default(""),
});

/**
 * The encryption keys and current version from ENCRYPTION_* only (like reconcileTimings): modules that run without
 * the whole configuration (a purchase in a script or a test) seal recipient data with the same keys as the app.
 */
export function encryptionSettingsFromEnv(env: Record<string, string | undefined> = process.env): { keys: Map<number, Buffer>; currentVersion: number } {
  const result = encryptionEnvSchema.safeParse(env);
  if (!result.success) throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`));
  return { keys: encryptionKeys(result.data), currentVersion: result.data.ENCRYPTION_KEY_VERSION };
}
