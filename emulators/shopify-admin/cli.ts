/** `npm run emulator:shopify`: starts the Shopify Admin emulator and prints how to reach it. */
import { startShopifyEmulator } from "./server";
import { loadSeedFile, SeedError } from "./seed";
import { DEFAULT_SEED_FILE } from "./server";
import { bucketSettingsFromEnv, EmulatorEnvError } from "./env";

const port = Number(process.env.SHOPIFY_EMULATOR_PORT ?? 4020);
const host = process.env.SHOPIFY_EMULATOR_HOST ?? "127.0.0.1";
const seedFile = process.env.SHOPIFY_EMULATOR_SEED ?? DEFAULT_SEED_FILE;
const dataFile = process.env.SHOPIFY_EMULATOR_DATA || undefined;

try {
  const seed = loadSeedFile(seedFile);
  const emulator = await startShopifyEmulator({
    port,
    host,
    seed,
    dataFile,
    ...bucketSettingsFromEnv(process.env),
  });
  console.log(`Shopify Admin emulator (API 2026-10) listening on ${emulator.url}`);
  console.log(`  seed: ${seedFile}${dataFile ? `, state persisted to ${dataFile}` : " (state in memory)"}`);
  for (const shop of seed.shops) {
    console.log(`  shop ${shop.domain}  token ${shop.accessToken}  orders ${shop.orders.length}`);
    console.log(`    POST ${emulator.url}/admin/api/2026-10/graphql.json  (X-Shopify-Access-Token: ${shop.accessToken})`);
  }
  console.log(`  inspect: GET ${emulator.url}/__admin/orders/<id or name>, GET ${emulator.url}/__admin/notifications, POST ${emulator.url}/__admin/reset`);
  const stop = () => {
    void emulator.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
} catch (error) {
  if (error instanceof SeedError || error instanceof EmulatorEnvError) {
    console.error(error.message);
    process.exit(2);
  }
  throw error;
}
