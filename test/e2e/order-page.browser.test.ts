/**
 * The order page in Chromium against the demo (`npm run demo` on free ports): what a merchant sees and keeps.
 * Skipped where no Chromium is installed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const CHROMIUM = "/usr/bin/chromium";
const root = path.resolve(__dirname, "../..");
const dataDir = mkdtempSync(path.join(tmpdir(), "etiquette-order-page-"));
let demo: ChildProcess | undefined;
let browser: Browser | undefined;
let base = "";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function startDemo(): Promise<string> {
  const [appPort, sandboxPort, emulatorPort, hmrPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  demo = spawn(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), "scripts/demo.ts", "--reset"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "development",
      PORT: String(appPort),
      LABEL_SANDBOX_PORT: String(sandboxPort),
      SHOPIFY_EMULATOR_PORT: String(emulatorPort),
      HMR_PORT: String(hmrPort),
      DEMO_DATA_DIR: dataDir,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  demo.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  demo.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 150_000;
  while (!output.includes("demo: ready")) {
    if (Date.now() > deadline || demo.exitCode !== null) throw new Error(`demo did not start:\n${output.slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return `http://localhost:${appPort}`;
}

/**
 * Opens a page and waits until React has taken over. On a cold start Vite may reload the page while it optimises
 * dependencies: then open it again.
 */
async function open(page: Page, url: string, ready = "form") {
  for (let attempt = 1; ; attempt += 1) {
    await page.goto(url, { waitUntil: "networkidle" });
    await page.waitForTimeout(1500);
    await page.waitForLoadState("networkidle");
    try {
      await page.locator(ready).first().waitFor({ timeout: 15_000 });
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

describe.skipIf(!existsSync(CHROMIUM))("order page in Chromium", () => {
  beforeAll(async () => {
    base = await startDemo();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
    // A second box, saved through Settings as a merchant would.
    const page = await browser.newPage();
    await open(page, `${base}/app/settings`, 'input[name="boxes.1.name"]');
    await page.locator('input[name="boxes.1.name"]').fill("Large");
    await page.locator('input[name="boxes.1.lengthCm"]').fill("50");
    await page.locator('input[name="boxes.1.widthCm"]').fill("40");
    await page.locator('input[name="boxes.1.heightCm"]').fill("30");
    await page.locator('input[name="boxes.1.packagingWeightGrams"]').fill("400");
    await page.getByRole("button", { name: "Save shipping settings" }).click();
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(1000);
    await page.close();
  }, 200_000);

  afterAll(async () => {
    await browser?.close();
    if (demo && demo.exitCode === null) {
      const exited = new Promise((resolve) => demo!.once("exit", resolve));
      demo.kill("SIGINT");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps typed edits (address line 2, weight) when the box changes; the new box's dimensions apply", async () => {
    const page = await browser!.newPage({ locale: "fr-FR" });
    await open(page, `${base}/app/orders/7100001002`);
    await page.locator('input[name="recipient.address_line2"]').fill("Bâtiment B");
    await page.locator('input[name="weight"]').fill("777");
    await page.locator("select").first().selectOption("Large");
    await page.waitForURL(/box=Large/);
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(500);
    expect(await page.locator('input[name="recipient.address_line2"]').inputValue()).toBe("Bâtiment B");
    expect(await page.locator('input[name="weight"]').inputValue()).toBe("777");
    expect(await page.locator('input[name="length"]').inputValue()).toBe("50");
    await page.close();
  });

  it("marks the fields a problem names, in French, and lists each problem once", async () => {
    const page = await browser!.newPage({ locale: "fr-FR" });
    await open(page, `${base}/app/orders/7100001002`);
    await page.locator('input[name="weight"]').fill("0");
    await page.getByRole("button", { name: "Créer l'étiquette" }).click();
    await page.locator(".Polaris-InlineError").first().waitFor();
    const errors = await page.locator(".Polaris-InlineError").allTextContents();
    expect(errors).toEqual([expect.stringContaining("Poids (g) doit être un nombre entier de 10 à 30000 g pour Colissimo")]);
    const listed = await page.locator(".Polaris-Banner li").allTextContents();
    expect(listed).toHaveLength(1);
    expect(listed.join(" ")).not.toMatch(/weight|cn23_data|recipient\./);
    await page.close();
  });

  it("lists an order's problem once after a refused purchase (#1037), not once from the page and once from the action", async () => {
    const page = await browser!.newPage({ locale: "en-US" });
    await open(page, `${base}/app/orders/7100001037`);
    const before = await page.locator(".Polaris-Banner--toneCritical li, .Polaris-Banner li").allTextContents();
    expect(before.length).toBeGreaterThan(0);
    await page.getByRole("button", { name: "Create label" }).click();
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(1500);
    const after = await page.locator(".Polaris-Banner--toneCritical li, .Polaris-Banner li").allTextContents();
    expect(new Set(after).size).toBe(after.length);
    expect(after.length).toBe(before.length);
    await page.close();
  });

  it("after the label is bought, nothing is left 'to fix before buying'; CN23 says not required at home", async () => {
    const page = await browser!.newPage({ locale: "en-US" });
    await open(page, `${base}/app/orders/7100001004`);
    expect(await page.getByText("Not required for this destination").count()).toBe(1);
    await page.getByRole("button", { name: "Create label" }).click();
    await page.getByText("Label created: tracking number").waitFor({ timeout: 20_000 });
    await page.locator("h2", { hasText: "Label · Colissimo Domicile sans signature" }).waitFor();
    await page.waitForLoadState("networkidle");
    expect(await page.getByText("To fix before buying the label").count()).toBe(0);
    await page.close();
  });
});
