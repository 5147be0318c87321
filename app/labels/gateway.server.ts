/**
 * The label-service client for a shop and environment, built from the app's configuration and the shop's saved
 * (encrypted) account. The only place that decrypts a password to talk to the service.
 */
import { config } from "../config.server";
import db from "../db.server";
import { createLabelServiceClient, type LabelServiceClient } from "../label-service";
import { appSecretBox } from "../security/app-secret-box.server";
import { loadLabelServiceCredentials, type LabelEnvironment } from "./accounts.server";

export class LabelServiceUnavailableError extends Error {
  constructor(
    readonly code: "production_not_configured" | "account_missing",
    message: string,
  ) {
    super(message);
    this.name = "LabelServiceUnavailableError";
  }
}

function baseUrlFor(environment: LabelEnvironment): string {
  const env = config();
  if (environment === "production") {
    if (!env.LABEL_SERVICE_PRODUCTION_URL) {
      throw new LabelServiceUnavailableError("production_not_configured", "LABEL_SERVICE_PRODUCTION_URL is not set");
    }
    return env.LABEL_SERVICE_PRODUCTION_URL;
  }
  return env.LABEL_SERVICE_STAGING_URL;
}

function clientOptions() {
  const env = config();
  return {
    generateTimeoutMs: env.LABEL_SERVICE_GENERATE_TIMEOUT_MS,
    defaultTimeoutMs: env.LABEL_SERVICE_TIMEOUT_MS,
    maxConcurrency: env.LABEL_SERVICE_MAX_CONCURRENCY,
    tokenLifetimeSeconds: env.LABEL_SERVICE_TOKEN_LIFETIME_SECONDS,
    carrierServicesPath: env.LABEL_SERVICE_CARRIER_SERVICES_PATH,
    lookupMaxPages: env.LABEL_LOOKUP_MAX_PAGES,
  };
}

export function buildClient(shop: string, environment: LabelEnvironment, credentials: { email: string; password: string }): LabelServiceClient {
  return createLabelServiceClient({
    shop,
    environment,
    account: { baseUrl: baseUrlFor(environment), ...credentials },
    options: clientOptions(),
  });
}

export async function labelServiceClientFor(shop: string, environment: LabelEnvironment): Promise<LabelServiceClient> {
  const credentials = await loadLabelServiceCredentials(db, appSecretBox(), shop, environment);
  if (!credentials) {
    throw new LabelServiceUnavailableError("account_missing", `no ${environment} label-service account saved for ${shop}`);
  }
  return buildClient(shop, environment, credentials);
}

export async function testLabelServiceConnection(
  shop: string,
  environment: LabelEnvironment,
  credentials: { email: string; password: string },
): Promise<{ ok: true } | { ok: false; message: string; messageFr: string }> {
  try {
    const result = await buildClient(shop, environment, credentials).testConnection();
    return result.ok ? { ok: true } : { ok: false, message: result.message, messageFr: result.messageFr };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, message, messageFr: message };
  }
}
