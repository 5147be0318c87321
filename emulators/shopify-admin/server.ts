/**
 * The Shopify Admin emulator's HTTP server.
 *
 *   POST /admin/api/2026-10/graphql.json                (shop chosen by the X-Shopify-Access-Token)
 *   POST /shops/<domain>/admin/api/2026-10/graphql.json (same, and the domain must match the token's shop)
 *   GET  /__admin/orders/<numeric id | name>[?shop=<domain>]   fulfillments, notifications, metafields of an order
 *   GET  /__admin/notifications[?shop=<domain>]
 *   POST /__admin/reset                                  back to the seed (and rewrites the data file)
 *   GET  /__admin/health
 *   GET  /__admin/costs                                  points requested and spent per operation name since start
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AddressInfo } from "node:net";
import { applyDeclaredDefinitions, DEFAULT_APP_CONFIG_FILE, loadAppConfig } from "./app-config";
import { CostBucket, PLAN_BUCKETS, type BucketOptions, type PlanName } from "./cost";
import { BulkOperations } from "./bulk";
import { runGraphql, type ShopRuntime } from "./execute";
import { API_VERSION, adminSchema } from "./schema";
import { loadSeedFile, parseSeed, type ParsedSeed, type Seed } from "./seed";
import { buildState, displayFulfillmentStatus, nextId, type ShopState } from "./state";
import { gid } from "./util";

export type { Seed } from "./seed";

export const DEFAULT_SEED_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), "seed", "default.json");
export const INVALID_TOKEN_BODY = { errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" };

export interface ShopifyEmulatorOptions {
  port?: number;
  host?: string;
  seed?: Seed | string;
  /** One bucket size and restore rate for every shop, whatever its plan (tests use tiny ones). */
  bucket?: BucketOptions;
  /** How long a bulk operation runs before it is COMPLETED, on the emulator's clock (default 300 ms). */
  bulkDurationMs?: number;
  /** The plan of shops whose seed names none (default standard). */
  plan?: PlanName;
  now?: () => number;
  dataFile?: string;
  /** shopify.app.toml whose declared metafield definitions every shop gets (default: the repo's); false for none. */
  appConfig?: string | false;
}

export interface ShopifyEmulator {
  url: string;
  port: number;
  close(): Promise<void>;
  shops: string[];
}

interface PersistedData {
  version: 1;
  seedDigest: string;
  shops: ShopState[];
}

function seedDigest(seed: ParsedSeed): string {
  return createHash("sha256").update(JSON.stringify(seed)).digest("hex");
}

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

