/**
 * `npm run bench`: speed and memory of the app's hot paths, each with the ratio to an "ideal" floor measured on the
 * same machine in the same run. Nothing here asserts a time; it prints figures to compare across changes.
 *
 *  - purchase: purchaseLabel() for N distinct orders on SQLite, with a label service that answers instantly.
 *    Ideal: the same rows written with raw libSQL statements (the same driver as the app) (what the database must do anyway).
 *  - mapper (when app/shipping is present): order -> label request for N orders. Ideal: a JSON round trip of the
 *    same orders (reading the input and writing an output of similar size).
 *  - item clients (scripts/bench-context.ts): a bulk item's offline Admin client and label-service client built as
 *    every item built them before decision 0225. Ideal: the clients an app process keeps (checked per item).
 *  - log line (scripts/bench-log.ts): one info line through the app's logger, redaction included. Ideal: the same
 *    line from pino without the app's redaction and request-id mixin.
 *  - Shopify points per label: the demo's orders labelled from their page through the real code path against the
 *    emulators; points requested and spent over every Admin call (scripts/bench-shopify.ts).
 *
 *  - admin extensions: each built bundle's deflated size beside Shopify's 64 KB limit (scripts/extension-sizes.ts).
 *
 *  - bulk: 500-order bulk jobs (BENCH_BULK_N) on each Shopify plan (SQLite, the embedded queue), once more in an app
 *    process warmed by three unmeasured jobs (BENCH_BULK_WARM), and on PostgreSQL with pg-boss and two workers,
 *    against the sandbox's latency and the emulator's cost throttle, each against its physical bound
 *    (scripts/bench-bulk.ts). About 30 minutes of the whole bench's time (the Standard plan's budget alone bounds a
 *    job at 6 to 7 minutes); BENCH_BULK_PLANS=plus BENCH_BULK_PG=0 BENCH_BULK_WARM=0 takes under 2.
 *
 * BENCH_ONLY=speed, shopify, bulk, extensions or print runs only that one (print: scripts/bench-print.ts, merging 500
 * labels into one PDF).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import Database from "libsql";
import { createPrismaClient } from "../app/db.server";
import { exampleLabelRequest } from "../app/label-service/__fixtures__/example-request";
import type { LabelRequest } from "../app/label-service/contract";
import { purchaseLabel, type LabelServicePort } from "../app/labels/purchase.server";
import { migrateSqliteFile } from "../test/helpers/test-db";
import { benchBulk } from "./bench-bulk";
import { benchItemContext } from "./bench-context";
import { benchLogLine } from "./bench-log";
import { benchLabelPoints, printLabelPoints } from "./bench-shopify";
import { extensionSizes, formatSizes } from "./extension-sizes";

const N = Number(process.env.BENCH_N ?? 500);
// The app's info lines would bury the figures (the bulk jobs log 7 or so per label); LOG_LEVEL=info keeps them.
process.env.LOG_LEVEL ??= "warn";
// A purchase seals the recipient at rest (decision 0172): a throwaway key when the bench runs without one.
process.env.ENCRYPTION_KEY ??= randomBytes(32).toString("hex");

interface Result {
  name: string;
  n: number;
  ms: number;
  idealMs: number;
  heapMb: number;
}

function request(reference: string): LabelRequest {
  return exampleLabelRequest({ custom_reference: reference });
}

async function benchPurchase(dir: string): Promise<Result> {
  const file = path.join(dir, "purchase.sqlite");
  migrateSqliteFile(file);
  const db = createPrismaClient(`file:${file}`);
  let counter = 0;
  const service: LabelServicePort = {
    async generateLabel() {
      counter += 1;
      return { status: "created", label: { id: `L${counter}`, reference: `T${counter}`, label_url: "u", tracking_url: "t" } };
    },
    async lookUpLabelByReference() {
      return { status: "absent" };
    },
  };
  await purchaseLabel({ db, service }, { shop: "warm.myshopify.com", environment: "staging", orderId: "warm", orderName: "#0", buildRequest: request });
  const heapBefore = process.memoryUsage().heapUsed;
  const start = performance.now();
  for (let i = 0; i < N; i += 1) {
    await purchaseLabel({ db, service }, { shop: "bench.myshopify.com", environment: "staging", orderId: `gid://shopify/Order/${i}`, orderName: `#${i}`, buildRequest: request });
  }
  const ms = performance.now() - start;
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
  await db.$disconnect();

  // Ideal: the same inserts and updates, as prepared statements on the raw driver.
  const idealFile = path.join(dir, "ideal.sqlite");
  migrateSqliteFile(idealFile);
  const raw = new Database(idealFile);
  raw.exec("PRAGMA journal_mode = WAL"); // as the app's connections (app/db-adapters.ts)
  const counterUpsert = raw.prepare(
    `INSERT INTO ReferenceCounter (shop, day, value) VALUES (?, ?, 1) ON CONFLICT(shop, day) DO UPDATE SET value = value + 1 RETURNING value`,
  );
  const attemptInsert = raw.prepare(
    `INSERT INTO PurchaseAttempt (id, shop, orderId, orderName, environment, customReference, orderSlot, labelIndex, status, requestJson, reconcileCount, createdAt, updatedAt) VALUES (?, ?, ?, ?, 'staging', ?, ?, 1, 'PENDING', ?, 0, ?, ?)`,
  );
  const labelInsert = raw.prepare(
    `INSERT INTO Label (id, shop, orderId, orderName, environment, customReference, serviceLabelId, trackingNumber, trackingUrl, labelUrl, carrierName, carrierServiceName, labelFormat, requestSnapshotJson, fulfillmentStatus, metafieldWritten, createdAt, updatedAt) VALUES (?, ?, ?, ?, 'staging', ?, ?, ?, 't', 'u', 'Dhl', 'P', 'PDF_A4_300dpi', ?, 'PENDING', 0, ?, ?)`,
  );
  const attemptDone = raw.prepare(`UPDATE PurchaseAttempt SET status = 'CREATED', labelId = ? WHERE id = ?`);
  const idealStart = performance.now();
  for (let i = 0; i < N; i += 1) {
    const now = Date.now();
    const { value } = counterUpsert.get("bench", "20261122") as { value: number };
    const reference = `20261122-${String(value).padStart(3, "0")}`;
    const json = JSON.stringify(request(reference));
    attemptInsert.run(`a${i}`, "bench", `o${i}`, `#${i}`, reference, `bench|o${i}|1`, json, now, now);
    labelInsert.run(`l${i}`, "bench", `o${i}`, `#${i}`, reference, `L${i}`, `T${i}`, json, now, now);
    attemptDone.run(`l${i}`, `a${i}`);
  }
  const idealMs = performance.now() - idealStart;
  raw.close();
  return { name: "purchase (SQLite)", n: N, ms, idealMs, heapMb };
}

const only = process.env.BENCH_ONLY;
const dir = mkdtempSync(path.join(tmpdir(), "etiquette-bench-"));
try {
  if (!only || only === "speed") await benchSpeed();
  if (!only || only === "shopify") printLabelPoints(await benchLabelPoints());
  if (!only || only === "bulk") await benchBulk();
  if (!only || only === "extensions") console.log(formatSizes(extensionSizes({ build: "if-stale" })));
  // In a process of its own: its peak RSS is the merge's and the runtime's, not the other benches' leftovers.
  if (!only || only === "print") {
    const tsx = path.join(path.dirname(fileURLToPath(import.meta.url)), "../node_modules/.bin/tsx");
    spawnSync(tsx, ["-e", 'import("./scripts/bench-print.ts").then((bench) => bench.benchPrint())'], { stdio: "inherit", cwd: path.join(path.dirname(fileURLToPath(import.meta.url)), "..") });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

async function benchSpeed() {
  const results: Result[] = [await benchPurchase(dir), await benchItemContext(dir, N), benchLogLine(N * 40)];
  try {
    // Optional until the mapper exists: a variable path keeps the type checker from requiring the module.
    const mapperModule = "./bench-mapper";
    const mapperBench = (await import(mapperModule)) as { benchMapper: (n: number) => Promise<Result> };
    results.push(await mapperBench.benchMapper(N * 20));
  } catch (error) {
    if ((error as { code?: string }).code !== "ERR_MODULE_NOT_FOUND") throw error;
  }
  console.log(`node ${process.version}, ${N} purchases`);
  console.log("bench                      n      total ms   per item µs   ideal ms   ratio to ideal   heap Δ MB");
  for (const result of results) {
    console.log(
      `${result.name.padEnd(24)} ${String(result.n).padStart(6)} ${result.ms.toFixed(1).padStart(12)} ${((result.ms * 1000) / result.n).toFixed(1).padStart(13)} ${result.idealMs.toFixed(1).padStart(10)} ${(result.ms / result.idealMs).toFixed(2).padStart(16)} ${result.heapMb.toFixed(1).padStart(11)}`,
    );
  }
}
