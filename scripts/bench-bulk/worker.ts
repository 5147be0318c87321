/**
 * An app process of the bulk bench (started by scripts/bench-bulk.ts; on PostgreSQL with the PostgreSQL client, see
 * postgres-client.ts), with the app's wiring (app.ts). BENCH_WORKER_ROLE:
 *  - "worker": runs bulk items from pg-boss. Prints `ready` once its queue runs; on SIGTERM it stops and prints one
 *    `result {...}` line: its CPU time since ready, peak RSS and event-loop delay.
 *  - "creator": creates the job of BENCH_WORKER_ORDERS (a JSON file of order ids), waits for it, prints
 *    `result {...}` (the job's figures, runBulkJob) and exits. It runs no item.
 *  - "embedded": the same, and it runs the items too (the SQLite run: one app process with the embedded queue).
 *    With BENCH_WORKER_WARM_UP_ORDERS it first runs those orders, unmeasured, in jobs as large as the measured one
 *    (the warm run).
 * Each run gets fresh processes: the demo's Admin endpoint is installed once per process (app/demo), and the CPU and
 * RSS measured are that run's alone (a warm run's are its measured job's, from where the unmeasured ones left them).
 */
import { existsSync, readFileSync } from "node:fs";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { benchApp, budgetStatements, runBulkJob, STALL_TICK_MS, type BenchAppConfig } from "./app";
import { otherThreadsMsSince, threadCpu } from "./threads";

const config = JSON.parse(process.env.BENCH_WORKER_CONFIG ?? "{}") as BenchAppConfig;

const role = process.env.BENCH_WORKER_ROLE;
if (role === "creator" || role === "embedded") {
  const app = await benchApp(config, { work: role === "embedded" });
  const orders = (file: string) => JSON.parse(readFileSync(file, "utf8")) as string[];
  if (process.env.BENCH_WORKER_WARM_UP_ORDERS) {
    // A warm run: jobs as large as the measured one, unmeasured; then `warm`, and the measured job once the bench has
    // started its counts again (it creates the file BENCH_WORKER_GO).
    const measured = orders(process.env.BENCH_WORKER_ORDERS!).length;
    const warmUp = orders(process.env.BENCH_WORKER_WARM_UP_ORDERS);
    for (let from = 0; from < warmUp.length; from += measured) await runBulkJob(app, warmUp.slice(from, from + measured));
    console.log("warm");
    while (!existsSync(process.env.BENCH_WORKER_GO!)) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const figures = await runBulkJob(app, orders(process.env.BENCH_WORKER_ORDERS!));
  await app.close();
  console.log(`result ${JSON.stringify(figures)}`);
  process.exit(0);
} else {
  const app = await benchApp(config, { work: true });
  const delay = monitorEventLoopDelay({ resolution: STALL_TICK_MS });
  const monitorStart = performance.now();
  delay.enable();
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 500);
  const cpuStart = process.cpuUsage();
  const threadsAtStart = threadCpu();
  console.log("ready");
  process.once("SIGTERM", () => {
    const cpu = process.cpuUsage(cpuStart);
    const otherThreadsMs = otherThreadsMsSince(threadsAtStart);
    clearInterval(sampler);
    delay.disable();
    const monitoredMs = performance.now() - monitorStart;
    const result = { budgetStatements: budgetStatements.count, userMs: cpu.user / 1000, systemMs: cpu.system / 1000, otherThreadsMs, peakRss, loopDelayP99Ms: delay.percentile(99) / 1e6, loopDelayMaxMs: delay.max / 1e6, monitoredMs };
    void app.close().finally(() => {
      console.log(`result ${JSON.stringify(result)}`);
      process.exit(0);
    });
  });
}
