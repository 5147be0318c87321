/**
 * The bulk section of `npm run bench` (BENCH_ONLY=bulk runs it alone): bulk jobs of BENCH_BULK_N (default 500) ready
 * orders, created through createBulkJob (preflight included) and run by the queue's item handler with the app's
 * real clients and production wiring (scripts/bench-bulk/app.ts), against the label sandbox with a realistic latency
 * and the Shopify emulator's cost throttle for each plan. The emulators run in child processes, so the CPU counted is
 * the app's alone.
 *
 * Runs, in order: the embedded queue on SQLite (one app process) on each plan of BENCH_BULK_PLANS (default
 * "standard,advanced,plus"); then a warm run on the last of those plans: one app process runs BENCH_BULK_WARM jobs
 * (default 3) of as many other orders each, unmeasured, then the cold run's job, measured alike from its preflight on
 * (BENCH_BULK_WARM=0 skips it; V8 is still optimizing the label path after one such job, decision 0228); then
 * pg-boss on PostgreSQL with two worker processes (scripts/bench-bulk/worker.ts) on BENCH_BULK_PG_PLAN (default
 * standard), in a database created for the run and dropped after it (TEST_POSTGRES_URL's server, default
 * postgresql://postgres@127.0.0.1:5432/test). BENCH_BULK_PG=0 skips it.
 *
 * Printed per job: wall time; the physical bound max(P·L/C, N·c/restore) with P the labels the sandbox sold (an order
 * shipping from several locations buys one per location), L the sandbox's mean configured latency, C the label-service
 * concurrency, N the orders and c the Shopify points spent per order in that run; their ratio (target ≤ 1.15); how busy
 * the app kept the service (purchases in flight over time, GET /__admin/stats);
 * points requested and spent per label and per operation (counted by the emulator, GET /__admin/costs, so the app
 * does not pay for the counting); the app's CPU time as a share of wall time (target < 2 %), and per label against
 * the ideal label's (scripts/bench-bulk/ideal.ts, measured first: the least a label can cost on this machine) and
 * against what the target allows; peak RSS and the event loop's delay; the emulators' own CPU time (on a loaded
 * machine, their CPU decides how close a run can get).
 * Settings: BENCH_BULK_N, BENCH_BULK_PLANS, BENCH_BULK_WARM, BENCH_BULK_PG, BENCH_BULK_PG_PLAN, BENCH_BULK_LATENCY_MS
 * ("300-800"), LABEL_SERVICE_MAX_CONCURRENCY (default 4), BENCH_BULK_LOG_LEVEL (the app processes' LOG_LEVEL, default
 * info as in production); BENCH_CPU_PROF, a folder for the app processes' CPU profiles. Nothing here asserts a figure.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { DEFAULT_SEED_FILE } from "../emulators/shopify-admin/server";
import { migrateSqliteFile } from "../test/helpers/test-db";
import { createPostgresTestDatabase } from "../test/helpers/test-postgres";
import { STALL_TICK_MS, type BenchAppConfig, type JobFigures } from "./bench-bulk/app";
import { measureIdealLabelCpu, type IdealFigures } from "./bench-bulk/ideal";
import { generatePostgresClient, POSTGRES_ALIAS_HOOK, POSTGRES_CLIENT_DIR } from "./bench-bulk/postgres-client";
import { statCpuMs } from "./bench-bulk/threads";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PLAN_BUCKETS: Record<string, { size: number; restore: number }> = {
  standard: { size: 2000, restore: 100 },
  advanced: { size: 4000, restore: 200 },
  plus: { size: 20000, restore: 1000 },
};

/** Seed orders that the demo settings label without a problem (checked by the bulk preflight); cloned to N. */
const READY_NUMBERS = [1002, 1003, 1004, 1006, 1008, 1009, 1012, 1014, 1017, 1019, 1020, 1021, 1022, 1023, 1026, 1031, 1032, 1033, 1034, 1035, 1038, 1039, 1040, 1041, 1042, 1043, 1044, 1050, 1051, 1052, 1053, 1054, 1055, 1056, 1059, 1060, 1061, 1062, 1063, 1064];

type SeedOrder = { id: number; number: number; customer?: { id: number }; lineItems: { id: number }[] } & Record<string, unknown>;

