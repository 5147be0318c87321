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

export const envSchema = z
  .object({
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
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  })
  .superRefine((env, ctx) => {
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

/** Decryption keys by version: the current one plus ENCRYPTION_PREVIOUS_KEYS. */
export function encryptionKeys(appConfig: AppConfig = config()): Map<number, Buffer> {
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
