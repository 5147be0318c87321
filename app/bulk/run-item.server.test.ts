/**
 * How one item's run maps labelOrder's outcome to the item (labelOrder scripted here; the real one runs in
 * test/integration/bulk-jobs.test.ts): waits are retryable queue errors that never fail the item early, a purchase is
 * never retried, the queue's last attempt always leaves a final status, and the job completes with its last item.
 */
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createTestDatabase } from "../../test/helpers/test-db";
import { RetryableJobError } from "../jobs/errors";
import { createSemaphore } from "../jobs/semaphore.server";
import type { LabelContext, LabelOrderOutcome } from "../labels/label-order.server";
import type { GenerateOutcome, LabelServicePort } from "../labels/purchase.server";
import { defaultShippingSettings } from "../shipping/settings";
import { mockAdmin } from "../../test/helpers/mock-admin";
import { ITEM_QUEUE_RETRY_LIMIT, ITEM_REFUSAL_RETRIES } from "./item-job";
import { runBulkItem, SUMMARY_LOOK_EVERY_MS, type BulkRunDeps } from "./run-item.server";

type Scripted = LabelOrderOutcome | Error | ((context: LabelContext) => Promise<LabelOrderOutcome>);
const script = vi.hoisted(() => ({ outcomes: [] as Scripted[], calls: 0 }));
vi.mock("../labels/label-order.server", () => ({
  labelOrder: async (context: LabelContext) => {
    script.calls += 1;
    const next = script.outcomes.shift();
    if (!next) throw new Error("no outcome scripted");
    if (next instanceof Error) throw next;
    if (typeof next === "function") return next(context);
    return next;
  },
}));

const database = createTestDatabase();
const db = database.prisma;
const SHOP = "a.myshopify.com";
const ORDER = "gid://shopify/Order/1";

afterAll(() => database.close());

const deps: BulkRunDeps = {
  db,
  semaphore: createSemaphore({ db, dialect: "sqlite" }),
  maxConcurrency: 2,
  refusalDelayMs: () => 10,
  contextFor: async (shop, frozen) => ({ shop, db, admin: { graphql: async () => new Response("{}") }, environment: frozen.environment, settings: frozen.settings, service: async () => ({}) as never }),
};

async function job(orders = [ORDER]) {
  const created = await db.bulkJob.create({
    data: {
      shop: SHOP,
      environment: "staging",
      settingsJson: JSON.stringify(defaultShippingSettings),
      items: { create: orders.map((orderId, position) => ({ shop: SHOP, orderId, orderName: `#${position + 1}`, position, status: "QUEUED" })) },
    },
  });
  return created.id;
}

const run = (jobId: string, attempt = 1, orderId = ORDER) => runBulkItem(deps, { shop: SHOP, payload: { bulkJobId: jobId, orderId }, attempt });
const item = (jobId: string, orderId = ORDER) => db.bulkJobItem.findFirstOrThrow({ where: { jobId, orderId } });
const label = (createdAt = new Date()) => ({ id: "label-1", trackingNumber: "TRACK1", createdAt }) as never;

beforeEach(async () => {
  await db.label.deleteMany();
  await db.bulkJobItem.deleteMany();
  await db.bulkJob.deleteMany();
  script.outcomes = [];
  script.calls = 0;
});

