/**
 * The bulk jobs' JSON API through its Remix routes, as Remix calls them, against the Shopify emulator (with a second
 * shop, for tenancy) and the label sandbox, on a migrated SQLite database with the embedded queue running the item
 * job. Only the session-token check is replaced: `requireApiAdmin` hands back the app's real Admin client for the
 * shop the test acts as.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { DEMO_SHOP, DEMO_TOKEN, startTestEmulator, type TestEmulator } from "../../emulators/shopify-admin/test-helpers";
import { DEFAULT_SEED_FILE, type Seed } from "../../emulators/shopify-admin/server";
import { DEMO_ACCOUNT, startLabelSandbox, type LabelSandbox } from "../../emulators/label-sandbox/server";
import type { PrismaClient } from "../../app/generated/prisma/client";
import type * as ApiAuth from "../../app/http/api-auth.server";
import type { JobQueue } from "../../app/jobs/types";
import { appTestEnv } from "../helpers/app-env";
import { createTestDatabaseUrl } from "../helpers/test-db";
import { realAdminFor } from "../helpers/real-admin";

const OTHER_SHOP = "other-shop.myshopify.com";
const OTHER_TOKEN = "shpat_other_shop";
const READY = ["7100001002", "7100001003", "7100001035"];
const NO_HS_CODE = "gid://shopify/Order/7100001015";

const signedIn = vi.hoisted(() => ({ current: undefined as undefined | { shop: string; admin: unknown } }));
vi.mock("../../app/http/api-auth.server", async (importOriginal) => {
  const actual = await importOriginal<typeof ApiAuth>();
  return {
    ...actual,
    requireApiAdmin: async () => {
      if (!signedIn.current) throw new Response("Unauthorized", { status: 401 });
      return { ...signedIn.current, staffUserId: "7", cors: (response: Response) => response, demo: false };
    },
  };
});

type Route = { loader?: (args: LoaderFunctionArgs) => Promise<Response>; action?: (args: ActionFunctionArgs) => Promise<Response> };

const database = createTestDatabaseUrl();
let db: PrismaClient;
let emulator: TestEmulator;
let sandbox: LabelSandbox;
let admins: Record<string, unknown>;
let queue: JobQueue;
let routes: Record<"collection" | "preflight" | "job" | "retry" | "cancel", Route>;

function twoShopSeed(): Seed {
  const seed = JSON.parse(readFileSync(DEFAULT_SEED_FILE, "utf8")) as { shops: Record<string, unknown>[] };
  const [demo] = seed.shops;
  return { ...seed, shops: [demo, { ...demo, domain: OTHER_SHOP, accessToken: OTHER_TOKEN, name: "Other shop", orders: [] }] } as unknown as Seed;
}

beforeAll(async () => {
  [emulator, sandbox] = await Promise.all([startTestEmulator({ seed: twoShopSeed() }), startLabelSandbox({ port: 0 })]);
  Object.assign(process.env, appTestEnv(database.url), { LABEL_SERVICE_STAGING_URL: sandbox.url, LABEL_SERVICE_PRODUCTION_URL: sandbox.url });
  db = (await import("../../app/db.server")).default;
  admins = {
    [DEMO_SHOP]: await realAdminFor(emulator.emulator.url, db, DEMO_SHOP, DEMO_TOKEN),
    [OTHER_SHOP]: await realAdminFor(emulator.emulator.url, db, OTHER_SHOP, OTHER_TOKEN),
  };
  const { saveShippingSettings } = await import("../../app/settings/shipping-settings.server");
  const { DEMO_SHIPPING_SETTINGS } = await import("../../app/demo/seed-demo-shop.server");
  const { saveLabelServiceAccount } = await import("../../app/labels/accounts.server");
  const { appSecretBox } = await import("../../app/security/app-secret-box.server");
  for (const shop of [DEMO_SHOP, OTHER_SHOP]) {
    await saveShippingSettings(db, shop, DEMO_SHIPPING_SETTINGS);
    await saveLabelServiceAccount(db, appSecretBox(), { shop, environment: "staging", ...DEMO_ACCOUNT });
    await saveLabelServiceAccount(db, appSecretBox(), { shop, environment: "production", ...DEMO_ACCOUNT });
  }
  // The process's queue, as app/jobs/boot.server.ts starts it, with the item job's context from the test's admins.
  const { createEmbeddedQueue } = await import("../../app/jobs/embedded-queue.server");
  const { registerJobs } = await import("../../app/jobs/registry");
  const { bulkLabelItemJob } = await import("../../app/jobs/handlers/bulk-label-item.job");
  const { createSemaphore } = await import("../../app/jobs/semaphore.server");
  const { labelContextFromAdmin } = await import("../../app/labels/context.server");
  queue = createEmbeddedQueue({ db, dialect: "sqlite", pollMs: 20, onError: () => undefined });
  await registerJobs(queue, [
    bulkLabelItemJob({
      db,
      semaphore: createSemaphore({ db, dialect: "sqlite" }),
      maxConcurrency: 2,
      contextFor: (shop, frozen) => labelContextFromAdmin(shop, admins[shop] as never, frozen),
    }),
  ]);
  await queue.start();
  globalThis.__etiquetteJobs = { ready: Promise.resolve(queue), reconcileIntervalMs: 60_000, state: () => "running", stop: () => queue.stop({ graceMs: 0 }) };
  routes = {
    collection: await import("../../app/routes/api.bulk-jobs"),
    preflight: await import("../../app/routes/api.bulk-jobs.preflight"),
    job: await import("../../app/routes/api.bulk-jobs.$id"),
    retry: await import("../../app/routes/api.bulk-jobs.$id.retry"),
    cancel: await import("../../app/routes/api.bulk-jobs.$id.cancel"),
  };
}, 120_000);

afterAll(async () => {
  await queue?.stop({ graceMs: 2_000 });
  globalThis.__etiquetteJobs = undefined;
  await Promise.all([emulator.emulator.close(), sandbox.close()]);
  await db.$disconnect();
  database.cleanup();
});

beforeEach(async () => {
  await fetch(`${sandbox.url}/__admin/reset`, { method: "POST" });
  await emulator.inspect("/__admin/reset", "POST");
  await db.bulkJobItem.deleteMany();
  await db.bulkJob.deleteMany();
  await db.purchaseAttempt.deleteMany();
  await db.label.deleteMany();
  await db.shopSettings.updateMany({ data: { environment: "staging" } });
  signedIn.current = { shop: DEMO_SHOP, admin: admins[DEMO_SHOP] };
});

function actAs(shop: string) {
  signedIn.current = { shop, admin: admins[shop] };
}

async function call(route: Route, method: "GET" | "POST", path: string, body?: unknown, params: Record<string, string> = {}) {
  const request = new Request(`https://app.test${path}`, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const handler = method === "GET" ? route.loader : route.action;
  const response = await handler!({ request, params, context: {} });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are navigated freely in tests
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

async function finished(id: string, locale = "en") {
  for (let i = 0; i < 600; i++) {
    const { body } = await call(routes.job, "GET", `/api/bulk-jobs/${id}?locale=${locale}`, undefined, { id });
    if (body.status !== "RUNNING" && body.counts.remaining === 0) return body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${id} did not finish`);
}

describe("POST /api/bulk-jobs", () => {
  it("creates a job and answers its id and progress page; GET shows every item with its reason in the caller's language", async () => {
    const created = await call(routes.collection, "POST", "/api/bulk-jobs", { orderIds: [...READY, NO_HS_CODE, READY[0]] });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), url: `/app/bulk/${created.body.id}` });
    const job = await finished(created.body.id, "fr");
    expect(job.counts).toMatchObject({ total: 4, labelled: 3, blocked: 1, remaining: 0 });
    const blocked = job.items.find((item: { status: string }) => item.status === "BLOCKED");
    expect(blocked).toMatchObject({ orderId: NO_HS_CODE, orderName: "#1015", reason: { code: "order_problem", params: { problem: "hs_code_missing" } } });
    expect(blocked.reasonText).toMatch(/douane/);
    const list = await call(routes.collection, "GET", "/api/bulk-jobs");
    expect(list.body.jobs.map((entry: { id: string }) => entry.id)).toEqual([created.body.id]);
    expect((await (await fetch(`${sandbox.url}/__admin/labels`)).json()).count).toBe(3);
  });

  it("refuses an empty selection (400), an oversized one (413) and a bad body (400), in the caller's language", async () => {
    const empty = await call(routes.collection, "POST", "/api/bulk-jobs?locale=fr", { orderIds: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatchObject({ code: "empty", message: expect.stringMatching(/Aucune commande/) });
    const ids = Array.from({ length: 501 }, (_, index) => `gid://shopify/Order/${9000000 + index}`);
    const oversized = await call(routes.collection, "POST", "/api/bulk-jobs", { orderIds: ids });
    expect(oversized.status).toBe(413);
    expect(oversized.body.error).toMatchObject({ code: "too_many", params: { count: "501", max: "500" } });
    const notJson = await call(routes.collection, "POST", "/api/bulk-jobs", "{orderIds:");
    expect(notJson).toMatchObject({ status: 400, body: { error: { code: "bad_json" } } });
    const shape = await call(routes.collection, "POST", "/api/bulk-jobs", { orderIds: ["gid://shopify/Product/1"] });
    expect(shape).toMatchObject({ status: 400, body: { error: { code: "invalid_order_ids" } } });
    const huge = await call(routes.collection, "POST", "/api/bulk-jobs", JSON.stringify({ orderIds: ["1"], pad: "x".repeat(70_000) }));
    expect(huge.status).toBe(413);
    expect(await db.bulkJob.count()).toBe(0);
  });

  it("refuses order ids this shop does not have (another shop's, unknown) with 422, buying nothing", async () => {
    actAs(OTHER_SHOP);
    const foreign = await call(routes.collection, "POST", "/api/bulk-jobs", { orderIds: [READY[0]] });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error).toMatchObject({ code: "unknown_orders", params: { count: "1" } });
    actAs(DEMO_SHOP);
    const unknown = await call(routes.collection, "POST", "/api/bulk-jobs?locale=fr", { orderIds: [READY[0], "gid://shopify/Order/1"] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.message).toMatch(/gid:\/\/shopify\/Order\/1.*rien n'a été acheté/);
    expect(await db.bulkJob.count()).toBe(0);
    expect((await (await fetch(`${sandbox.url}/__admin/labels`)).json()).count).toBe(0);
  });

  it("a production job states its charge and needs it confirmed (422 otherwise)", async () => {
    await db.shopSettings.update({ where: { shop: DEMO_SHOP }, data: { environment: "production" } });
    const refused = await call(routes.collection, "POST", "/api/bulk-jobs", { orderIds: READY.slice(0, 2) });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: "confirmation_required", params: { chargedLabels: "2" } });
    expect(await db.bulkJob.count()).toBe(0);
  });
});

describe("POST /api/bulk-jobs/preflight", () => {
  it("answers ready, blocked grouped by cause with text, unknown; buys nothing", async () => {
    const { status, body } = await call(routes.preflight, "POST", "/api/bulk-jobs/preflight", { orderIds: [...READY, NO_HS_CODE, "1"] });
    expect(status).toBe(200);
    expect(body.ready).toHaveLength(3);
    expect(body.blocked).toHaveLength(1);
    expect(body.unknown).toEqual(["gid://shopify/Order/1"]);
    expect(body.groups[0]).toMatchObject({ orderCount: 1, orderNames: ["#1015"], text: expect.stringMatching(/^1 order: .*HS code/) });
    expect(body.chargedLabels).toBe(0);
    expect((await (await fetch(`${sandbox.url}/__admin/labels`)).json()).count).toBe(0);
  });

  it("answers 405 to GET", async () => {
    const { status, headers } = await call(routes.preflight, "GET", "/api/bulk-jobs/preflight");
    expect(status).toBe(405);
    expect(headers.get("Allow")).toBe("POST");
  });
});

describe("a job of another shop", () => {
  it("is not found (404) for GET, retry and cancel, and nothing changes", async () => {
    const created = await call(routes.collection, "POST", "/api/bulk-jobs", { orderIds: [READY[0]] });
    const id = created.body.id as string;
    await finished(id);
    actAs(OTHER_SHOP);
    for (const [route, method, path] of [
      [routes.job, "GET", `/api/bulk-jobs/${id}`],
      [routes.retry, "POST", `/api/bulk-jobs/${id}/retry`],
      [routes.cancel, "POST", `/api/bulk-jobs/${id}/cancel`],
    ] as const) {
      const answer = await call(route, method, path, undefined, { id });
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe("not_found");
    }
    expect((await call(routes.collection, "GET", "/api/bulk-jobs")).body.jobs).toEqual([]);
    actAs(DEMO_SHOP);
    expect((await call(routes.job, "GET", `/api/bulk-jobs/${id}`, undefined, { id })).body.status).toBe("COMPLETED");
  });
});

describe("retry and cancel", () => {
  it("retry runs the refused item again; cancel of a finished job changes nothing", async () => {
    await fetch(`${sandbox.url}/__admin/faults`, { method: "POST", body: JSON.stringify({ refuseLabel: { next: 1 } }) });
    const created = await call(routes.collection, "POST", "/api/bulk-jobs", { orderIds: [READY[0]] });
    const id = created.body.id as string;
    const failed = await finished(id);
    expect(failed.counts.refused).toBe(1);
    expect(failed.items[0].reasonText).toMatch(/refused/);
    const retried = await call(routes.retry, "POST", `/api/bulk-jobs/${id}/retry`, undefined, { id });
    expect(retried).toMatchObject({ status: 200, body: { retried: 1 } });
    expect((await finished(id)).counts.labelled).toBe(1);
    const cancelled = await call(routes.cancel, "POST", `/api/bulk-jobs/${id}/cancel`, undefined, { id });
    expect(cancelled).toMatchObject({ status: 200, body: { cancelled: 0, job: { status: "COMPLETED" } } });
  });
});
