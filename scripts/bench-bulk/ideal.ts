/**
 * The least CPU one label of a bulk job can cost on this machine (the "ideal" of the bulk bench's CPU figure, as
 * scripts/bench.ts measures one for the purchase and the mapper). It does only what a label cannot skip, with the
 * leanest tools Node offers, and nothing else:
 *  - parse the order as the bulk read gives it (one JSON line);
 *  - three durable commits on the app's schema with the raw libSQL driver, in WAL mode with `synchronous` FULL as the
 *    app's connections: the attempt and its reference before the purchase; the label and the settled attempt after
 *    it; the fulfillment's id after Shopify answered (the item's status could ride in that same commit);
 *  - two HTTP exchanges on a kept-alive `node:http` agent with bodies of the real sizes: the label request and its
 *    answer, the fulfillment mutation and its answer, each parsed.
 * No queue, no semaphore, no Shopify budget, no logging, no validation, no mapping: the app does all of these, so the
 * ratio of its CPU per label to this one says how much its own layers cost, not whether it can reach zero. The peer
 * answering the exchanges runs in a child process (its CPU is not counted) and waits `replyDelayMs` before each answer,
 * so each answer wakes this process on its own, as the emulators' latency makes it in a job.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "libsql";
import { exampleLabelRequest } from "../../app/label-service/__fixtures__/example-request";
import { FULFILLMENT_CREATE_MUTATION } from "../../app/shopify/operations/fulfillment";
import { migrateSqliteFile } from "../../test/helpers/test-db";

/** A peer that answers every POST with a body of `size` bytes of JSON after `delayMs`, in a process of its own. */
const PEER = `
const http = require("node:http");
let sold = 0;
const label = () => {
  const id = "0b7c6a52-31f4-4c8e-9d7e-" + String(++sold).padStart(12, "0");
  const reference = "JJD" + String(sold).padStart(13, "0");
  return JSON.stringify({ id, reference, label_url: "http://127.0.0.1/labels/" + id + ".pdf", tracking_url: "https://www.dhl.de/de/privatkunden/pakete-empfangen/verfolgen.html?piececode=" + reference, message: "Label created" });
};
const fulfillment = JSON.stringify({ data: { fulfillmentCreate: { fulfillment: { id: "gid://shopify/Fulfillment/5512345678901", status: "SUCCESS" }, userErrors: [] } }, extensions: { cost: { requestedQueryCost: 10, actualQueryCost: 10, throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 1990, restoreRate: 100 } } } });
const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => setTimeout(() => {
    const body = req.url === "/graphql" ? fulfillment : label();
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  }, Number(process.env.DELAY_MS)));
});
server.listen(0, "127.0.0.1", () => console.log("port " + server.address().port));
`;

/** CPU per label, and the part of it spent in the three commits. */
export type IdealFigures = { labels: number; cpuMsPerLabel: number; databaseCpuMsPerLabel: number };

function post(agent: http.Agent, port: number, route: string, body: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port, path: route, method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString("utf8"))));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(body);
  });
}

