/**
 * Contract tests: the label-service client against the label sandbox over real HTTP.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { exampleLabelRequest, guideExampleLabelRequest } from "../../app/label-service/__fixtures__/example-request";
import { createLabelServiceClient, type FetchLike, type LabelServiceClient } from "../../app/label-service/client";
import type { LabelRequest } from "../../app/label-service/contract";
import { Semaphore } from "../../app/label-service/semaphore";
import { InMemoryTokenCache } from "../../app/label-service/token-cache";
import { startLabelSandbox } from "../../emulators/label-sandbox/server";

const DEMO = { email: "demo@etiquette.test", password: "demo-sandbox" };
/** A second account on the same sandbox, as when a merchant saves other credentials. */
const OTHER = { email: "other-account@etiquette.test", password: "other-sandbox-pass" };
const PAGE_SIZE = 3;

let sandbox: { url: string; close(): Promise<void> };

async function admin(path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${sandbox.url}${path}`, {
    method: body === undefined && path === "/__admin/labels" ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.ok, `${path} answered ${response.status}`).toBe(true);
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

interface AdminLabel {
  custom_reference: string;
  carrier_name: string;
  carrier_service_name: string;
  country: string;
  account: string;
}

async function adminLabels(): Promise<AdminLabel[]> {
  return ((await admin("/__admin/labels")) as { labels: AdminLabel[] }).labels;
}

interface SandboxStats {
  authentications: number;
  authenticationsByAccount: Record<string, number>;
  failedAuthentications: number;
  rejectedTokens: number;
}

async function stats(url = sandbox.url): Promise<SandboxStats> {
  return (await (await fetch(`${url}/__admin/stats`)).json()) as SandboxStats;
}

async function countByReference(reference: string): Promise<number> {
  const inspection = (await admin("/__admin/labels")) as { countByReference: Record<string, number> };
  return inspection.countByReference[reference] ?? 0;
}

interface Harness {
  client: LabelServiceClient;
  calls: { method: string; path: string; status?: number; body?: unknown }[];
  count(method: string, path: string): number;
  logs: string[];
}

interface HarnessOptions {
  baseUrl?: string;
  account?: { email: string; password: string };
  shop?: string;
  /** A fresh private cache by default; `null` uses the client's process-wide default cache. */
  tokenCache?: InMemoryTokenCache | null;
  now?: () => number;
}

function harness(params: HarnessOptions = {}): Harness {
  const calls: Harness["calls"] = [];
  const logs: string[] = [];
  const recording: FetchLike = async (url, init) => {
    const entry: Harness["calls"][number] = {
      method: init.method ?? "GET",
      path: new URL(url).pathname,
      ...(typeof init.body === "string" ? { body: JSON.parse(init.body) as unknown } : {}),
    };
    calls.push(entry);
    const response = await fetch(url, init);
    entry.status = response.status;
    return response;
  };
  const tokenCache = params.tokenCache === null ? undefined : (params.tokenCache ?? new InMemoryTokenCache());
  const client = createLabelServiceClient({
    shop: params.shop ?? "contract.myshopify.com",
    environment: "staging",
    account: { baseUrl: params.baseUrl ?? sandbox.url, ...(params.account ?? DEMO) },
    fetch: recording,
    ...(tokenCache ? { tokenCache } : {}),
    ...(params.now ? { now: params.now } : {}),
    carrierServicesCache: new Map(),
    semaphore: new Semaphore(4),
    options: { generateTimeoutMs: 10_000, defaultTimeoutMs: 10_000, defaultRetryAfterMs: 50 },
    logger: {
      info: (message, data) => logs.push(`${message} ${JSON.stringify(data)}`),
      warn: (message, data) => logs.push(`${message} ${JSON.stringify(data)}`),
    },
  });
  return { client, calls, logs, count: (method, path) => calls.filter((c) => c.method === method && c.path === path).length };
}

/**
 * The guide's example (Dhl, service "n"), with a recipient in Germany: "n" is DHL's domestic service, so the DHL
 * service is taken from the lookup for the destination, as the app does.
 */
async function exampleFor(client: LabelServiceClient, reference: string): Promise<LabelRequest> {
  const request = exampleLabelRequest({ custom_reference: reference });
  const services = await client.carrierServices(request.recipient.country);
  const dhl = services.filter((service) => service.carrier === request.carrier_name).map((service) => service.name);
  expect(dhl.length, JSON.stringify(services)).toBeGreaterThan(0);
  return dhl.includes(request.carrier_service_name) ? request : { ...request, carrier_service_name: dhl[0] ?? "n" };
}

beforeAll(async () => {
  sandbox = await startLabelSandbox({ port: 0, pageSize: PAGE_SIZE, accounts: [DEMO, OTHER] });
});

afterAll(async () => {
  await sandbox?.close();
});

beforeEach(async () => {
  await admin("/__admin/reset", {});
});

describe("label service client against the sandbox", () => {
  it("buys the public guide's example label once", async () => {
    const { client, calls, count, logs } = harness();
    // The guide's request as published: Dhl "n" (domestic), so the recipient is in France.
    const request = guideExampleLabelRequest();
    expect(request).toMatchObject({ carrier_name: "Dhl", carrier_service_name: "n", custom_reference: "20201218-013" });
    expect(request.cn23_data?.products.map((product) => product.unit_price)).toEqual(["59,90", "13,95"]);
    const services = await client.carrierServices(request.recipient.country);
    expect(services.some((service) => service.carrier === "Dhl" && service.name === "n"), JSON.stringify(services)).toBe(true);

    const result = await client.generateLabel(request);
    expect(result.status, JSON.stringify(result)).toBe("created");
    if (result.status !== "created") return;
    expect(result.label.id).not.toBe("");
    expect(result.label.reference).not.toBe("");
    expect(result.label.label_url).toMatch(/^https?:\/\//);
    expect(count("POST", "/labels/generate_label")).toBe(1);
    // Sent unchanged over HTTP...
    expect(calls.find((call) => call.path === "/labels/generate_label")?.body).toEqual(request);
    // ...and received as such by the sandbox.
    expect(await adminLabels()).toEqual([
      expect.objectContaining({ custom_reference: "20201218-013", carrier_name: "Dhl", carrier_service_name: "n", country: "FR", account: DEMO.email }),
    ]);
    expect(await countByReference("20201218-013")).toBe(1);
    expect(logs.join("\n")).not.toContain(DEMO.password);
  });

  it("reports a request the sandbox refuses as rejected with its message, nothing bought", async () => {
    const { client } = harness();
    const request = await exampleFor(client, "20201218-014");
    const result = await client.generateLabel({ ...request, carrier_service_name: "no-such-service" });
    expect(result.status).toBe("rejected");
    if (result.status !== "rejected") return;
    expect(result.error.kind).toBe("rejected");
    expect(result.error.status).toBeGreaterThanOrEqual(400);
    expect(result.error.serviceMessage).toBeTruthy();
    expect(await countByReference("20201218-014")).toBe(0);
  });

  it("renews an expired token with exactly one re-authentication and one replay", async () => {
    const { client, count } = harness();
    await client.authenticate();
    expect(count("POST", "/authenticate")).toBe(1);
    const request = await exampleFor(client, "20201218-015");
    await admin("/__admin/expire-tokens", {});
    const result = await client.generateLabel(request);
    expect(result.status, JSON.stringify(result)).toBe("created");
    expect(count("POST", "/authenticate")).toBe(2);
    expect(count("POST", "/labels/generate_label")).toBe(2);
    expect(await countByReference("20201218-015")).toBe(1);
  });

  it("new credentials for the same shop and environment get their own token, across client instances", async () => {
    // The process-wide default cache, as in the app, where a client is built per request.
    const shop = "contract-credentials.myshopify.com";
    const before = harness({ shop, tokenCache: null });
    const base = await exampleFor(before.client, "20201218-030");
    expect((await before.client.generateLabel(base)).status).toBe("created");

    // The merchant saves another account; nobody calls invalidateToken().
    const after = harness({ shop, tokenCache: null, account: OTHER });
    expect((await after.client.generateLabel({ ...base, custom_reference: "20201218-031" })).status).toBe("created");
    expect(after.count("POST", "/authenticate")).toBe(1);
    expect(after.calls.find((call) => call.path === "/authenticate")?.body).toEqual(OTHER);

    // Another instance with the first credentials still reuses their token.
    const again = harness({ shop, tokenCache: null });
    await again.client.listLabels({ page: 1 });
    expect(again.count("POST", "/authenticate")).toBe(0);

    // A wrong password fails to sign in instead of riding on a cached token: nothing bought.
    const wrong = harness({ shop, tokenCache: null, account: { email: DEMO.email, password: "not-the-password" } });
    const refused = await wrong.client.generateLabel({ ...base, custom_reference: "20201218-032" });
    expect(refused).toMatchObject({ status: "rejected", error: { kind: "auth", operation: "authenticate" } });
    expect(wrong.count("POST", "/labels/generate_label")).toBe(0);

    const labels = await adminLabels();
    expect(labels.map((label) => [label.custom_reference, label.account])).toEqual([
      ["20201218-030", DEMO.email],
      ["20201218-031", OTHER.email],
    ]);
    expect(await stats()).toMatchObject({
      authentications: 2,
      authenticationsByAccount: { [DEMO.email]: 1, [OTHER.email]: 1 },
      failedAuthentications: 1,
      rejectedTokens: 0,
      purchases: 2,
    });
  });

  it("renews short-lived tokens before their JWT exp, without ever being refused", async () => {
    // A sandbox whose tokens live 60 s, on a clock shared with the client: no real waiting.
    let clock = Date.parse("2026-11-22T10:00:00Z");
    const shortLived = await startLabelSandbox({ port: 0, tokenLifetimeSeconds: 60, now: () => clock });
    try {
      const { client, calls, count } = harness({ baseUrl: shortLived.url, now: () => clock });
      const request = guideExampleLabelRequest();
      await client.listLabels({ page: 1 }); // token 1: exp = T + 60 s, renewed from T + 54 s (margin: a tenth)
      clock += 50_000; // T + 50 s: still reused
      expect((await client.generateLabel({ ...request, custom_reference: "20201218-040" })).status).toBe("created");
      expect(count("POST", "/authenticate")).toBe(1);
      clock += 5_000; // T + 55 s: token 1 still valid at the sandbox, but due for renewal
      await client.listLabels({ page: 1 });
      expect(count("POST", "/authenticate")).toBe(2);
      clock += 10_000; // T + 65 s: token 1 has expired; token 2 (exp T + 115 s) is in use
      expect((await client.generateLabel({ ...request, custom_reference: "20201218-041" })).status).toBe("created");
      expect(count("POST", "/authenticate")).toBe(2);

      expect(calls.filter((call) => call.status === 401)).toEqual([]);
      expect(await stats(shortLived.url)).toMatchObject({ authentications: 2, failedAuthentications: 0, rejectedTokens: 0 });
    } finally {
      await shortLived.close();
    }
  });

  it("renews an expired token for listing too", async () => {
    const { client, count } = harness();
    await client.listLabels({ page: 1 });
    await admin("/__admin/expire-tokens", {});
    await client.listLabels({ page: 1 });
    expect(count("POST", "/authenticate")).toBe(2);
  });

  it("a lost response gives unknown, and findLabelByReference then finds the label, bought once", async () => {
    const { client, count } = harness();
    const request = await exampleFor(client, "20201218-016");
    await admin("/__admin/faults", { chargedButLost: { next: 1 } });
    const result = await client.generateLabel(request);
    expect(result.status, JSON.stringify(result)).toBe("unknown");
    expect(count("POST", "/labels/generate_label")).toBe(1);
    const found = await client.findLabelByReference("20201218-016");
    expect(found?.custom_reference).toBe("20201218-016");
    expect(await countByReference("20201218-016")).toBe(1);
  });

  it("a 5xx gives unknown without a retry", async () => {
    const { client, count } = harness();
    const request = await exampleFor(client, "20201218-017");
    await admin("/__admin/faults", { error5xx: { next: 1 } });
    const result = await client.generateLabel(request);
    expect(result.status).toBe("unknown");
    expect(count("POST", "/labels/generate_label")).toBe(1);
  });

  it("a 429 on generate_label is rejected/rate_limited, not retried, nothing bought", async () => {
    const { client, count } = harness();
    const request = await exampleFor(client, "20201218-018");
    await admin("/__admin/faults", { rateLimit: { next: 1, retryAfterSeconds: 1 } });
    const result = await client.generateLabel(request);
    expect(result).toMatchObject({ status: "rejected", error: { kind: "rate_limited" } });
    expect(count("POST", "/labels/generate_label")).toBe(1);
    expect(await countByReference("20201218-018")).toBe(0);
  });

  it("a connection reset before processing gives unknown; the lookup then finds nothing and nothing was bought", async () => {
    const { client } = harness();
    const request = await exampleFor(client, "20201218-019");
    await admin("/__admin/faults", { resetBeforeProcessing: { next: 1 } });
    const result = await client.generateLabel(request);
    expect(result).toMatchObject({ status: "unknown", error: { kind: "unknown_outcome" } });
    expect(await client.findLabelByReference("20201218-019")).toBeNull();
    expect(await countByReference("20201218-019")).toBe(0);
  });

  it("a timeout gives unknown; the lookup afterwards agrees with what the service actually bought", async () => {
    const { client } = harness();
    const request = await exampleFor(client, "20201218-020");
    const slow = createLabelServiceClient({
      shop: "contract-slow.myshopify.com",
      account: { baseUrl: sandbox.url, ...DEMO },
      tokenCache: new InMemoryTokenCache(),
      semaphore: new Semaphore(1),
      options: { generateTimeoutMs: 100 },
    });
    await slow.authenticate();
    await admin("/__admin/faults", { latency: { next: 1, minMs: 400, maxMs: 400 } });
    const result = await slow.generateLabel(request);
    expect(result).toMatchObject({ status: "unknown", error: { kind: "unknown_outcome", code: "TIMEOUT" } });
    // Let the sandbox finish whatever it does with the abandoned request, then reconcile.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const found = await slow.findLabelByReference("20201218-020");
    const bought = await countByReference("20201218-020");
    expect(bought).toBeLessThanOrEqual(1);
    expect(found === null ? 0 : 1).toBe(bought);
  });

  it("a 429 on listing is waited out and retried", async () => {
    const { client, count } = harness();
    await client.authenticate();
    await admin("/__admin/faults", { rateLimit: { next: 1, retryAfterSeconds: 0 } });
    const page = await client.listLabels({ page: 1 });
    expect(page.labels).toEqual([]);
    expect(count("GET", "/labels")).toBe(2);
  });

  it("concurrent purchases share one authentication and buy each reference once", async () => {
    const { client, count } = harness();
    const base = await exampleFor(client, "20260202-100");
    client.invalidateToken();
    const references = Array.from({ length: 10 }, (_, i) => `20260202-${String(100 + i)}`);
    const results = await Promise.all(references.map((reference) => client.generateLabel({ ...base, custom_reference: reference })));
    expect(results.map((result) => result.status)).toEqual(references.map(() => "created"));
    expect(count("POST", "/authenticate")).toBe(2);
    for (const reference of references) expect(await countByReference(reference)).toBe(1);
  });

  it("lists every label across three or more pages", async () => {
    const { client, count } = harness();
    const references = Array.from({ length: PAGE_SIZE * 2 + 2 }, (_, i) => `20260101-${String(100 + i)}`);
    const base = await exampleFor(client, references[0] ?? "20260101-100");
    for (const reference of references) {
      const result = await client.generateLabel({ ...base, custom_reference: reference });
      expect(result.status).toBe("created");
    }
    const pages: number[] = [];
    const seen: string[] = [];
    for await (const page of client.labelPages()) {
      pages.push(page.page);
      for (const label of page.labels) if (label.custom_reference) seen.push(label.custom_reference);
    }
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(seen.sort()).toEqual([...references].sort());
    expect(count("GET", "/labels")).toBe(pages.length + 1);
  });
});
