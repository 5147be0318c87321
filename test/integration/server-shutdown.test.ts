/**
 * The production server as an operator runs it: a production build (`remix vite:build`), a database migrated with
 * `prisma migrate deploy`, `node server.mjs`. Checked: /healthz and /readyz, the JSON request log (request id,
 * no query string), /metrics behind its token, and SIGTERM: a request in flight is answered, the job queue stops
 * within its grace, the database is closed and the process exits 0.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildFor, serverBuildFor } from "../../scripts/chaos/build";
import { appTestEnv } from "../helpers/app-env";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const dir = mkdtempSync(path.join(tmpdir(), "etiquette-server-"));
const databaseUrl = `file:${path.join(dir, "app.sqlite")}`;
let child: ChildProcess | undefined;
let output = "";

type LogLine = Record<string, unknown> & { msg?: string };
const logLines = (): LogLine[] =>
  output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);

beforeAll(() => {
  buildFor("sqlite", "");
  const migrated = spawnSync(path.join(root, "node_modules/.bin/prisma"), ["migrate", "deploy"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: "utf8",
  });
  expect(migrated.status, `${migrated.stdout}\n${migrated.stderr}`).toBe(0);
}, 300_000);

afterAll(() => {
  child?.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** A free loopback port (the app's config wants a real one, not 0). */
async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

it("serves the health checks and metrics, then stops cleanly on SIGTERM with a request in flight", async () => {
  const port = await freePort();
  child = spawn(process.execPath, [path.join(root, "server.mjs")], {
    cwd: root,
    env: {
      ...process.env,
      ...appTestEnv(databaseUrl),
      NODE_ENV: "production",
      SERVER_BUILD: serverBuildFor("sqlite"),
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      METRICS_TOKEN: "metrics-test-token",
      RECONCILE_INTERVAL_MS: "60000",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    // "close", not "exit": the process can end before its last lines are read from its pipes.
    child?.once("close", (code, signal) => resolve({ code, signal })),
  );

  await expect.poll(() => logLines().find((line) => line.msg === "listening"), { timeout: 60_000, interval: 100 }).toBeDefined();
  const base = `http://127.0.0.1:${port}`;

  expect((await fetch(`${base}/healthz`)).status).toBe(200);
  // The queue starts just after the build loads: ready once it runs.
  await expect.poll(async () => (await fetch(`${base}/readyz`)).status, { timeout: 30_000, interval: 200 }).toBe(200);
  const ready = (await (await fetch(`${base}/readyz`)).json()) as { checks: { name: string; ok: boolean }[] };
  expect(ready.checks.map((check) => check.name)).toEqual(["database", "migrations", "jobs"]);

  const traced = await fetch(`${base}/healthz?hmac=query-secret`, { headers: { "x-request-id": "req-test-1" } });
  expect(traced.headers.get("x-request-id")).toBe("req-test-1");
  expect((await fetch(`${base}/metrics`)).status).toBe(401);
  const metrics = await fetch(`${base}/metrics`, { headers: { authorization: "Bearer metrics-test-token" } });
  expect(metrics.status).toBe(200);
  expect(await metrics.text()).toContain("etiquette_jobs");

  await expect.poll(() => logLines().find((line) => line.requestId === "req-test-1" && line.msg === "request")).toMatchObject({
    level: "info",
    method: "GET",
    path: "/healthz",
    status: 200,
  });
  expect(output).not.toContain("query-secret");

  // A request in flight: its body is still arriving when SIGTERM comes; the server must still answer it.
  const inFlight = new Promise<number>((resolve, reject) => {
    const request = http.request(`${base}/webhooks/app/uninstalled`, { method: "POST", headers: { "content-type": "application/json" } }, (response) => {
      response.resume();
      response.once("end", () => resolve(response.statusCode ?? 0));
    });
    request.once("error", reject);
    request.write('{"id":');
    setTimeout(() => {
      child?.kill("SIGTERM");
      setTimeout(() => request.end("1}"), 500);
    }, 300);
  });
  expect(await inFlight).toBeGreaterThanOrEqual(400); // unsigned: refused, but answered
  expect(await exited, output).toEqual({ code: 0, signal: null });

  const messages = logLines().map((line) => line.msg);
  expect(messages).toContain("job queue stopped");
  expect(messages).toContain("database closed");
  expect(messages.at(-1)).toBe("stopped");
  const stoppedQueue = logLines().find((line) => line.msg === "job queue stopped");
  expect(Number(stoppedQueue?.durationMs)).toBeLessThanOrEqual(25_000);
}, 240_000);