/** `labels` labels, `concurrency` at a time (the job's label-service concurrency), as `orderLine` read them. */
export async function measureIdealLabelCpu(options: { labels: number; concurrency: number; orderLine: string; replyDelayMs?: number }): Promise<IdealFigures> {
  const { labels, concurrency, orderLine } = options;
  const peer = spawn(process.execPath, ["-e", PEER], { env: { ...process.env, DELAY_MS: String(options.replyDelayMs ?? 20) }, stdio: ["ignore", "pipe", "inherit"] });
  const dir = mkdtempSync(path.join(tmpdir(), "etiquette-bench-ideal-"));
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  let opened: Database.Database | undefined;
  try {
    const first = await Promise.race([
      once(peer.stdout!, "data") as Promise<[Buffer]>,
      once(peer, "exit").then(([code]) => Promise.reject(new Error(`the ideal label's peer exited (${String(code)}) before it listened`))),
    ]);
    const port = Number(/port ([0-9]+)/.exec(first[0].toString())![1]);
    const file = path.join(dir, "ideal.sqlite");
    migrateSqliteFile(file);
    const db = new Database(file);
    opened = db;
    db.exec("PRAGMA journal_mode = WAL");
    const counter = db.prepare(`INSERT INTO ReferenceCounter (shop, day, value) VALUES (?, ?, 1) ON CONFLICT(shop, day) DO UPDATE SET value = value + 1 RETURNING value`);
    const attempt = db.prepare(
      `INSERT INTO PurchaseAttempt (id, shop, orderId, orderName, environment, customReference, orderSlot, labelIndex, status, requestJson, reconcileCount, createdAt, updatedAt) VALUES (?, ?, ?, ?, 'staging', ?, ?, 1, 'PENDING', ?, 0, ?, ?)`,
    );
    const label = db.prepare(
      `INSERT INTO Label (id, shop, orderId, orderName, environment, customReference, serviceLabelId, trackingNumber, trackingUrl, labelUrl, carrierName, carrierServiceName, labelFormat, requestSnapshotJson, fulfillmentStatus, metafieldWritten, createdAt, updatedAt) VALUES (?, ?, ?, ?, 'staging', ?, ?, ?, ?, ?, 'Dhl', 'n', 'PDF_A4_300dpi', ?, 'PENDING', 0, ?, ?)`,
    );
    const settled = db.prepare(`UPDATE PurchaseAttempt SET status = 'CREATED', labelId = ?, updatedAt = ? WHERE id = ?`);
    const fulfilled = db.prepare(`UPDATE Label SET fulfillmentStatus = 'CREATED', fulfillmentId = ?, updatedAt = ? WHERE id = ?`);
    // The database's share: its calls are synchronous, so the CPU around them is theirs alone.
    let databaseCpuUs = 0;
    const timed = (work: () => void) => {
      const before = process.cpuUsage();
      work();
      const used = process.cpuUsage(before);
      databaseCpuUs += used.user + used.system;
    };
    const inTransaction = (work: () => void) =>
      timed(() => {
        db.exec("BEGIN");
        work();
        db.exec("COMMIT");
      });
    let next = 0;
    const one = async (i: number) => {
      const order = JSON.parse(orderLine) as { name?: string };
      const orderId = `gid://shopify/Order/${i}`;
      const now = Date.now();
      const request = exampleLabelRequest({ custom_reference: "" });
      let body = "";
      inTransaction(() => {
        const { value } = counter.get("ideal", "20261127") as { value: number };
        request.custom_reference = `20261127-${String(value).padStart(3, "0")}`;
        // Serialized once: stored with the attempt, sent, and kept as the label's snapshot.
        body = JSON.stringify(request);
        attempt.run(`a${i}`, "ideal", orderId, order.name ?? `#${i}`, request.custom_reference, `ideal|${orderId}|1`, body, now, now);
      });
      const bought = (await post(agent, port, "/labels", body)) as { id: string; reference: string; label_url: string; tracking_url: string };
      inTransaction(() => {
        label.run(`l${i}`, "ideal", orderId, order.name ?? `#${i}`, request.custom_reference, bought.id, bought.reference, bought.tracking_url, bought.label_url, body, now, now);
        settled.run(`l${i}`, Date.now(), `a${i}`);
      });
      const variables = {
        fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: `gid://shopify/FulfillmentOrder/${i}` }], trackingInfo: { company: "DHL Express", number: bought.reference, url: bought.tracking_url }, notifyCustomer: true },
      };
      const answer = (await post(agent, port, "/graphql", JSON.stringify({ query: FULFILLMENT_CREATE_MUTATION, variables }))) as { data: { fulfillmentCreate: { fulfillment: { id: string } } } };
      timed(() => fulfilled.run(answer.data.fulfillmentCreate.fulfillment.id, Date.now(), `l${i}`));
    };
    const lane = async () => {
      for (let i = next++; i < labels; i = next++) await one(i);
    };
    // A whole pass first, not counted: the JIT and the connections warm up, as in a job's process long before its last label.
    await Promise.all(Array.from({ length: concurrency }, lane));
    next = 0;
    db.exec("DELETE FROM Label; DELETE FROM PurchaseAttempt; DELETE FROM ReferenceCounter");
    databaseCpuUs = 0;
    const before = process.cpuUsage();
    await Promise.all(Array.from({ length: concurrency }, lane));
    const used = process.cpuUsage(before);
    return { labels, cpuMsPerLabel: (used.user + used.system) / 1000 / labels, databaseCpuMsPerLabel: databaseCpuUs / 1000 / labels };
  } finally {
    opened?.close();
    agent.destroy();
    peer.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}
