/** Environment for importing the app in tests: Shopify's test-helper credentials and a throwaway database. */
import { API_SECRET_KEY, APP_URL } from "@shopify/shopify-api/test-helpers";

export const TEST_API_KEY = "testApiKey";
export const TEST_ENCRYPTION_KEY = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

export function appTestEnv(databaseUrl: string): Record<string, string> {
  return {
    NODE_ENV: "test",
    SHOPIFY_API_KEY: TEST_API_KEY,
    SHOPIFY_API_SECRET: API_SECRET_KEY,
    SHOPIFY_APP_URL: APP_URL,
    SCOPES: "read_orders,write_orders",
    DATABASE_URL: databaseUrl,
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    LOG_LEVEL: "error",
  };
}