async function readBody(req: http.IncomingMessage, limit = 1_000_000): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) throw new Error("request body too large");
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export async function startShopifyEmulator(opts: ShopifyEmulatorOptions = {}): Promise<ShopifyEmulator> {
  const now = opts.now ?? Date.now;
  const seed: ParsedSeed =
    opts.seed === undefined ? loadSeedFile(DEFAULT_SEED_FILE) : typeof opts.seed === "string" ? loadSeedFile(opts.seed) : parseSeed(opts.seed, "options.seed");
  const digest = seedDigest(seed);
  adminSchema(); // build the schema before the first request
  const planOf = (domain: string): PlanName => seed.shops.find((shop) => shop.domain === domain)?.plan ?? opts.plan ?? "standard";
  const bucketOf = (domain: string): BucketOptions => opts.bucket ?? PLAN_BUCKETS[planOf(domain)];

  const declared = opts.appConfig === false ? [] : loadAppConfig(opts.appConfig ?? DEFAULT_APP_CONFIG_FILE);
  let runtimes: ShopRuntime[] = [];
  let baseUrl = "";
  const install = (states: ShopState[]) => {
    for (const state of states) applyDeclaredDefinitions(state, declared, () => nextId(state, "definition"));
    runtimes = states.map((state) => ({ state, bucket: new CostBucket(bucketOf(state.domain), now), bulk: new BulkOperations(now, opts.bulkDurationMs ?? 300) }));
    for (const runtime of runtimes) if (runtime.bulk) runtime.bulk.baseUrl = baseUrl;
  };
  const persist = () => {
    if (!opts.dataFile) return;
    const data: PersistedData = { version: 1, seedDigest: digest, shops: runtimes.map((r) => r.state) };
    const temp = `${opts.dataFile}.tmp`;
    fs.mkdirSync(path.dirname(opts.dataFile), { recursive: true });
    fs.writeFileSync(temp, JSON.stringify(data));
    fs.renameSync(temp, opts.dataFile);
  };
  const restored = (() => {
    if (!opts.dataFile || !fs.existsSync(opts.dataFile)) return undefined;
    try {
      const data = JSON.parse(fs.readFileSync(opts.dataFile, "utf8")) as PersistedData;
      return data.version === 1 && data.seedDigest === digest ? data.shops : undefined;
    } catch {
      return undefined;
    }
  })();
  install(restored ?? buildState(seed));

  const shopFor = (url: URL): ShopRuntime | undefined => {
    const domain = url.searchParams.get("shop");
    return domain ? runtimes.find((r) => r.state.domain === domain) : runtimes[0];
  };

  const orderReport = (runtime: ShopRuntime, ref: string) => {
    const shop = runtime.state;
    const wanted = decodeURIComponent(ref).replace(/^#/, "");
    const order = shop.orders.find((o) => String(o.id) === wanted || o.name.replace(/^#/, "") === wanted || String(o.number) === wanted);
    if (!order) return undefined;
    const orderGid = gid("Order", order.id);
    return {
      shop: shop.domain,
      order: { id: orderGid, legacyResourceId: order.id, name: order.name, displayFulfillmentStatus: displayFulfillmentStatus(shop, order) },
      fulfillmentOrders: shop.fulfillmentOrders
        .filter((fo) => fo.orderId === order.id)
        .map((fo) => ({
          id: gid("FulfillmentOrder", fo.id),
          status: fo.status,
          deliveryMethod: fo.deliveryMethod,
          locationId: gid("Location", fo.locationId),
          lineItems: fo.lineItems.map((li) => ({ id: gid("FulfillmentOrderLineItem", li.id), lineItemId: gid("LineItem", li.lineItemId), totalQuantity: li.totalQuantity, remainingQuantity: li.remainingQuantity })),
        })),
      fulfillments: shop.fulfillments
        .filter((f) => f.orderId === order.id)
        .map((f) => ({
          id: gid("Fulfillment", f.id),
          name: f.name,
          status: f.status,
          createdAt: f.createdAt,
          trackingInfo: f.trackingInfo,
          notifyCustomer: f.notifyCustomer,
          message: f.message,
          lineItems: f.lineItems.map((li) => ({ lineItemId: gid("LineItem", li.lineItemId), fulfillmentOrderId: gid("FulfillmentOrder", li.fulfillmentOrderId), quantity: li.quantity })),
        })),
      notifications: shop.notifications.filter((n) => n.orderId === order.id).map(notificationJson),
      metafields: shop.metafields
        .filter((m) => m.ownerGid === orderGid)
        .map((m) => ({ id: gid("Metafield", m.id), namespace: m.namespace, key: m.key, type: m.type, value: m.value, updatedAt: m.updatedAt })),
    };
  };

  /** Points per operation name since start, for benches that count every client's calls (GET /__admin/costs). */
  const costs = new Map<string, { calls: number; requested: number; actual: number; throttled: number }>();
  const countCost = (request: Record<string, unknown>, body: unknown) => {
    const named = typeof request.operationName === "string" ? request.operationName : /(?:query|mutation)\s+(\w+)/.exec(String(request.query ?? ""))?.[1];
    const cost = (body as { extensions?: { cost?: { requestedQueryCost?: number; actualQueryCost?: number | null } } } | undefined)?.extensions?.cost;
    const entry = costs.get(named ?? "anonymous") ?? { calls: 0, requested: 0, actual: 0, throttled: 0 };
    entry.calls += 1;
    entry.requested += cost?.requestedQueryCost ?? 0;
    entry.actual += cost?.actualQueryCost ?? 0;
    if (cost && cost.actualQueryCost === null) entry.throttled += 1;
    costs.set(named ?? "anonymous", entry);
  };

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { errors: `Internal error in the Shopify emulator: ${(error as Error).message}` });
      else res.destroy();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://emulator.local");
    const graphqlPath = /^(?:\/shops\/([^/]+))?\/admin\/api\/([^/]+)\/graphql\.json$/.exec(url.pathname);
    if (graphqlPath) {
      if (req.method !== "POST") return json(res, 405, { errors: "Method Not Allowed" }, { Allow: "POST" });
      const token = req.headers["x-shopify-access-token"];
      const runtime = typeof token === "string" ? runtimes.find((r) => r.state.accessToken === token) : undefined;
      const prefixDomain = graphqlPath[1] ? decodeURIComponent(graphqlPath[1]) : undefined;
      const hostName = (req.headers.host ?? "").split(":")[0] ?? "";
      const hostDomain = hostName.endsWith(".myshopify.com") ? hostName : undefined;
      if (!runtime || (prefixDomain && prefixDomain !== runtime.state.domain) || (hostDomain && hostDomain !== runtime.state.domain)) {
        return json(res, 401, INVALID_TOKEN_BODY);
      }
      if (graphqlPath[2] !== API_VERSION) {
        return json(res, 404, { errors: `The emulator serves API version ${API_VERSION} only (requested ${graphqlPath[2]}).` });
      }
      const raw = await readBody(req);
      let request: Record<string, unknown>;
      const contentType = String(req.headers["content-type"] ?? "");
      if (contentType.includes("application/graphql")) {
        request = { query: raw };
      } else {
        try {
          request = JSON.parse(raw) as Record<string, unknown>;
        } catch {
          return json(res, 400, { errors: "Request body is not valid JSON" });
        }
      }
      const result = runGraphql(runtime, { query: request.query, variables: request.variables, operationName: request.operationName }, now, persist);
      countCost(request, result.body);
      return json(res, result.status, result.body, { "X-Shopify-API-Version": API_VERSION });
    }

    const bulkFile = /^\/__bulk\/([0-9a-f]+)\.jsonl$/.exec(url.pathname);
    if (bulkFile?.[1] && req.method === "GET") {
      const text = runtimes.map((runtime) => runtime.bulk?.file(bulkFile[1]!)).find((found) => found !== undefined);
      if (text === undefined) return json(res, 404, { errors: "Not Found" });
      res.writeHead(200, { "Content-Type": "application/jsonl", "Content-Length": Buffer.byteLength(text) });
      res.end(text);
      return;
    }
    if (url.pathname === "/__admin/health" && req.method === "GET") {
      return json(res, 200, {
        ok: true,
        apiVersion: API_VERSION,
        shops: runtimes.map((r) => r.state.domain),
        buckets: Object.fromEntries(runtimes.map((r) => [r.state.domain, { plan: opts.bucket ? "custom" : planOf(r.state.domain), ...r.bucket.options }])),
      });
    }
    if (url.pathname === "/__admin/costs" && req.method === "GET") {
      return json(res, 200, { operations: Object.fromEntries(costs) });
    }
    if (url.pathname === "/__admin/reset" && req.method === "POST") {
      install(buildState(seed));
      persist();
      return json(res, 200, { ok: true, shops: runtimes.map((r) => r.state.domain) });
    }
    if (url.pathname === "/__admin/notifications" && req.method === "GET") {
      const runtime = shopFor(url);
      if (!runtime) return json(res, 404, { error: `No shop ${url.searchParams.get("shop")}` });
      return json(res, 200, { shop: runtime.state.domain, notifications: runtime.state.notifications.map(notificationJson) });
    }
    const orderMatch = /^\/__admin\/orders\/([^/]+)$/.exec(url.pathname);
    if (orderMatch?.[1] && req.method === "GET") {
      const runtime = shopFor(url);
      if (!runtime) return json(res, 404, { error: `No shop ${url.searchParams.get("shop")}` });
      const report = orderReport(runtime, orderMatch[1]);
      if (!report) return json(res, 404, { error: `No order ${decodeURIComponent(orderMatch[1])} in ${runtime.state.domain}` });
      return json(res, 200, report);
    }
    return json(res, 404, { errors: "Not Found" });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 4020, opts.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  if (opts.dataFile && !restored) persist();
  const address = server.address() as AddressInfo;
  const host = opts.host ?? "127.0.0.1";
  const urlHost = host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "127.0.0.1" : host;
  baseUrl = `http://${urlHost}:${address.port}`;
  for (const runtime of runtimes) if (runtime.bulk) runtime.bulk.baseUrl = baseUrl;
  return {
    url: `http://${urlHost}:${address.port}`,
    port: address.port,
    shops: runtimes.map((r) => r.state.domain),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function notificationJson(n: ShopState["notifications"][number]) {
  return {
    id: n.id,
    kind: n.kind,
    order: { id: gid("Order", n.orderId), name: n.orderName },
    fulfillmentId: gid("Fulfillment", n.fulfillmentId),
    recipient: n.recipient,
    trackingNumbers: n.trackingNumbers,
    trackingUrls: n.trackingUrls,
    sentAt: n.sentAt,
  };
}
