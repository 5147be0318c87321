import { describe, expect, it } from "vitest";
import { ConfigError, DEFAULT_RECONCILE_TIMINGS, encryptionKeys, parseConfig, reconcileTimings } from "./config.server";

const KEY = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
const valid = {
  SHOPIFY_API_KEY: "key",
  SHOPIFY_API_SECRET: "secret",
  SHOPIFY_APP_URL: "https://app.example.com",
  ENCRYPTION_KEY: KEY,
};

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("parseConfig", () => {
  it("fills the defaults: SQLite, staging on the local sandbox, no production URL, demo off", () => {
    const config = parseConfig(valid);
    expect(config.DATABASE_URL).toBe("file:./prisma/dev.sqlite");
    expect(config.LABEL_SERVICE_STAGING_URL).toBe("http://127.0.0.1:4010");
    expect(config.LABEL_SERVICE_PRODUCTION_URL).toBeUndefined();
    expect(config.LABEL_SERVICE_GENERATE_TIMEOUT_MS).toBe(60_000);
    expect(config.LABEL_SERVICE_TIMEOUT_MS).toBe(15_000);
    expect(config.ETIQUETTE_DEMO).toBe(false);
    expect(config.ENCRYPTION_KEY).toHaveLength(32);
  });

  it("names every missing variable", () => {
    const problems = problemsOf({});
    for (const name of ["SHOPIFY_API_KEY", "SHOPIFY_API_SECRET", "SHOPIFY_APP_URL", "ENCRYPTION_KEY"]) {
      expect(problems.some((problem) => problem.startsWith(name)), name).toBe(true);
    }
  });

  it("names malformed variables without echoing secrets", () => {
    const problems = problemsOf({
      ...valid,
      ENCRYPTION_KEY: "too-short-secret",
      DATABASE_URL: "mysql://db",
      SHOPIFY_APP_URL: "not a url",
      PORT: "eighty",
    });
    expect(problems.join("\n")).toMatch(/^ENCRYPTION_KEY must be 32 bytes/m);
    expect(problems.join("\n")).toMatch(/^DATABASE_URL must start with "file:"/m);
    expect(problems.join("\n")).toMatch(/^SHOPIFY_APP_URL /m);
    expect(problems.join("\n")).toMatch(/^PORT /m);
    expect(problems.join("\n")).not.toContain("too-short-secret");
  });

  it("reads the operations variables: metrics off when the token is empty, a short token or unknown log format named", () => {
    const off = parseConfig({ ...valid, METRICS_TOKEN: "", LOG_FORMAT: "", HOST: "" });
    expect(off.METRICS_TOKEN).toBeUndefined();
    expect(off.HOST).toBeUndefined();
    const on = parseConfig({ ...valid, METRICS_TOKEN: "a-long-enough-token", LOG_FORMAT: "pretty", HOST: "127.0.0.1" });
    expect(on).toMatchObject({ METRICS_TOKEN: "a-long-enough-token", LOG_FORMAT: "pretty", HOST: "127.0.0.1" });
    const problems = problemsOf({ ...valid, METRICS_TOKEN: "short", LOG_FORMAT: "colour" }).join("\n");
    expect(problems).toMatch(/^METRICS_TOKEN must be at least 16 characters/m);
    expect(problems).toMatch(/^LOG_FORMAT must be "pretty" or "json"/m);
    expect(problems).not.toContain("short");
  });

  it("accepts a base64 key and PostgreSQL URLs", () => {
    const config = parseConfig({
      ...valid,
      ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
      DATABASE_URL: "postgresql://etiquette@db:5432/etiquette",
    });
    expect(config.ENCRYPTION_KEY.equals(Buffer.alloc(32, 7))).toBe(true);
  });

  it("refuses demo mode in production, and demo mode without the emulator URL", () => {
    expect(problemsOf({ ...valid, NODE_ENV: "production", ETIQUETTE_DEMO: "1", SHOPIFY_ADMIN_EMULATOR_URL: "http://127.0.0.1:4020" })).toEqual([
      expect.stringMatching(/^ETIQUETTE_DEMO demo mode cannot run with NODE_ENV=production/),
    ]);
    expect(problemsOf({ ...valid, ETIQUETTE_DEMO: "1" })).toEqual([expect.stringMatching(/^SHOPIFY_ADMIN_EMULATOR_URL is required/)]);
  });
});