describe("one item's run", () => {
  it("labelled: the item carries the label, and the job completes with its last item", async () => {
    const id = await job();
    script.outcomes.push({ kind: "labelled", label: label(), alreadyLabelled: false, fulfillment: { status: "created", adopted: false } });
    expect(await run(id)).toBe("LABELLED");
    expect(await item(id)).toMatchObject({ status: "LABELLED", labelId: "label-1", trackingNumber: "TRACK1", alreadyLabelled: false, attempts: 1 });
    expect(await db.bulkJob.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "COMPLETED", finishedAt: expect.any(Date) });
  });

  it("a purchase's turn holds one of the account's slots from before its attempt is recorded until the service answers, and calls in it", async () => {
    const id = await job();
    const slotsDuringCalls: number[] = [];
    const service = {
      generateLabel: async (): Promise<GenerateOutcome> => {
        slotsDuringCalls.push(await db.semaphoreSlot.count());
        return { status: "created", label: { id: "L1", reference: "TRACK1", label_url: "", tracking_url: "" } };
      },
    };
    const withService: BulkRunDeps = { ...deps, contextFor: async (shop, frozen) => ({ ...(await deps.contextFor(shop, frozen)), service: async () => service as never }) };
    const held: number[] = [];
    script.outcomes.push(async (context) => {
      const port = (await context.service()) as unknown as LabelServicePort;
      const turn = await port.reserveGenerate!();
      held.push(await db.semaphoreSlot.count());
      await turn.generateLabel({} as never);
      await turn.release();
      await turn.release(); // a second release (the purchase's own, after an early stop) changes nothing
      held.push(await db.semaphoreSlot.count());
      return { kind: "labelled", label: label(), alreadyLabelled: false, fulfillment: null };
    });
    expect(await runBulkItem(withService, { shop: SHOP, payload: { bulkJobId: id, orderId: ORDER }, attempt: 1 })).toBe("LABELLED");
    // One slot from the turn on; the call in the turn takes no second one; none once handed back.
    expect(held).toEqual([1, 0]);
    expect(slotsDuringCalls).toEqual([1]);
  });

  it("a label that predates the job is reported already labelled; one bought by an earlier run of this job is not", async () => {
    const id = await job(["o1", "o2"]);
    script.outcomes.push({ kind: "labelled", label: label(new Date(Date.now() - 60_000)), alreadyLabelled: true, fulfillment: null });
    script.outcomes.push({ kind: "labelled", label: label(new Date(Date.now() + 1000)), alreadyLabelled: true, fulfillment: null });
    await run(id, 1, "o1");
    await run(id, 1, "o2");
    expect((await item(id, "o1")).alreadyLabelled).toBe(true);
    expect((await item(id, "o2")).alreadyLabelled).toBe(false);
  });

  it("Shopify busy: the item waits (QUEUED) and the queue retries with Shopify's delay; no refusal counted", async () => {
    const id = await job();
    script.outcomes.push({ kind: "refused", retryable: true, reason: { code: "shopify_busy", params: { seconds: "7" } } });
    const error = await run(id).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(RetryableJobError);
    expect((error as RetryableJobError).retryAfterMs).toBe(7000);
    expect(await item(id)).toMatchObject({ status: "QUEUED", refusals: 0 });
    expect((await db.bulkJob.findUniqueOrThrow({ where: { id } })).status).toBe("RUNNING");
  });

  it("a 429 is retried a bounded number of times, then the item is REFUSED", async () => {
    const id = await job();
    const refusal: LabelOrderOutcome = { kind: "refused", retryable: true, reason: { code: "service_refused", params: { message: "429" } } };
    for (let attempt = 1; attempt <= ITEM_REFUSAL_RETRIES; attempt++) {
      script.outcomes.push(refusal);
      await expect(run(id, attempt)).rejects.toBeInstanceOf(RetryableJobError);
    }
    script.outcomes.push(refusal);
    expect(await run(id, ITEM_REFUSAL_RETRIES + 1)).toBe("REFUSED");
    expect(await item(id)).toMatchObject({ status: "REFUSED", refusals: ITEM_REFUSAL_RETRIES, reasonJson: expect.stringContaining("service_retries_exhausted") });
  });

  it("blocked and pending keep their reason as data; pending keeps the attempt to follow", async () => {
    const id = await job(["o1", "o2"]);
    script.outcomes.push({
      kind: "blocked",
      problems: [{ code: "hs_code_missing", path: "cn23_data.products[0].hs_code", orderName: "#1", severity: "blocking", message: { en: "No HS code.", fr: "Pas de code SH." }, fix: { en: "Add it.", fr: "Ajoutez-le." } }],
    });
    script.outcomes.push({ kind: "pending", attempt: { id: "attempt-9" } as never, reason: { code: "purchase_unknown", params: { reference: "20261123-001" } } });
    await run(id, 1, "o1");
    await run(id, 1, "o2");
    expect(JSON.parse((await item(id, "o1")).reasonJson!)).toMatchObject({ code: "order_problem", params: { problem: "hs_code_missing", messageFr: "Pas de code SH." } });
    expect(await item(id, "o2")).toMatchObject({ status: "PENDING", attemptId: "attempt-9" });
    expect((await db.bulkJob.findUniqueOrThrow({ where: { id } })).status).toBe("COMPLETED");
  });

  it("an unexpected error waits and retries; on the queue's last attempt the item ends REFUSED, never stuck RUNNING", async () => {
    const id = await job();
    script.outcomes.push(new Error("database is locked"));
    await expect(run(id, 1)).rejects.toBeInstanceOf(RetryableJobError);
    expect((await item(id)).status).toBe("QUEUED");
    script.outcomes.push(new Error("database is locked"));
    expect(await run(id, ITEM_QUEUE_RETRY_LIMIT + 1)).toBe("REFUSED");
    expect(await item(id)).toMatchObject({ status: "REFUSED", reasonJson: expect.stringContaining("unexpected_error") });
  });

  it("a cancelled or finished item, another shop's payload, or an unknown item is skipped without calling labelOrder", async () => {
    const id = await job();
    await db.bulkJobItem.updateMany({ data: { status: "CANCELLED" } });
    expect(await run(id)).toBe("skipped");
    expect(await runBulkItem(deps, { shop: "b.myshopify.com", payload: { bulkJobId: id, orderId: ORDER }, attempt: 1 })).toBe("skipped");
    expect(await run("no-such-job")).toBe("skipped");
    expect(script.calls).toBe(0);
  });
});

