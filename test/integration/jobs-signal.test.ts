/**
 * SIGTERM stops the job queue: its polling would otherwise keep the process alive after remix-serve closed its
 * server. The process is a real one (tsx), booted like the server build.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { appTestEnv } from "../helpers/app-env";
import { createTestDatabaseUrl } from "../helpers/test-db";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const database = createTestDatabaseUrl();
afterAll(() => database.cleanup());

it("an app process given SIGTERM stops its job queue and ends", async () => {
  const child = spawn(path.join(root, "node_modules/.bin/tsx"), [path.join(root, "test/integration/fixtures/boot-jobs-process.ts")], {
    cwd: root,
    env: { ...process.env, ...appTestEnv(database.url), RECONCILE_INTERVAL_MS: "60000" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  try {
    await expect.poll(() => output, { timeout: 60_000, interval: 200 }).toContain("ready embedded");
    child.kill("SIGTERM");
    const outcome = await Promise.race([ended, new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), 20_000))]);
    expect(outcome, output).not.toBe("still running");
    expect(outcome).toMatchObject({ signal: null });
  } finally {
    child.kill("SIGKILL");
  }
}, 90_000);