function benchSeed(n: number, file: string): string[] {
  const seed = JSON.parse(readFileSync(DEFAULT_SEED_FILE, "utf8")) as { shops: { orders: SeedOrder[] }[] };
  const shop = seed.shops[0]!;
  const ready = shop.orders.filter((order) => READY_NUMBERS.includes(order.number));
  const orders: SeedOrder[] = [];
  for (let i = 0; i < n; i++) {
    const base = ready[i % ready.length]!;
    // New ids for the order, its customer and its lines (fulfillments name their lines by id).
    const lineIds = new Map(base.lineItems.map((line, j) => [line.id, 13300000000 + i * 20 + j]));
    const text = JSON.stringify(base).replace(/"lineItemId":\s*([0-9]+)/g, (whole, old: string) => `"lineItemId":${lineIds.get(Number(old)) ?? old}`);
    const clone = JSON.parse(text) as SeedOrder;
    orders.push({
      ...clone,
      id: 7300000000 + i,
      number: 30000 + i,
      customer: clone.customer ? { ...clone.customer, id: 8300000000 + i } : clone.customer,
      lineItems: clone.lineItems.map((line) => ({ ...line, id: lineIds.get(line.id)! })),
    });
  }
  shop.orders = orders;
  seed.shops = [shop];
  writeFileSync(file, JSON.stringify(seed));
  return orders.map((order) => `gid://shopify/Order/${order.id}`);
}

/** A job's figures may take this long (a 500-order job on the Standard plan takes 6 to 7 minutes). */
const JOB_TIMEOUT_MS = 60 * 60_000;

type Points = { calls: number; requested: number; actual: number; throttled: number };

