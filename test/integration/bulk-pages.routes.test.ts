/**
 * The merchant's bulk pages (preflight /app/bulk/new, progress /app/bulk/:id, recent jobs /app/bulk) through their
 * Remix loaders and actions, as Remix calls them, against the Shopify emulator (with a second shop, for tenancy) and
 * the label sandbox, on a migrated SQLite database with the embedded queue running the item job. Only the
 * embedded-auth step is replaced: `requireAdmin` hands back the app's real Admin client for the shop the test acts as.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { DEMO_SHOP, DEMO_TOKEN, startTestEmulator, type TestEmulator } from "../../emulators/shopify-admin/test-helpers";
import { DEFAULT_SEED_FILE, type Seed } from "../../emulators/shopify-admin/server";
import { DEMO_ACCOUNT, startLabelSandbox, type LabelSandbox } from "../../emulators/label-sandbox/server";
import type { PrismaClient } from "../../app/generated/prisma/client";
import type { JobQueue } from "../../app/jobs/types";
import { appTestEnv } from "../helpers/app-env";
import { createTestDatabaseUrl } from "../helpers/test-db";
import { realAdminFor } from "../helpers/real-admin";

const OTHER_SHOP = "other-shop.myshopify.com";
const OTHER_TOKEN = "shpat_other_shop";
const READY = ["7100001002", "7100001003", "7100001035"];
const NO_HS_CODE = "7100001015";

const signedIn = vi.hoisted(() => ({ current: undefined as undefined | { shop: string; admin: unknown } }));
vi.mock("../../app/auth.server", () => ({
  requireAdmin: async () => {
    if (!signedIn.current) throw new Response("Unauthorized", { status: 401 });
    const { shop, admin } = signedIn.current;
    return { admin, shop, session: { id: `offline_${shop}`, shop }, staffUserId: "7", demo: false };
  },
}));

type Route = { loader?: (args: LoaderFunctionArgs) => Promise<unknown>; action?: (args: ActionFunctionArgs) => Promise<unknown> };

const database = createTestDatabaseUrl();
let db: PrismaClient;
let emulator: TestEmulator;
let sandbox: LabelSandbox;
let admins: Record<string, unknown>;
let queue: JobQueue;
let routes: Record<"preflight" | "job" | "jobs", Route>;

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
    preflight: await import("../../app/routes/app.bulk.new"),
    job: await import("../../app/routes/app.bulk.$id"),
    jobs: await import("../../app/routes/app.bulk._index"),
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
  actAs(DEMO_SHOP);
});

function actAs(shop: string) {
  signedIn.current = { shop, admin: admins[shop] };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- loader and action data are navigated freely in tests
type Data = any;

async function get(route: Route, path: string, params: Record<string, string> = {}): Promise<Data> {
  return route.loader!({ request: new Request(`https://app.test${path}`), params, context: {} });
}

async function post(route: Route, path: string, fields: Record<string, string>, params: Record<string, string> = {}, locale = "en"): Promise<Data> {
  const request = new Request(`https://app.test${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": locale },
  });
  return route.action!({ request, params, context: {} });
}

async function statusOf(promise: Promise<unknown>): Promise<number> {
  try {
    const value = await promise;
    return value instanceof Response ? value.status : 200;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
}

/** Starts a job from the preflight page and follows the redirect to its id. */
async function start(ids: string[], extra: Record<string, string> = {}): Promise<string> {
  const answer = await post(routes.preflight, "/app/bulk/new", { intent: "start", orderIds: ids.join(","), ...extra });
  expect(answer, JSON.stringify(answer)).toBeInstanceOf(Response);
  expect(answer.status).toBe(302);
  const location = answer.headers.get("Location") as string;
  expect(location).toMatch(/^\/app\/bulk\/[^/]+$/);
  return decodeURIComponent(location.split("/").pop()!);
}

