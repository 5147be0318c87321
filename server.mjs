/**
 * The production server (`npm start`): remix-serve's static files and request handler, plus what an operator needs.
 *  - One JSON log line per request: requestId (X-Request-Id when given, else a new one, echoed back), method, path
 *    (never the query string: it carries Shopify's signed parameters and session tokens), status, durationMs.
 *  - SIGTERM/SIGINT: stop accepting connections and jobs at once; answer the requests in flight and let running jobs
 *    record their outcome (bounded by the queue's grace, 25 s); close the database; exit 0 (130 after SIGINT).
 * PORT (default 3000) and HOST (default all interfaces) choose where it listens.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import express from "express";

// The app's own signal handlers (app/jobs/boot.server.ts) stand down: this server orders the shutdown.
globalThis.__etiquetteJobsSignals = true;

const build = await import(pathToFileURL(path.resolve(process.env.SERVER_BUILD ?? "build/server/index.js")).href);
const { operations } = build.entry.module;
const log = operations.moduleLogger("http");

const app = express();
app.disable("x-powered-by");
app.use(build.publicPath, express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y" }));
app.use(express.static("public", { maxAge: "1h" }));

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;
app.use((req, res, next) => {
  const given = req.get("x-request-id");
  const requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader("x-request-id", requestId);
  const started = process.hrtime.bigint();
  res.once("close", () => {
    const durationMs = Math.round(Number(process.hrtime.bigint() - started) / 1e6);
    const fields = { requestId, method: req.method, path: req.path, status: res.statusCode, durationMs };
    if (!res.writableFinished) log.warn({ ...fields, aborted: true }, "request aborted");
    else if (res.statusCode >= 500) log.error(fields, "request");
    else log.info(fields, "request");
  });
  operations.withRequestId(requestId, next);
});
app.all("*", createRequestHandler({ build, mode: build.mode }));

const port = Number(process.env.PORT ?? 3000);
const server = app.listen(port, process.env.HOST, () => {
  const address = server.address();
  log.info({ port: typeof address === "object" && address ? address.port : port }, "listening");
});

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "stopping: no new connection or job; finishing the requests and jobs in flight");
    const serverClosed = new Promise((resolve) => server.close(resolve));
    server.closeIdleConnections();
    const bound = operations.STOP_GRACE_MS + 5_000;
    const timer = setTimeout(() => {
      log.warn({ afterMs: bound }, "requests still open after the grace period: closing them");
      server.closeAllConnections();
    }, bound);
    timer.unref();
    void Promise.all([serverClosed, operations.stopJobs(operations.STOP_GRACE_MS)])
      .then(() => operations.closeDatabase())
      .finally(() => {
        log.info({ signal }, "stopped");
        process.exit(signal === "SIGINT" ? 130 : 0);
      });
  });
}
