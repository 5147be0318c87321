/**
 * The app processes of the campaign: production builds served by remix-serve on loopback ports, in demo mode, that
 * the campaign SIGKILLs and starts again. Every wait here is bounded.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, type WriteStream } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { performance } from "node:perf_hooks";

export const root = path.resolve(import.meta.dirname, "../..");

/** A free loopback port (asked from the OS; never 3000/4010/4020 since those are taken or skipped). */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 20; tries += 1) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => {
        const address = server.address();
        const value = typeof address === "object" && address ? address.port : 0;
        server.close(() => resolve(value));
      });
    });
    if (![3000, 4010, 4020].includes(port)) return port;
  }
  throw new Error("no free loopback port");
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class AppProcess {
  private child: ChildProcess | undefined;
  private log: WriteStream;
  readonly url: string;
  starts = 0;
  kills = 0;
  readonly startupMs: number[] = [];

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly serverBuild: string,
    private readonly env: Record<string, string>,
    logFile: string,
  ) {
    this.url = `http://127.0.0.1:${port}`;
    this.log = createWriteStream(logFile, { flags: "a" });
  }

  /** Listening: started and answering, not killed since. */
  ready = false;

  get up(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts remix-serve and waits (at most timeoutMs) until it serves a static file, i.e. the build is loaded. */
  async start(timeoutMs = 60_000): Promise<void> {
    const started = performance.now();
    this.starts += 1;
    this.ready = false;
    const child = spawn(process.execPath, [path.join(root, "node_modules/@remix-run/serve/dist/cli.js"), this.serverBuild], {
      cwd: root,
      env: { ...process.env, ...this.env, PORT: String(this.port), HOST: "127.0.0.1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    this.log.write(`\n=== ${this.name} start #${this.starts} pid ${child.pid} at ${new Date().toISOString()}\n`);
    child.stdout?.on("data", (chunk: Buffer) => this.log.write(chunk));
    child.stderr?.on("data", (chunk: Buffer) => this.log.write(chunk));
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.up) throw new Error(`${this.name} exited while starting (see ${this.log.path})`);
      try {
        const response = await fetch(`${this.url}/favicon.svg`, { signal: AbortSignal.timeout(2_000) });
        await response.arrayBuffer();
        if (response.ok) {
          this.ready = true;
          this.startupMs.push(performance.now() - started);
          return;
        }
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    throw new Error(`${this.name} did not start within ${timeoutMs} ms`);
  }

  /** SIGKILL: no cleanup, no graceful shutdown, whatever the process was doing. */
  async kill(): Promise<void> {
    const child = this.child;
    this.ready = false;
    if (!child || !this.up) return;
    this.kills += 1;
    this.log.write(`\n=== ${this.name} SIGKILL at ${new Date().toISOString()}\n`);
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await Promise.race([exited, sleep(5_000)]);
  }

  /** The end of the run: SIGTERM, then SIGKILL after 5 s. */
  async stop(): Promise<void> {
    const child = this.child;
    this.ready = false;
    if (child && this.up) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      if ((await Promise.race([exited.then(() => "exited"), sleep(5_000).then(() => "timeout")])) === "timeout") {
        child.kill("SIGKILL");
        await Promise.race([exited, sleep(5_000)]);
      }
    }
    await new Promise((resolve) => this.log.end(resolve));
  }
}