async function finished(id: string, locale = "en"): Promise<Data> {
  for (let i = 0; i < 600; i++) {
    const { job } = await get(routes.job, `/app/bulk/${id}?locale=${locale}`, { id });
    if (job.pollMs === null) return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${id} did not finish`);
}

async function labelsSold(): Promise<number> {
  return ((await (await fetch(`${sandbox.url}/__admin/labels`)).json()) as { count: number }).count;
}

describe("the preflight page (/app/bulk/new)", () => {
  it("checks the selected orders for free: N ready, M blocked grouped by cause in the merchant's language", async () => {
    const answer = await post(routes.preflight, "/app/bulk/new", { scope: "page", orderIds: [...READY, NO_HS_CODE, "1"].join(",") }, {}, "fr");
    expect(answer.error).toBeNull();
    expect(answer.selected).toBe(5);
    const { preflight } = answer;
    expect(preflight.ready.map((order: { orderName: string }) => order.orderName)).toEqual(["#1002", "#1003", "#1035"]);
    expect(preflight.blocked).toEqual([{ orderId: `gid://shopify/Order/${NO_HS_CODE}`, orderName: "#1015", reason: expect.stringMatching(/douane/) }]);
    expect(preflight.groups).toEqual([
      { text: expect.stringMatching(/^1 commande : /), orderCount: 1, orders: [{ orderName: "#1015", orderId: `gid://shopify/Order/${NO_HS_CODE}` }] },
    ]);
    expect(preflight.unknown).toEqual(["gid://shopify/Order/1"]);
    // Start takes the orders Shopify knows: the ready ones are bought, the blocked one joins as blocked.
    expect(preflight.jobOrderIds).toHaveLength(4);
    expect(await labelsSold()).toBe(0);
    expect(await db.bulkJob.count()).toBe(0);
  });

  it("says what to do for an empty selection, on the page and when posted", async () => {
    expect(await get(routes.preflight, "/app/bulk/new")).toEqual({ environment: "staging", embedded: true });
    const empty = await post(routes.preflight, "/app/bulk/new", { scope: "page", orderIds: "" }, {}, "fr");
    expect(empty.preflight).toBeNull();
    expect(empty.error).toMatch(/^Aucune commande n'est sélectionnée\. Cochez/);
    const unreadable = await post(routes.preflight, "/app/bulk/new", { scope: "everything" });
    expect(unreadable.error).toMatch(/^No orders were selected\./);
  });

  it("refuses more than 500 orders with a message saying to split, buying nothing", async () => {
    const ids = Array.from({ length: 501 }, (_, index) => String(9_000_000 + index));
    const answer = await post(routes.preflight, "/app/bulk/new", { scope: "page", orderIds: ids.join(",") });
    expect(answer.preflight).toBeNull();
    expect(answer.error).toMatch(/501 orders were selected; one job takes at most 500\. .*second job/);
    expect(await db.bulkJob.count()).toBe(0);
  });

  it("'all orders matching' reads the list's own search and filters, and refuses more than the cap", async () => {
    const { resolveSelection } = await import("../../app/bulk/ui-pages.server");
    const deps = { db, admin: admins[DEMO_SHOP] as never };
    const world = await resolveSelection(deps, DEMO_SHOP, { scope: "matching", zone: "world" });
    const all = await resolveSelection(deps, DEMO_SHOP, { scope: "matching" });
    expect(world.matching).toBe(true);
    expect(world.ids.length).toBeGreaterThan(0);
    expect(all.ids.length).toBeGreaterThan(world.ids.length);
    expect(world.ids.every((id) => all.ids.includes(id))).toBe(true);
    const zurich = await resolveSelection(deps, DEMO_SHOP, { scope: "matching", q: "Zürich" });
    expect(zurich.ids).toEqual([`gid://shopify/Order/7100001035`]);
    await expect(resolveSelection(deps, DEMO_SHOP, { scope: "matching" }, all.ids.length - 1)).rejects.toMatchObject({
      code: "too_many",
      messages: { en: expect.stringMatching(/^More than 500 orders match the search and filters/), fr: expect.stringMatching(/^Plus de 500 commandes/) },
    });
    // Through the page: the search narrows what is checked.
    const answer = await post(routes.preflight, "/app/bulk/new", { scope: "matching", q: "Zürich", tab: "all", zone: "" });
    expect(answer).toMatchObject({ matching: true, selected: 1, preflight: { ready: [{ orderName: "#1035" }] } });
  });

  it("a production job needs the number of charged labels confirmed; a wrong number shows the preflight again", async () => {
    await db.shopSettings.update({ where: { shop: DEMO_SHOP }, data: { environment: "production" } });
    const preflight = await post(routes.preflight, "/app/bulk/new", { scope: "page", orderIds: READY.slice(0, 2).join(",") });
    expect(preflight.preflight).toMatchObject({ environment: "production", chargedLabels: 2 });
    const unconfirmed = await post(routes.preflight, "/app/bulk/new", { intent: "start", orderIds: READY.slice(0, 2).join(",") });
    expect(unconfirmed.error).toMatch(/2 label\(s\) will be charged/);
    expect(unconfirmed.preflight).toMatchObject({ chargedLabels: 2 });
    const wrong = await post(routes.preflight, "/app/bulk/new", { intent: "start", orderIds: READY.slice(0, 2).join(","), confirmChargedLabels: "1" });
    expect(wrong.error).toMatch(/2 label\(s\) will be charged/);
    expect(await db.bulkJob.count()).toBe(0);
    const id = await start(READY.slice(0, 2), { confirmChargedLabels: "2" });
    expect((await finished(id)).counts).toMatchObject({ labelled: 2, total: 2 });
  });
});

