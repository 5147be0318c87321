/**
 * The environment of the app under `shopify app dev` (read by vite.config.ts before anything else).
 *
 * The Shopify CLI starts the web process (shopify.web.toml) with SHOPIFY_API_KEY, SHOPIFY_API_SECRET, SCOPES, PORT and
 * the tunnel URL as HOST / APP_URL, but not SHOPIFY_APP_URL, and it does not pass the app's `.env` (where the
 * merchant-side secrets live: ENCRYPTION_KEY, DATABASE_URL, LABEL_SERVICE_*). So:
 *  1. the tunnel URL becomes SHOPIFY_APP_URL (the CLI's value wins over a placeholder in .env);
 *  2. `.env` fills what the environment does not set (never overriding it); not in the demo, which is self-contained.
 */
export function applyShopifyCliEnv(env: Record<string, string | undefined>, loadEnvFile: (path: string) => void = (path) => process.loadEnvFile(path)): void {
  const tunnel = env.HOST || env.APP_URL;
  if (tunnel && /^https?:\/\//.test(tunnel)) {
    env.SHOPIFY_APP_URL = tunnel;
    // Remix's dev server reads HOST as the host to listen on; a URL there breaks it.
    delete env.HOST;
  }
  if (env.ETIQUETTE_DEMO) return;
  try {
    loadEnvFile(".env");
  } catch {
    // No .env: the environment is used as it is (production hosts, the demo, CI).
  }
}
