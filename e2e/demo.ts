/**
 * The demo (`scripts/demo.ts --reset`) on free ports with fresh data in a temporary directory, for the browser
 * journeys. Started once per `npm run test:e2e` (global setup), stopped with SIGINT like Ctrl-C.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "..");

/** Screenshots and the demo's output of the last run (CI artefacts, gitignored). */
export const ARTEFACT_DIR = path.join(root, ".cache/e2e");
/** Everything the demo printed during the run (the app's Vite messages included). */
export const DEMO_LOG = path.join(ARTEFACT_DIR, "demo.log");

export function demoLog(): string {
  return readFileSync(DEMO_LOG, "utf8");
}

export interface DemoUrls {
  app: string;
  sandbox: string;
  emulator: string;
}

export interface RunningDemo extends DemoUrls {
  output: () => string;
  stop: () => Promise<number | null>;
}

/** A port nobody listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

function withoutHmrPort(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  delete copy.HMR_PORT;
  return copy;
}

export async function startDemo({ timeoutMs = 240_000 } = {}): Promise<RunningDemo> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "etiquette-e2e-"));
  // No HMR_PORT: live reload must go over the app's own port (a journey checks the page uses no other).
  const [appPort, sandboxPort, emulatorPort] = await Promise.all([freePort(), freePort(), freePort()]);
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(root, "node_modules/tsx/dist/cli.mjs"), "scripts/demo.ts", "--reset"],
    {
      cwd: root,
      env: {
        ...withoutHmrPort(process.env),
        NODE_ENV: "development",
        PORT: String(appPort),
        LABEL_SANDBOX_PORT: String(sandboxPort),
        SHOPIFY_EMULATOR_PORT: String(emulatorPort),
        DEMO_DATA_DIR: dataDir,
        // A cold dependency cache, as in a fresh clone: the first page load must still be stable.
        ETIQUETTE_VITE_CACHE_DIR: path.join(dataDir, "vite"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  mkdirSync(ARTEFACT_DIR, { recursive: true });
  writeFileSync(DEMO_LOG, "");
  const record = (chunk: Buffer) => {
    output += chunk.toString();
    appendFileSync(DEMO_LOG, chunk);
  };
  child.stdout?.on("data", record);
  child.stderr?.on("data", record);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null) child.kill("SIGINT");
    const code = await Promise.race([
      exited,
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 15_000).unref()),
    ]);
    if (child.exitCode === null) child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
    return code;
  };

  const ready = await Promise.race([
    new Promise<boolean>((resolve) => {
      const check = setInterval(() => {
        if (output.includes("demo: ready")) {
          clearInterval(check);
          resolve(true);
        }
      }, 200).unref();
    }),
    exited.then(() => false),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeoutMs).unref()),
  ]);
  if (!ready) {
    await stop();
    throw new Error(`the demo did not start:\n${output}`);
  }
  const printed = (pattern: RegExp) => {
    const url = pattern.exec(output)?.[1];
    if (!url) throw new Error(`the demo did not print ${pattern}:\n${output}`);
    return url;
  };
  return {
    app: printed(/Open (http:\S+)\/app/),
    sandbox: printed(/label sandbox\s+(http:\S+)/),
    emulator: printed(/Shopify emulator\s+(http:\S+)/),
    output: () => output,
    stop,
  };
}