describe("the progress page (/app/bulk/:id)", () => {
  it("shows the job live to its end, each order with its status, reason and label; the recent jobs list it", async () => {
    const id = await start([...READY, NO_HS_CODE]);
    const first = await get(routes.job, `/app/bulk/${id}`, { id });
    expect(first.job.counts.total).toBe(4);
    const job = await finished(id, "fr");
    expect(job).toMatchObject({ status: "COMPLETED", percent: 100, retryable: 1, cancellable: false, pollMs: null });
    expect(job.counts).toMatchObject({ labelled: 3, blocked: 1, remaining: 0 });
    const blocked = job.items.find((item: { status: string }) => item.status === "BLOCKED");
    expect(blocked).toMatchObject({ orderName: "#1015", reason: expect.stringMatching(/douane/), labelUrl: null });
    for (const item of job.items.filter((entry: { status: string }) => entry.status === "LABELLED")) {
      expect(item.trackingNumber).toMatch(/\S/);
      expect(item.labelUrl).toMatch(/^https?:\/\//);
    }
    expect(job.finishedAt).toMatch(/2\d{3}/);
    const { jobs } = await get(routes.jobs, "/app/bulk");
    expect(jobs).toEqual([expect.objectContaining({ id, status: "COMPLETED", counts: expect.objectContaining({ total: 4, labelled: 3 }) })]);
    expect(await labelsSold()).toBe(3);
  });

  it("Retry failed runs the refused order again and says so; Cancel of a finished job cancels nothing", async () => {
    await fetch(`${sandbox.url}/__admin/faults`, { method: "POST", body: JSON.stringify({ refuseLabel: { next: 1 } }) });
    const id = await start([READY[0]!]);
    const failed = await finished(id);
    expect(failed.counts.refused).toBe(1);
    // The field the service refused, in the merchant's words, with what to do (not the service's text and field path).
    expect(failed.items[0].reason).toMatch(/^Address.*refused this value/);
    expect(failed.items[0].reason).not.toMatch(/recipient\.|address_line1/);
    const retried = await post(routes.job, `/app/bulk/${id}`, { intent: "retry" }, { id }, "fr");
    expect(retried).toEqual({ tone: "success", message: "1 commande en échec a été relancée ; elle est relue depuis Shopify." });
    expect((await finished(id)).counts).toMatchObject({ labelled: 1, refused: 0 });
    const again = await post(routes.job, `/app/bulk/${id}`, { intent: "retry" }, { id });
    expect(again.message).toBe("No failed order to retry.");
    const cancelled = await post(routes.job, `/app/bulk/${id}`, { intent: "cancel" }, { id });
    expect(cancelled).toEqual({ tone: "info", message: "Every order had started already: nothing was left to cancel." });
    expect(await labelsSold()).toBe(1);
  });

  it("another shop's job id is a 404 for the page, Retry failed and Cancel, and its list stays empty", async () => {
    const id = await start([READY[0]!]);
    await finished(id);
    actAs(OTHER_SHOP);
    expect(await statusOf(get(routes.job, `/app/bulk/${id}`, { id }))).toBe(404);
    expect(await statusOf(post(routes.job, `/app/bulk/${id}`, { intent: "retry" }, { id }))).toBe(404);
    expect(await statusOf(post(routes.job, `/app/bulk/${id}`, { intent: "cancel" }, { id }))).toBe(404);
    expect(await statusOf(get(routes.job, "/app/bulk/nope", { id: "nope" }))).toBe(404);
    expect((await get(routes.jobs, "/app/bulk")).jobs).toEqual([]);
    actAs(DEMO_SHOP);
    expect((await get(routes.job, `/app/bulk/${id}`, { id })).job.status).toBe("COMPLETED");
  });
});