describe("the job's batched order summaries", () => {
  /** A job of `count` orders whose items' pushes each leave their order's summary due, and the Admin calls seen. */
  async function summaryJob(count: number) {
    const orders = Array.from({ length: count }, (_, n) => `gid://shopify/Order/${100 + n}`);
    const id = await job(orders);
    const batches: string[][] = [];
    const admin = mockAdmin({
      OrderLabelMetafieldSet: (variables) => {
        batches.push((variables.metafields as { ownerId: string }[]).map((metafield) => metafield.ownerId));
        return { data: { metafieldsSet: { metafields: [{ id: "gid://shopify/Metafield/1" }], userErrors: [] } } };
      },
    });
    for (const [n, orderId] of orders.entries()) {
      script.outcomes.push(async () => {
        const stored = await db.label.create({
          data: {
            shop: SHOP, orderId, orderName: `#${n + 1}`, environment: "staging", customReference: `20261128-${n}`, serviceLabelId: `L${n}`, trackingNumber: `T${n}`,
            trackingUrl: "", labelUrl: "", carrierName: "Colissimo", carrierServiceName: "s", labelFormat: "PDF_A4_300dpi", requestSnapshotJson: "{}",
            fulfillmentStatus: "CREATED", summaryDueAt: new Date(Date.now() + n),
          },
        });
        return { kind: "labelled", label: stored, alreadyLabelled: false, fulfillment: { status: "created", adopted: false } };
      });
    }
    /** An instance of the app: its own deps (so its own counts), this job's Admin client, the given clock. */
    const instance = (clock: () => Date): BulkRunDeps => ({ ...deps, now: clock, contextFor: async (...args) => ({ ...(await deps.contextFor(...args)), admin }) });
    const runOn = async (on: BulkRunDeps, orderId: string) => expect(await runBulkItem(on, { shop: SHOP, payload: { bulkJobId: id, orderId }, attempt: 1 })).toBe("LABELLED");
    const sizes = () => batches.map((batch) => batch.length);
    return { orders, batches, sizes, instance, runOn };
  }

  it("are written a full batch at a time as soon as this instance's labels make one, and the rest by the job's last item", async () => {
    const { orders, sizes, instance, runOn } = await summaryJob(27);
    const one = instance(() => new Date());
    const after: number[][] = [];
    for (const orderId of orders) {
      await runOn(one, orderId);
      after.push(sizes());
    }
    expect(after[23]).toEqual([]);
    expect(after[24]).toEqual([25]);
    expect(after[25]).toEqual([25]);
    expect(after[26]).toEqual([25, 2]);
    expect(await db.label.count({ where: { metafieldWritten: false } })).toBe(0);
  });

  it("with two instances, each counting only its own items, a full batch waits at most SUMMARY_LOOK_EVERY_MS, and every summary is written once", async () => {
    const { orders, batches, sizes, instance, runOn } = await summaryJob(30);
    let now = new Date("2026-11-28T09:00:00.000Z");
    const a = instance(() => now);
    const b = instance(() => now);
    // Each instance's first item looks (it may have summaries waiting from before it started): 1, then 2 due.
    await runOn(a, orders[0]!);
    await runOn(b, orders[1]!);
    // 26 due by item 26, but A counts 11 and B 16: neither looks.
    for (const orderId of orders.slice(2, 12)) await runOn(a, orderId);
    for (const orderId of orders.slice(12, 26)) await runOn(b, orderId);
    expect(sizes()).toEqual([]);
    // Past the period, A's next item looks and writes the full batch B's items made.
    now = new Date(now.getTime() + SUMMARY_LOOK_EVERY_MS);
    await runOn(a, orders[26]!);
    expect(sizes()).toEqual([25]);
    for (const orderId of orders.slice(27)) await runOn(b, orderId);
    // The job's last item wrote the rest; each order's summary once.
    expect(sizes()).toEqual([25, 5]);
    expect(new Set(batches.flat()).size).toBe(30);
    expect(await db.label.count({ where: { metafieldWritten: false } })).toBe(0);
  });
});
