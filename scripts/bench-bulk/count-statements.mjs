/**
 * Measurement hook (decision 0194), not part of the app: `NODE_OPTIONS="--import ./scripts/bench-bulk/count-statements.mjs"`
 * counts, in every Node process that loads libSQL, how many statements were prepared (`Database#prepare`, the native
 * call) and how many were executed (`Statement#run`, `#all`, `#get`), and writes them as one JSON line per process to
 * the file named by STATEMENT_COUNTS_FILE when the process ends (exit or SIGTERM).
 */
import { appendFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const out = process.env.STATEMENT_COUNTS_FILE;
if (out) {
  const require = createRequire(path.join(process.cwd(), "package.json"));
  const Database = require("libsql");
  const counts = { prepares: 0, executions: 0 };
  const database = Database.prototype;
  const prepare = database.prepare;
  database.prepare = function countedPrepare(sql) {
    counts.prepares += 1;
    return prepare.call(this, sql);
  };
  const statement = Object.getPrototypeOf(prepare.call(new Database(":memory:"), "SELECT 1"));
  for (const name of ["run", "all", "get"]) {
    const original = statement[name];
    statement[name] = function countedExecution(...args) {
      counts.executions += 1;
      return original.apply(this, args);
    };
  }
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    appendFileSync(out, `${JSON.stringify({ pid: process.pid, script: process.argv.at(-1), role: process.env.BENCH_WORKER_ROLE ?? null, ...counts })}\n`);
  };
  process.on("exit", write);
  process.once("SIGTERM", () => {
    write();
    process.exit(143);
  });
}
