/**
 * `npm run demo [-- --reset]`: the whole app on this machine, with no accounts.
 *   1. the label sandbox (LABEL_SANDBOX_PORT, default 4010),
 *   2. the Shopify Admin emulator with the default seed (SHOPIFY_EMULATOR_PORT, default 4020),
 *   3. the app (Vite dev server, PORT, default 3000) on SQLite, in demo mode; Vite's live reload goes over that
 *      same port unless HMR_PORT names its own,
 * then prints the one URL to open. Ctrl-C stops all three. Data is kept in .demo/ between runs; --reset starts over.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createPrismaClient } from "../app/db.server";
import { DEMO_SHOP_DOMAIN, seedDemoShop } from "../app/demo/seed-demo-shop.server";
import { createSecretBox } from "../app/security/secret-box.server";
import { bucketSettingsFromEnv } from "../emulators/shopify-admin/env";
import { startShopifyEmulator } from "../emulators/shopify-admin/server";
import { startLabelSandbox } from "../emulators/label-sandbox/server";

const root = path.resolve(import.meta.dirname, "..");

function fail(message: string): never {
  console.error(`demo: ${message}`);
  process.exit(1);
}

function portFrom(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`${name} must be a port number, got "${raw}"`);
  return port;
}

if (process.env.NODE_ENV === "production") {
  fail("refusing to start: demo mode never runs with NODE_ENV=production");
}

const reset = process.argv.includes("--reset");
const dataDir = path.resolve(root, process.env.DEMO_DATA_DIR ?? ".demo");
const appPort = portFrom("PORT", 3000);
const sandboxPort = portFrom("LABEL_SANDBOX_PORT", 4010);
const emulatorPort = portFrom("SHOPIFY_EMULATOR_PORT", 4020);
const hmrPort = process.env.HMR_PORT ? portFrom("HMR_PORT", 0) : undefined;

if (reset) rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });

// A demo-only encryption key, kept with the demo data so saved passwords still decrypt on the next run.
const keyFile = path.join(dataDir, "encryption-key");
if (!existsSync(keyFile)) writeFileSync(keyFile, randomBytes(32).toString("hex"), { mode: 0o600 });
const encryptionKey = readFileSync(keyFile, "utf8").trim();
const databaseUrl = `file:${path.join(dataDir, "demo.sqlite")}`;

console.log(`demo: data in ${path.relative(root, dataDir) || "."}${reset ? " (reset)" : ""}`);
const migrate = spawnSync(path.join(root, "node_modules/.bin/prisma"), ["migrate", "deploy"], {
  cwd: root,
  env: { ...process.env, DATABASE_URL: databaseUrl },
  encoding: "utf8",
});
if (migrate.status !== 0) fail(`database migration failed:\n${migrate.stdout}\n${migrate.stderr}`);

const db = createPrismaClient(databaseUrl);
await seedDemoShop(db, createSecretBox(new Map([[1, Buffer.from(encryptionKey, "hex")]]), 1));
await db.$disconnect();

const sandbox = await startLabelSandbox({ port: sandboxPort, dataFile: path.join(dataDir, "label-sandbox.json") });
const emulator = await startShopifyEmulator({ port: emulatorPort, dataFile: path.join(dataDir, "shopify-admin.json"), ...bucketSettingsFromEnv(process.env) });
console.log(`demo: label sandbox   ${sandbox.url}  (account demo@etiquette.test / demo-sandbox)`);
console.log(`demo: Shopify emulator ${emulator.url}  (shop ${DEMO_SHOP_DOMAIN})`);

const appUrl = `http://localhost:${appPort}`;
const app: ChildProcess = spawn(
  process.execPath,
  [path.join(root, "node_modules/@remix-run/dev/dist/cli.js"), "vite:dev", "--port", String(appPort), "--strictPort"],
  {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NODE_ENV: "development",
      ETIQUETTE_DEMO: "1",
      SHOPIFY_ADMIN_EMULATOR_URL: emulator.url,
      SHOPIFY_API_KEY: "etiquette-demo",
      SHOPIFY_API_SECRET: "etiquette-demo-secret",
      SHOPIFY_APP_URL: appUrl,
      DATABASE_URL: databaseUrl,
      ENCRYPTION_KEY: encryptionKey,
      ENCRYPTION_KEY_VERSION: "1",
      LABEL_SERVICE_STAGING_URL: sandbox.url,
      PORT: String(appPort),
      // Live reload runs over the app's own port unless HMR_PORT names one (vite.config.ts).
      ...(hmrPort === undefined ? {} : { HMR_PORT: String(hmrPort) }),
    },
  },
);
// Vite's own "Local:" line would be a second URL to open (without /app); the demo prints the one to use.
app.stdout?.on("data", (chunk: Buffer) => {
  const lines = chunk.toString().split("\n").filter((line) => line.trim() !== "" && !/(Local|Network):\s+http/.test(line));
  if (lines.length > 0) process.stdout.write(lines.map((line) => `[app] ${line}\n`).join(""));
});
app.stderr?.on("data", (chunk: Buffer) => process.stderr.write(`[app] ${chunk}`));

let stopping = false;
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  if (app.exitCode === null) {
    app.kill("SIGTERM");
    await new Promise((resolve) => {
      const timer = setTimeout(() => {
        app.kill("SIGKILL");
        resolve(undefined);
      }, 5000);
      app.once("exit", () => {
        clearTimeout(timer);
        resolve(undefined);
      });
    });
  }
  await Promise.allSettled([sandbox.close(), emulator.close()]);
  console.log("demo: stopped");
  process.exit(code);
}
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));
app.on("exit", (code) => {
  if (!stopping) {
    console.error(`demo: the app exited (code ${code})`);
    void stop(1);
  }
});

// Wait until the app answers, warming the first page (Vite compiles on first request).
const deadline = Date.now() + 180_000;
for (;;) {
  if (stopping) break;
  try {
    const response = await fetch(`${appUrl}/app`, { signal: AbortSignal.timeout(60_000) });
    if (response.ok) break;
    if (Date.now() > deadline) {
      console.error(`demo: the app answered ${response.status} on /app`);
      await stop(1);
    }
  } catch {
    if (Date.now() > deadline) {
      console.error("demo: the app did not start within 3 minutes");
      await stop(1);
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
}
console.log(`\ndemo: ready. Open ${appUrl}/app\n`);