/** A TypeScript entry point in a Node process of its own (no tsx CLI in between, so its pid is the one to read). */
function spawnTs(script: string, env: Record<string, string>, hooks: string[] = []): ChildProcess {
  const imports = ["tsx", ...hooks].flatMap((hook) => ["--import", hook.startsWith("/") ? pathToFileURL(hook).href : hook]);
  // BENCH_CPU_PROF=<folder>: the app's processes write V8 CPU profiles there (open them in Chrome's DevTools).
  const profile = script.includes("worker") && process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  // The app's processes log at the production default (info, about 3 lines per label; BENCH_BULK_LOG_LEVEL sets
  // another) into the pipe read here, which never prints them.
  const logLevel = script.includes("worker") ? { LOG_LEVEL: process.env.BENCH_BULK_LOG_LEVEL ?? "info" } : {};
  const child = spawn(process.execPath, [...profile, ...imports, path.join(root, script)], { cwd: root, env: { ...process.env, ...logLevel, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  child.once("close", () => closedChildren.add(child));
  return child;
}

/** Children whose output has ended (spawnTs marks them): a wait on one cannot be answered any more. */
const closedChildren = new WeakSet<ChildProcess>();

/** Resolves with the first match of `pattern` in the child's output. */
function waitFor(child: ChildProcess, pattern: RegExp, what: string, timeoutMs = 90_000): Promise<RegExpExecArray> {
  let output = "";
  return new Promise((resolve, reject) => {
    if (closedChildren.has(child)) return reject(new Error(`${what} had exited (${child.exitCode ?? child.signalCode})`));
    let graceTimer: NodeJS.Timeout | undefined;
    const stop = (error: Error | null, match?: RegExpExecArray) => {
      clearTimeout(timer);
      clearTimeout(graceTimer);
      child.stdout!.off("data", scan);
      child.stderr!.off("data", scan);
      child.off("exit", exited);
      child.off("close", closed);
      if (error) reject(error);
      else resolve(match!);
    };
    const timer = setTimeout(() => stop(new Error(`${what} gave no ${pattern.source} in ${timeoutMs / 1000} s: ${output}`)), timeoutMs);
    const scan = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
      const match = pattern.exec(output);
      if (match) stop(null, match);
    };
    const closed = () => stop(new Error(`${what} exited (${child.exitCode ?? child.signalCode}): ${output.slice(-2000)}`));
    // Its last output is read by "close"; a process it started may hold the pipes open longer, so 2 s after "exit" at most.
    const exited = () => (graceTimer = setTimeout(closed, 2000));
    child.stdout!.on("data", scan);
    child.stderr!.on("data", scan);
    child.once("exit", exited);
    child.once("close", closed);
  });
}

async function startServer(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawnTs(script, env);
  const match = await waitFor(child, /(http:\/\/127\.0\.0\.1:[0-9]+)/, script);
  child.stdout!.resume();
  child.stderr!.resume();
  return { child, url: match[1]! };
}

/** User + system CPU milliseconds of a live process (Linux /proc; 0 elsewhere). */
function processCpuMs(pid: number | undefined): number {
  try {
    return statCpuMs(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return 0;
  }
}

async function costs(emulatorUrl: string): Promise<Map<string, Points>> {
  const response = await fetch(`${emulatorUrl}/__admin/costs`);
  const body = (await response.json()) as { operations: Record<string, Points> };
  return new Map(Object.entries(body.operations));
}

type Run = {
  label: string;
  n: number;
  plan: string;
  figures: JobFigures;
  peakRssMb: number[];
  points: Map<string, Points>;
  emulatorCpuMs: number;
  sandboxCpuMs: number;
  /** The sandbox's milliseconds with k purchases in flight, from the first purchase to the end of the job. */
  inFlightMs: number[];
  /** Labels the sandbox sold in the run: one per order, one per location for an order shipping from several. */
  purchases: number;
};

/**
 * What a stall histogram (libuv's 10 ms timer, as every app process of the bench runs one) costs in CPU per second,
 * measured here with nothing else to do: the quietest of three 1 s windows with it, less the quietest of three
 * without (this process's own wakeups). Counted as the app's in the figures; an idle process wakes for the timer
 * alone, so a busy one pays less.
 */
async function stallMonitorCostMsPerS(): Promise<number> {
  const window = async (histogram: boolean) => {
    const monitor = monitorEventLoopDelay({ resolution: STALL_TICK_MS });
    const before = process.cpuUsage();
    if (histogram) monitor.enable();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    monitor.disable();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000;
  };
  const withIt: number[] = [];
  const without: number[] = [];
  for (let i = 0; i < 3; i++) {
    withIt.push(await window(true));
    without.push(await window(false));
  }
  return Math.max(0, Math.min(...withIt) - Math.min(...without));
}

type Settings = { n: number; minMs: number; maxMs: number; concurrency: number };
type WorkerResult = { budgetStatements: number; userMs: number; systemMs: number; otherThreadsMs: number | null; peakRss: number; loopDelayP99Ms: number; loopDelayMaxMs: number; monitoredMs: number };

/**
 * One bulk job of `n` orders on `plan`: SQLite in an app process of its own, or PostgreSQL in child processes (two
 * workers). `warmJobs` (SQLite only): the app process first runs that many jobs of `n` other orders each,
 * unmeasured, as a process that has served for a while would have; the figures are the next job's, from its
 * preflight on.
 */
async function runJob(settings: Settings, plan: string, adapter: "sqlite" | "postgresql", warmJobs = 0): Promise<Run> {
  const warm = warmJobs > 0;
  const { n, minMs, maxMs, concurrency } = settings;
  const dir = mkdtempSync(path.join(tmpdir(), "etiquette-bench-bulk-"));
  const children: ChildProcess[] = [];
  let dropDatabase = async () => {};
  try {
    // A warm run measures the cold run's orders and warms up on others, `n` per job.
    const seeded = benchSeed((1 + warmJobs) * n, path.join(dir, "seed.json"));
    const orderIds = seeded.slice(0, n);
    const [emulator, sandbox] = await Promise.all([
      startServer("emulators/shopify-admin/cli.ts", { SHOPIFY_EMULATOR_PORT: "0", SHOPIFY_EMULATOR_SEED: path.join(dir, "seed.json"), SHOPIFY_EMULATOR_PLAN: plan }),
      startServer("emulators/label-sandbox/cli.ts", { LABEL_SANDBOX_PORT: "0", LABEL_SANDBOX_FAULTS: JSON.stringify({ latency: { probability: 1, minMs, maxMs } }) }),
    ]);
    children.push(emulator.child, sandbox.child);
    // What the emulators counted before the measured job (for a warm run, taken again once the unmeasured jobs are
    // done; the sandbox's purchases and time in flight start from zero either way).
    const baseline = async () => ({
      points: await costs(emulator.url),
      emulatorCpuMs: processCpuMs(emulator.child.pid),
      sandboxCpuMs: processCpuMs(sandbox.child.pid),
    });
    let before = await baseline();

    let figures: JobFigures;
    const peakRssMb: number[] = [];
    let label: string;
    if (adapter === "sqlite") {
      const file = path.join(dir, "app.sqlite");
      migrateSqliteFile(file);
      writeFileSync(path.join(dir, "orders.json"), JSON.stringify(orderIds));
      const config: BenchAppConfig = { databaseUrl: `file:${file}`, emulatorUrl: emulator.url, sandboxUrl: sandbox.url, concurrency };
      const warmUp: Record<string, string> = {};
      if (warm) {
        writeFileSync(path.join(dir, "warm-up.json"), JSON.stringify(seeded.slice(n)));
        Object.assign(warmUp, { BENCH_WORKER_WARM_UP_ORDERS: path.join(dir, "warm-up.json"), BENCH_WORKER_GO: path.join(dir, "go") });
      }
      const child = spawnTs("scripts/bench-bulk/worker.ts", { BENCH_WORKER_ROLE: "embedded", BENCH_WORKER_CONFIG: JSON.stringify(config), BENCH_WORKER_ORDERS: path.join(dir, "orders.json"), ...warmUp });
      children.push(child);
      if (warm) {
        // The unmeasured jobs are done: the emulators' counts start again from here (the sandbox's in-flight tally from
        // the next purchase, as in a cold run), then the app process goes on with the measured job's preflight.
        await waitFor(child, /^warm$/m, "app process (its unmeasured jobs)", JOB_TIMEOUT_MS * warmJobs);
        await fetch(`${sandbox.url}/__admin/stats`, { method: "DELETE" });
        before = await baseline();
        writeFileSync(warmUp.BENCH_WORKER_GO!, "");
      }
      figures = JSON.parse((await waitFor(child, /^result (.*)\n/m, "app process", JOB_TIMEOUT_MS))[1]!) as JobFigures;
      // It exits by itself once it printed; a profiled one needs the time to write its profile.
      if (process.env.BENCH_CPU_PROF && child.exitCode === null) await new Promise((resolve) => child.once("exit", resolve));
      peakRssMb.push(figures.peakRss / 1024 / 1024);
      const warmUpJobs = `${warmJobs} unmeasured job${warmJobs === 1 ? "" : "s"} of ${n} orders`;
      label = warm ? `embedded queue on SQLite, 1 app process, after ${warmUpJobs} (warm)` : "embedded queue on SQLite, 1 app process";
    } else {
      const database = await createPostgresTestDatabase();
      dropDatabase = database.drop;
      generatePostgresClient(database.url);
      const config: BenchAppConfig = { databaseUrl: database.url, emulatorUrl: emulator.url, sandboxUrl: sandbox.url, concurrency };
      const env = (role: string) => ({ BENCH_WORKER_ROLE: role, BENCH_WORKER_CONFIG: JSON.stringify(config), BENCH_WORKER_ORDERS: path.join(dir, "orders.json"), BENCH_POSTGRES_CLIENT: POSTGRES_CLIENT_DIR });
      writeFileSync(path.join(dir, "orders.json"), JSON.stringify(orderIds));
      const workers: Promise<RegExpExecArray>[] = [];
      for (let i = 0; i < 2; i++) {
        const child = spawnTs("scripts/bench-bulk/worker.ts", env("worker"), [POSTGRES_ALIAS_HOOK]);
        children.push(child);
        await waitFor(child, /^ready$/m, `worker ${i + 1}`);
        workers.push(waitFor(child, /^result (.*)\n/m, `worker ${i + 1}`, JOB_TIMEOUT_MS));
      }
      const creator = spawnTs("scripts/bench-bulk/worker.ts", env("creator"), [POSTGRES_ALIAS_HOOK]);
      children.push(creator);
      figures = JSON.parse((await waitFor(creator, /^result (.*)\n/m, "job creator", JOB_TIMEOUT_MS))[1]!) as JobFigures;
      peakRssMb.push(figures.peakRss / 1024 / 1024);
      for (const child of children.slice(2, 4)) child.kill("SIGTERM");
      for (const pending of workers) {
        const result = JSON.parse((await pending)[1]!) as WorkerResult;
        figures.userMs += result.userMs;
        figures.budgetStatements += result.budgetStatements;
        figures.systemMs += result.systemMs;
        figures.otherThreadsMs = figures.otherThreadsMs === null || result.otherThreadsMs === null ? null : figures.otherThreadsMs + result.otherThreadsMs;
        peakRssMb.push(result.peakRss / 1024 / 1024);
        figures.loopDelayP99Ms = Math.max(figures.loopDelayP99Ms, result.loopDelayP99Ms);
        figures.loopDelayMaxMs = Math.max(figures.loopDelayMaxMs, result.loopDelayMaxMs);
        // The workers run the items: their longest stall is the run's.
        figures.loopDelayMaxByStepMs.run = Math.max(figures.loopDelayMaxByStepMs.run, result.loopDelayMaxMs - STALL_TICK_MS);
        figures.monitoredMs += result.monitoredMs;
      }
      // Profiled workers write their profiles as they exit: not to be stopped again by the cleanup below.
      if (process.env.BENCH_CPU_PROF)
        for (const child of children.slice(2, 4)) if (child.exitCode === null) await new Promise((resolve) => child.once("exit", resolve));
      label = "pg-boss on PostgreSQL, 2 worker processes (+ 1 creating the job; CPU and RSS of all three)";
    }
    const emulatorCpuMs = processCpuMs(emulator.child.pid) - before.emulatorCpuMs;
    const sandboxCpuMs = processCpuMs(sandbox.child.pid) - before.sandboxCpuMs;
    const stats = (await (await fetch(`${sandbox.url}/__admin/stats`)).json()) as { purchasesInFlightMs: (number | null)[]; purchases: number };
    const inFlightMs = stats.purchasesInFlightMs.map((ms) => ms ?? 0);
    const pointsAfter = await costs(emulator.url);
    const points = new Map<string, Points>();
    for (const [name, after] of pointsAfter) {
      const earlier = before.points.get(name) ?? { calls: 0, requested: 0, actual: 0, throttled: 0 };
      const calls = after.calls - earlier.calls;
      if (calls > 0) points.set(name, { calls, requested: after.requested - earlier.requested, actual: after.actual - earlier.actual, throttled: after.throttled - earlier.throttled });
    }
    return { label, n, plan, figures, peakRssMb, points, emulatorCpuMs, sandboxCpuMs, inFlightMs, purchases: stats.purchases };
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
    await dropDatabase().catch((error: unknown) => console.error("could not drop the bench database:", error));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The ideal label's CPU (ideal.ts) on a seed order that the bench labels, `concurrency` at a time: the quietest of three runs. */
async function idealLabelCpu(concurrency: number): Promise<IdealFigures> {
  const seed = JSON.parse(readFileSync(DEFAULT_SEED_FILE, "utf8")) as { shops: { orders: SeedOrder[] }[] };
  const order = seed.shops[0]!.orders.find((candidate) => candidate.number === READY_NUMBERS[0])!;
  const runs: IdealFigures[] = [];
  for (let i = 0; i < 3; i++) runs.push(await measureIdealLabelCpu({ labels: 300, concurrency, orderLine: JSON.stringify(order) }));
  return runs.reduce((quietest, run) => (run.cpuMsPerLabel < quietest.cpuMsPerLabel ? run : quietest));
}

function report(run: Run, { settings, monitorMsPerS, ideal }: { settings: Settings; monitorMsPerS: number; ideal: IdealFigures }): void {
  const bucket = PLAN_BUCKETS[run.plan]!;
  const { figures } = run;
  const labelled = Math.max(1, figures.counts.labelled ?? 0);
  let requested = 0;
  let spent = 0;
  let throttled = 0;
  for (const points of run.points.values()) {
    requested += points.requested;
    spent += points.actual;
    throttled += points.throttled;
  }
  const latencyS = (settings.minMs + settings.maxMs) / 2 / 1000;
  // The service's bound counts purchases, not orders: an order shipping from several locations buys one label each.
  const purchases = Math.max(1, run.purchases);
  const serviceBound = (purchases * latencyS) / settings.concurrency;
  const perLabel = spent / labelled;
  const shopifyBound = (run.n * perLabel) / bucket.restore;
  const bound = Math.max(serviceBound, shopifyBound);
  const wallS = figures.wallMs / 1000;
  console.log(`\nBulk job: ${run.n} orders, ${run.plan} plan (${bucket.size} points, ${bucket.restore}/s), label latency ${settings.minMs}-${settings.maxMs} ms, concurrency ${settings.concurrency}, ${run.label}, Node ${process.versions.node}`);
  console.log(`  counts: ${JSON.stringify(figures.counts)}; ${run.purchases} labels bought; preflight (before Start) ${(figures.preflightMs / 1000).toFixed(1)} s; Start to job created ${(figures.creationMs / 1000).toFixed(1)} s`);
  if (figures.notLabelled.length > 0) console.log(`  not labelled: ${figures.notLabelled.map(([key, count]) => `${count} ${key}`).join(", ")}`);
  console.log(`  wall from Start ${wallS.toFixed(1)} s; bound max(P·L/C = ${serviceBound.toFixed(1)} s, N·c/restore = ${shopifyBound.toFixed(1)} s) = ${bound.toFixed(1)} s; ratio ${(wallS / bound).toFixed(2)} (target ≤ 1.15)`);
  const withPreflightS = wallS + figures.preflightMs / 1000;
  console.log(`  with the preflight before it ${withPreflightS.toFixed(1)} s; ratio ${(withPreflightS / bound).toFixed(2)}`);
  console.log(`  Shopify points per label: requested ${(requested / labelled).toFixed(1)}, spent ${perLabel.toFixed(1)} (target ≤ 45); THROTTLED answers ${throttled}`);
  console.log("  operation                            calls/label   requested/call   spent/call");
  for (const [name, points] of [...run.points].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`  ${name.padEnd(36)} ${(points.calls / labelled).toFixed(2).padStart(11)} ${(points.requested / points.calls).toFixed(1).padStart(16)} ${(points.actual / points.calls).toFixed(1).padStart(12)}`);
  }
  const cpuMs = figures.userMs + figures.systemMs;
  const fromStartMs = (cpuMs - figures.preflightCpuMs) / purchases;
  console.log(
    `  app CPU ${(cpuMs / 1000).toFixed(1)} s (user ${(figures.userMs / 1000).toFixed(1)}, system ${(figures.systemMs / 1000).toFixed(1)}) = ${((cpuMs / (figures.wallMs + figures.preflightMs)) * 100).toFixed(2)} % of wall (target < 2 %), ${(cpuMs / purchases).toFixed(1)} ms per label bought (the preflight's ${(figures.preflightCpuMs / 1000).toFixed(1)} s included; from Start ${fromStartMs.toFixed(1)} ms per label); peak RSS ${run.peakRssMb.map((mb) => `${mb.toFixed(0)} MB`).join(" / ")}; event loop delay in the run p99 ${figures.loopDelayP99Ms.toFixed(0)} ms (the ${STALL_TICK_MS} ms tick included), max ${figures.loopDelayMaxMs.toFixed(0)} ms; longest stall beyond the tick in the preflight ${figures.loopDelayMaxByStepMs.preflight.toFixed(0)} ms, the creation ${figures.loopDelayMaxByStepMs.creation.toFixed(0)} ms, the run in every process running items ${figures.loopDelayMaxByStepMs.run.toFixed(0)} ms`,
  );
  // What the target allows: 2 % of the wall from Start, shared by the labels bought.
  const allowedMs = (0.02 * figures.wallMs) / purchases;
  console.log(
    `  CPU per label from Start ${fromStartMs.toFixed(1)} ms = ${(fromStartMs / ideal.cpuMsPerLabel).toFixed(1)}× the ideal label's ${ideal.cpuMsPerLabel.toFixed(2)} ms; the 2 % target allows ${allowedMs.toFixed(2)} ms per label at this wall (${(allowedMs / ideal.cpuMsPerLabel).toFixed(2)}× the ideal)`,
  );
  const monitorMs = monitorMsPerS * (figures.monitoredMs / 1000);
  console.log(
    `  of that CPU, the bench's stall histograms (a ${STALL_TICK_MS} ms timer in each app process, ${(figures.monitoredMs / 1000).toFixed(0)} s of them in all, ${monitorMsPerS.toFixed(1)} ms of CPU per second when idle): at most about ${(monitorMs / 1000).toFixed(1)} s, ${(monitorMs / purchases).toFixed(1)} ms per label`,
  );
  if (figures.otherThreadsMs !== null) {
    // What a JavaScript profile of the app does not show (decision 0217): mostly V8's optimizing compiler.
    console.log(
      `  of the CPU from Start (each worker's from its start), threads other than each process's main thread (V8's compiler and GC helpers, libuv's pool, tsx's module hooks): ${(figures.otherThreadsMs / 1000).toFixed(1)} s, ${(figures.otherThreadsMs / purchases).toFixed(1)} ms per label`,
    );
  }
  const calls = [...run.points.values()].reduce((sum, points) => sum + points.calls, 0);
  console.log(`  Shopify budget: ${figures.budgetStatements} SQL statements = ${(figures.budgetStatements / labelled).toFixed(2)} per label, ${(figures.budgetStatements / Math.max(1, calls)).toFixed(2)} per Admin call`);
  const tallied = run.inFlightMs.reduce((sum, ms) => sum + ms, 0);
  if (tallied > 0) {
    const mean = run.inFlightMs.reduce((sum, ms, k) => sum + ms * k, 0) / tallied;
    const full = (run.inFlightMs[settings.concurrency] ?? 0) / tallied;
    const perPurchase = run.inFlightMs.reduce((sum, ms, k) => sum + ms * k, 0) / purchases;
    console.log(
      `  label service kept busy: ${mean.toFixed(2)} of ${settings.concurrency} purchases in flight on average over the ${(tallied / 1000).toFixed(1)} s from the first purchase to the end (all ${settings.concurrency}: ${(full * 100).toFixed(1)} % of that time); ${perPurchase.toFixed(0)} ms per purchase at the service`,
    );
  }
  console.log(`  emulators' CPU: Shopify ${(run.emulatorCpuMs / 1000).toFixed(1)} s, label sandbox ${(run.sandboxCpuMs / 1000).toFixed(1)} s`);
}

export async function benchBulk(): Promise<void> {
  // The emulators log at warn. The app's processes log as in production (spawnTs).
  process.env.LOG_LEVEL ??= "warn";
  const n = Number(process.env.BENCH_BULK_N ?? 500);
  const plans = (process.env.BENCH_BULK_PLANS ?? process.env.BENCH_BULK_PLAN ?? "standard,advanced,plus").split(",").map((plan) => plan.trim()).filter(Boolean);
  const pgPlan = process.env.BENCH_BULK_PG_PLAN ?? "standard";
  const [minMs, maxMs] = (process.env.BENCH_BULK_LATENCY_MS ?? "300-800").split("-").map(Number) as [number, number];
  const concurrency = Number(process.env.LABEL_SERVICE_MAX_CONCURRENCY ?? 4);
  const warmSetting = process.env.BENCH_BULK_WARM?.trim() || "3";
  if (!/^[0-9]+$/.test(warmSetting)) {
    throw new Error(`BENCH_BULK_WARM must be a whole number of jobs, 0 to skip the warm run (got "${process.env.BENCH_BULK_WARM}")`);
  }
  const warmJobs = Number(warmSetting);
  for (const plan of [...plans, pgPlan]) {
    if (!PLAN_BUCKETS[plan]) throw new Error(`plans must be among ${Object.keys(PLAN_BUCKETS).join(", ")} (got "${plan}")`);
  }
  const settings: Settings = { n, minMs, maxMs, concurrency };
  const monitorMsPerS = await stallMonitorCostMsPerS();
  const ideal = await idealLabelCpu(concurrency);
  console.log(
    `\nIdeal label (scripts/bench-bulk/ideal.ts: the order's line parsed, 3 commits with the raw driver, 2 HTTP exchanges on node:http, nothing else; the quietest of 3 runs of ${ideal.labels}): ${ideal.cpuMsPerLabel.toFixed(2)} ms of CPU per label, ${ideal.databaseCpuMsPerLabel.toFixed(2)} of them in the commits`,
  );
  const base = { settings, monitorMsPerS, ideal };
  for (const plan of plans) report(await runJob(settings, plan, "sqlite"), base);
  // A process that has served for a while: its code compiled and optimized, its caches filled (BENCH_BULK_WARM=0 skips it).
  const lastPlan = plans.at(-1);
  if (lastPlan && warmJobs > 0) report(await runJob(settings, lastPlan, "sqlite", warmJobs), base);
  if (process.env.BENCH_BULK_PG !== "0") report(await runJob(settings, pgPlan, "postgresql"), base);
}