describe("encryptionKeys", () => {
  it("returns the current key and the previous ones by version", () => {
    const previous = Buffer.alloc(32, 1).toString("hex");
    const keys = encryptionKeys(parseConfig({ ...valid, ENCRYPTION_KEY_VERSION: "2", ENCRYPTION_PREVIOUS_KEYS: `1:${previous}` }));
    expect([...keys.keys()].sort()).toEqual([1, 2]);
    expect(keys.get(1)?.toString("hex")).toBe(previous);
  });

  it("rejects a malformed previous key", () => {
    expect(() => encryptionKeys(parseConfig({ ...valid, ENCRYPTION_PREVIOUS_KEYS: "one:abc" }))).toThrow(ConfigError);
  });
});

describe("reconciliation timings", () => {
  it("default to today's values: backoff 0 s to 30 min, stale after 10 min, a pass every 5 s, claims 2 min, 500 pages", () => {
    const config = parseConfig(valid);
    expect(config.RECONCILE_BACKOFF_MS).toEqual([0, 5_000, 30_000, 120_000, 600_000, 1_800_000]);
    expect(config.RECONCILE_STALE_AFTER_MS).toBe(600_000);
    expect(config.RECONCILE_INTERVAL_MS).toBe(5_000);
    expect(config.FULFILLMENT_CLAIM_TIMEOUT_MS).toBe(120_000);
    expect(config.LABEL_LOOKUP_MAX_PAGES).toBe(500);
    expect(reconcileTimings({})).toEqual(DEFAULT_RECONCILE_TIMINGS);
  });

  it("are read from the environment, without the Shopify credentials", () => {
    expect(
      reconcileTimings({
        RECONCILE_BACKOFF_MS: "0, 50,200",
        RECONCILE_STALE_AFTER_MS: "3000",
        RECONCILE_INTERVAL_MS: "250",
        FULFILLMENT_CLAIM_TIMEOUT_MS: "1000",
        LABEL_LOOKUP_MAX_PAGES: "40",
        RECONCILE_LATE_CHARGE_WINDOW_MS: "9000",
      }),
    ).toEqual({ backoffMs: [0, 50, 200], staleAfterMs: 3_000, intervalMs: 250, claimTimeoutMs: 1_000, lookupMaxPages: 40, lateChargeWindowMs: 9_000 });
  });

  it("name a malformed value", () => {
    expect(problemsOf({ ...valid, RECONCILE_BACKOFF_MS: "0,5s" })).toEqual([expect.stringMatching(/^RECONCILE_BACKOFF_MS must list whole milliseconds/)]);
    expect(problemsOf({ ...valid, LABEL_LOOKUP_MAX_PAGES: "0" })).toEqual([expect.stringMatching(/^LABEL_LOOKUP_MAX_PAGES /)]);
    expect(() => reconcileTimings({ FULFILLMENT_CLAIM_TIMEOUT_MS: "soon" })).toThrow(/FULFILLMENT_CLAIM_TIMEOUT_MS/);
  });

  it("refuse a staleness shorter than the purchase timeout (a purchase still waiting would be taken for dead)", () => {
    expect(problemsOf({ ...valid, RECONCILE_STALE_AFTER_MS: "30000" })).toEqual([expect.stringMatching(/^RECONCILE_STALE_AFTER_MS must be longer than LABEL_SERVICE_GENERATE_TIMEOUT_MS/)]);
    expect(problemsOf({ ...valid, RECONCILE_STALE_AFTER_MS: "3000", LABEL_SERVICE_GENERATE_TIMEOUT_MS: "2000" })).toEqual([]);
  });
});
