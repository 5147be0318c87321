/**
 * The README's main-job command, end to end: `npm run demo -- --reset` on free ports, the orders page served with
 * seeded order names, then Ctrl-C (SIGINT) stops everything.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "..");

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

const dataDir = mkdtempSync(path.join(tmpdir(), "etiquette-demo-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("npm run demo", () => {
  it(
    "serves the orders page with seeded orders, and stops on SIGINT",
    async () => {
      const [appPort, sandboxPort, emulatorPort, hmrPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
      const child = spawn(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), "scripts/demo.ts", "--reset"], {
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
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

      try {
        const ready = await Promise.race([
          new Promise<boolean>((resolve) => {
            const check = setInterval(() => {
              if (output.includes("demo: ready")) {
                clearInterval(check);
                resolve(true);
              }
            }, 200);
          }),
          exited.then(() => false),
        ]);
        expect(ready, output).toBe(true);
        expect(output).toContain(`Open http://localhost:${appPort}/app`);

        const page = await fetch(`http://localhost:${appPort}/app`);
        expect(page.status).toBe(200);
        // Order names as rendered in rows (the search field's placeholder "#1001" does not count).
        const orderNames = (text: string) => new Set(text.replace(/placeholder="[^"]*"/g, "").match(/#10\d\d/g) ?? []);
        const html = await page.text();
        expect(orderNames(html).size).toBeGreaterThan(5);
        expect(html).toContain("Orders to ship");

        // Search by name finds that order and only it.
        const first = [...orderNames(html)][0]!;
        const search = await (await fetch(`http://localhost:${appPort}/app?q=${encodeURIComponent(first)}`)).text();
        expect([...orderNames(search)]).toEqual([first]);
      } finally {
        child.kill("SIGINT");
      }
      expect(await exited).toBe(0);
      expect(output).toContain("demo: stopped");
    },
    240_000,
  );
});
