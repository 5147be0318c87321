/**
 * The label path's plain statements (app/labels/label-rows.server.ts, app/bulk/item-rows.server.ts; decision 0199) on
 * both databases: each row they read or write is exactly what Prisma's model queries read back (same fields, same
 * types, same stored date format), a held slot is refused as a unique violation, and the counters stay atomic.
 */
import { describe, expect, it } from "vitest";
import type { PrismaClient } from "../../app/generated/prisma/client";
import { anyItemLeft, claimItem, insertItems, jobsWithPendingItems, pendingItems, readJob, settleItem, staleItems, type NewItem } from "../../app/bulk/item-rows.server";
import {
  accountsLike,
  attemptForFulfillmentOrder,
  attemptInSlot,
  claimDueSummaries,
  claimLabelStep,
  dueAttempts,
  dueSummaries,
  insertAttempt,
  insertLabelForAttempt,
  isUniqueViolation,
  labelById,
  liveLabelsOf,
  newRowId,
  nextReferenceValue,
  stuckLabels,
  unwrittenSummaryLabels,
  updateLabelStep,
  type NewAttempt,
} from "../../app/labels/label-rows.server";
import { fulfilTestLabelsSetting } from "../../app/settings/test-labels.server";
import { BOTH_DATABASES, useDatabase } from "../helpers/both-databases";

const SHOP = "raw-rows.myshopify.com";

/** What an attempt and its label share: the order's n and its reference. */
function orderOf(n: number) {
  return { shop: SHOP, orderId: `gid://shopify/Order/${n}`, orderName: `#${n}`, environment: "staging", customReference: `20261126-${n}` };
}

function attemptInput(n: number, overrides: Partial<NewAttempt> = {}): NewAttempt {
  return {
    ...orderOf(n),
    orderSlot: `${SHOP}|gid://shopify/Order/${n}|1`,
    labelIndex: 1,
    locationId: null,
    fulfillmentOrderId: `gid://shopify/FulfillmentOrder/${n}`,
    status: "PENDING",
    requestJson: JSON.stringify({ carrier_name: "Colissimo", carrier_service_name: "Expert", sender: { labelType: "PDF_A4" } }),
    ...overrides,
  };
}

function labelInput(n: number) {
  return {
    ...orderOf(n),
    serviceLabelId: `L-${n}`,
    trackingNumber: `6A${n}`,
    trackingUrl: `https://t.example/${n}`,
    labelUrl: `https://l.example/${n}.pdf`,
    carrierName: "Colissimo",
    carrierServiceName: "Expert",
    labelFormat: "PDF_A4",
    requestSnapshotJson: "{}",
    fulfillmentOrderId: `gid://shopify/FulfillmentOrder/${n}`,
  };
}


describe.each(BOTH_DATABASES)("plain statements of the label path on %s", (name, open) => {
  let db: PrismaClient;
  useDatabase(open, (client) => (db = client));

  it("writes an attempt exactly as Prisma reads it back, and refuses a held slot as a unique violation", async () => {
    const now = new Date("2026-11-26T10:00:00.123Z");
    const written = await insertAttempt(db, attemptInput(1), now);
    const read = await db.purchaseAttempt.findUniqueOrThrow({ where: { id: written.id } });
    expect(written).toEqual(read);
    expect(read.createdAt).toEqual(now);
    expect(read.updatedAt).toEqual(now);
    expect(read.reconcileCount).toBe(0);
    expect(read.labelId).toBeNull();
    // Dates are stored as Prisma stores them, so Prisma's own filters on them still work.
    expect(await db.purchaseAttempt.count({ where: { createdAt: { gte: new Date("2026-11-26T10:00:00.000Z"), lt: new Date("2026-11-26T10:00:01Z") } } })).toBe(1);
    expect(await attemptInSlot(db, attemptInput(1).orderSlot, SHOP)).toEqual(read);
    expect(await attemptInSlot(db, attemptInput(1).orderSlot, "other.myshopify.com")).toBeNull();

    const error = await insertAttempt(db, attemptInput(1, { customReference: "20261126-1b" }), now).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).not.toBeNull();
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(new Error("no such table: PurchaseAttempt"))).toBe(false);
    // A foreign key refusing the row is not a held slot.
    const foreign = await db.$executeRaw`UPDATE "PurchaseAttempt" SET "labelId" = ${"no-such-label"} WHERE "id" = ${written.id}`.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(foreign).not.toBeNull();
    expect(isUniqueViolation(foreign)).toBe(false);
  });

  it("stores a label for an attempt once: a second adopter gets null and nothing more is written", async () => {
    const attempt = await insertAttempt(db, attemptInput(2), new Date());
    const now = new Date("2026-11-26T11:00:00.456Z");
    const label = await insertLabelForAttempt(db, attempt.id, labelInput(2), "CREATED", now);
    expect(label).not.toBeNull();
    expect(label).toEqual(await db.label.findUniqueOrThrow({ where: { id: label!.id } }));
    expect(label).toMatchObject({ fulfillmentStatus: "PENDING", metafieldWritten: false, fulfillmentId: null, voidState: null, createdAt: now });
    const closed = await db.purchaseAttempt.findUniqueOrThrow({ where: { id: attempt.id }, include: { label: true } });
    expect(closed).toMatchObject({ status: "CREATED", labelId: label!.id, nextReconcileAt: null, updatedAt: now });
    expect(closed.label).toEqual(label);

    expect(await insertLabelForAttempt(db, attempt.id, { ...labelInput(2), serviceLabelId: "L-2-again" }, "CREATED", now)).toBeNull();
    expect(await db.label.count({ where: { orderId: labelInput(2).orderId } })).toBe(1);
    expect(await labelById(db, label!.id)).toEqual(label);
    expect(await labelById(db, label!.id, "other.myshopify.com")).toBeNull();
  });

  it("finds another slot's attempt for the same fulfillment order, not its own", async () => {
    const own = attemptInput(3);
    const other = await insertAttempt(db, attemptInput(3, { orderSlot: `${own.orderSlot}|gid://shopify/Location/9`, customReference: "20261126-3b" }), new Date());
    expect(await attemptForFulfillmentOrder(db, { shop: SHOP, orderId: own.orderId, fulfillmentOrderId: own.fulfillmentOrderId!, exceptSlot: own.orderSlot })).toEqual(other);
    expect(await attemptForFulfillmentOrder(db, { shop: SHOP, orderId: own.orderId, fulfillmentOrderId: own.fulfillmentOrderId!, exceptSlot: other.orderSlot! })).toBeNull();
  });

  it("claims and settles a label's Shopify step with the conditions of the push", async () => {
    const attempt = await insertAttempt(db, attemptInput(4), new Date());
    const label = (await insertLabelForAttempt(db, attempt.id, labelInput(4), "CREATED", new Date()))!;
    const at = new Date("2026-11-26T12:00:00.000Z");
    const stale = new Date(at.getTime() - 60_000);
    expect(await claimLabelStep(db, { id: label.id, shop: "other.myshopify.com", neverPushed: true, staleBefore: stale }, at)).toBe(false);
    expect(await claimLabelStep(db, { id: label.id, shop: SHOP, neverPushed: true, staleBefore: stale }, at)).toBe(true);
    // Claimed a moment ago: nobody else takes it until the claim is stale.
    expect(await claimLabelStep(db, { id: label.id, shop: SHOP, neverPushed: false, staleBefore: stale }, at)).toBe(false);
    expect(await claimLabelStep(db, { id: label.id, shop: SHOP, neverPushed: false, staleBefore: new Date(at.getTime() + 1) }, at)).toBe(true);

    const done = await updateLabelStep(db, label.id, { fulfillmentStatus: "CREATED", fulfillmentId: "gid://shopify/Fulfillment/4", fulfillmentError: null, metafieldWritten: false, summaryDueAt: at }, at);
    expect(done).toEqual(await db.label.findUniqueOrThrow({ where: { id: label.id } }));
    expect(done).toMatchObject({ fulfillmentStatus: "CREATED", fulfillmentId: "gid://shopify/Fulfillment/4", summaryDueAt: at, updatedAt: at, metafieldWritten: false });
    // Fulfilled: neither claim takes it again.
    expect(await claimLabelStep(db, { id: label.id, shop: SHOP, neverPushed: false, staleBefore: new Date(at.getTime() + 60_000) }, at)).toBe(false);
    // A void label never goes back to Shopify.
    await db.label.update({ where: { id: label.id }, data: { fulfillmentStatus: "FAILED", voidState: "VOIDING" } });
    expect(await claimLabelStep(db, { id: label.id, shop: SHOP, neverPushed: false, staleBefore: at }, at)).toBe(false);
    expect(await updateLabelStep(db, "no-such-label", { fulfillmentStatus: "FAILED", fulfillmentError: null }, at)).toBeNull();
  });

  it("lists the summaries waiting for a batch, and hands each to one writer", async () => {
    await db.label.updateMany({ where: { shop: SHOP }, data: { summaryDueAt: null } });
    const ids: string[] = [];
    for (const n of [5, 6]) {
      const attempt = await insertAttempt(db, attemptInput(n), new Date());
      const label = (await insertLabelForAttempt(db, attempt.id, labelInput(n), "CREATED", new Date()))!;
      await updateLabelStep(db, label.id, { fulfillmentStatus: "CREATED", fulfillmentError: null, metafieldWritten: false, summaryDueAt: new Date(Date.UTC(2026, 10, 26, 14, n)) }, new Date());
      ids.push(label.id);
    }
    expect(await dueSummaries(db, SHOP, 25)).toEqual([
      { id: ids[0], orderId: "gid://shopify/Order/5" },
      { id: ids[1], orderId: "gid://shopify/Order/6" },
    ]);
    expect(await dueSummaries(db, SHOP, 1)).toHaveLength(1);
    const at = new Date("2026-11-26T15:00:00.000Z");
    expect(await claimDueSummaries(db, ids, at)).toHaveLength(2);
    expect(await claimDueSummaries(db, ids, at)).toEqual([]);
    expect(await db.label.findUniqueOrThrow({ where: { id: ids[0] } })).toMatchObject({ summaryDueAt: null, updatedAt: at });
    expect(await dueSummaries(db, SHOP, 25)).toEqual([]);
    const live = await liveLabelsOf(db, SHOP, ["gid://shopify/Order/5", "gid://shopify/Order/6", "gid://shopify/Order/404"]);
    expect(live.map((label) => label.id).sort()).toEqual([...ids].sort());
  });

  it("counts references atomically, from 1 each day", async () => {
    expect(await nextReferenceValue(db, SHOP, "20261127")).toBe(1);
    const values = await Promise.all(Array.from({ length: 12 }, () => nextReferenceValue(db, SHOP, "20261127")));
    expect(values.sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 2));
    expect(await nextReferenceValue(db, SHOP, "20261128")).toBe(1);
    expect(await db.referenceCounter.findUniqueOrThrow({ where: { shop_day: { shop: SHOP, day: "20261127" } } })).toMatchObject({ value: 13 });
  });

  it("lists the shops that saved the same label-service login, whatever its case", async () => {
    await db.labelServiceAccount.createMany({
      data: [
        { shop: SHOP, environment: "staging", email: "Ops@Example.com", passwordCiphertext: "x", keyVersion: 1 },
        { shop: "b.myshopify.com", environment: "staging", email: "ops@example.com", passwordCiphertext: "x", keyVersion: 1 },
        { shop: "c.myshopify.com", environment: "production", email: "ops@example.com", passwordCiphertext: "x", keyVersion: 1 },
        { shop: "d.myshopify.com", environment: "staging", email: "other@example.com", passwordCiphertext: "x", keyVersion: 1 },
      ],
    });
    expect(await accountsLike(db, SHOP, "staging")).toEqual({ own: "Ops@Example.com", others: [{ shop: "b.myshopify.com", email: "ops@example.com" }] });
    expect(await accountsLike(db, "nobody.myshopify.com", "staging")).toEqual({ own: null, others: [] });
  });

  it("reads the test-labels setting as a boolean", async () => {
    expect(await fulfilTestLabelsSetting(db, SHOP)).toBe(false);
    await db.shopSettings.create({ data: { shop: SHOP, settingsJson: "{}", fulfilTestLabels: true } });
    expect(await fulfilTestLabelsSetting(db, SHOP)).toBe(true);
  });

  it("reads, claims and settles a bulk item as Prisma reads it back", async () => {
    const job = await db.bulkJob.create({ data: { shop: SHOP, environment: "staging", settingsJson: "{}" } });
    const item = await db.bulkJobItem.create({
      data: { jobId: job.id, shop: SHOP, orderId: "gid://shopify/Order/7", orderName: "#7", position: 0, status: "QUEUED", orderSealed: "sealed", orderReadAt: new Date() },
    });
    expect(await readJob(db, job.id)).toEqual(job);
    expect(await anyItemLeft(db, job.id)).toBe(true);

    const started = new Date("2026-11-26T13:00:00.000Z");
    const key = { jobId: job.id, orderId: item.orderId, shop: SHOP };
    // Another shop's claim, or another order's, finds nothing and changes nothing.
    expect(await claimItem(db, { ...key, shop: "other.myshopify.com" }, started)).toBeNull();
    expect(await claimItem(db, { ...key, orderId: "gid://shopify/Order/8" }, started)).toBeNull();
    const claimed = await claimItem(db, key, started);
    // The claimed row as Prisma reads it back, fields and types alike.
    expect(claimed).toEqual(await db.bulkJobItem.findUniqueOrThrow({ where: { id: item.id } }));
    expect(claimed).toMatchObject({ ...item, status: "RUNNING", attempts: 1, startedAt: started, updatedAt: started });
    expect(await anyItemLeft(db, job.id)).toBe(true); // RUNNING is still to finish
    // A retryable refusal: queued again, the read kept for the next run, one more refusal counted.
    expect(await settleItem(db, item.id, "QUEUED", { reasonJson: '{"code":"retry_waiting"}', refused: true }, started)).toBe(true);
    expect(await db.bulkJobItem.findUniqueOrThrow({ where: { id: item.id } })).toMatchObject({ status: "QUEUED", refusals: 1, orderSealed: "sealed", finishedAt: null });
    expect(await settleItem(db, item.id, "LABELLED", {}, started)).toBe(false);

    // The next run keeps the first run's start.
    expect(await claimItem(db, key, new Date())).toMatchObject({ status: "RUNNING", attempts: 2, startedAt: started, refusals: 1 });
    const finished = new Date("2026-11-26T13:01:00.000Z");
    expect(await settleItem(db, item.id, "LABELLED", { labelId: "label-7", trackingNumber: "6A7", alreadyLabelled: true, reasonJson: null }, finished)).toBe(true);
    expect(await claimItem(db, key, new Date())).toBeNull();
    const row = await db.bulkJobItem.findUniqueOrThrow({ where: { id: item.id } });
    expect(row).toMatchObject({ status: "LABELLED", attempts: 2, startedAt: started, finishedAt: finished, labelId: "label-7", alreadyLabelled: true, orderSealed: null, orderReadAt: null, reasonJson: null });
    expect(await anyItemLeft(db, job.id)).toBe(false);
  });

  it("reads for the background passes exactly what their former model queries read (decision 0218)", async () => {
    // Fixed times well before the other tests' rows, so only this test's rows fall on either side of each bound.
    const now = new Date("2026-01-15T12:00:00.000Z");
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const minute = 60_000;
    const staleBefore = ago(5 * minute);
    const passShop = "passes.myshopify.com";
    const ours = <T extends { shop: string }>(rows: T[]) => rows.filter((row) => row.shop === passShop);

    // Attempts: [order n, status, nextReconcileAt, updatedAt, due?]
    const attempts: [number, string, Date | null, Date, boolean][] = [
      [101, "UNKNOWN", ago(1_000), ago(minute), true],
      [102, "UNKNOWN", now, ago(2 * minute), true],
      [103, "UNKNOWN", new Date(now.getTime() + 1_000), ago(30 * minute), false],
      [104, "UNKNOWN", null, ago(30 * minute), false],
      [105, "PENDING", null, ago(10 * minute), true],
      [106, "PENDING", null, staleBefore, true],
      [107, "PENDING", null, ago(minute), false],
      [108, "CREATED", null, ago(60 * minute), false],
      [109, "NEEDS_REVIEW", ago(60 * minute), ago(60 * minute), false],
    ];
    const attemptIds = new Map<number, string>();
    for (const [n, status, nextReconcileAt, updatedAt] of attempts) {
      const row = await insertAttempt(db, { ...attemptInput(n, { status }), shop: passShop, orderSlot: `${passShop}|${n}` }, updatedAt);
      await db.purchaseAttempt.update({ where: { id: row.id }, data: { nextReconcileAt, updatedAt } });
      attemptIds.set(n, row.id);
    }
    const dueByModel = await db.purchaseAttempt.findMany({
      where: { OR: [{ status: "UNKNOWN", nextReconcileAt: { lte: now } }, { status: "PENDING", updatedAt: { lte: staleBefore } }] },
      orderBy: { updatedAt: "asc" },
      take: 20,
      select: { id: true, shop: true, environment: true },
    });
    const due = await dueAttempts(db, { now, staleBefore, limit: 20 });
    expect(due).toEqual(dueByModel);
    // Oldest first: 105 (10 min), 106 (5 min), 102 (2 min), 101 (1 min).
    expect(ours(due).map((row) => row.id)).toEqual([105, 106, 102, 101].map((n) => attemptIds.get(n)));
    expect(await dueAttempts(db, { now, staleBefore, limit: 2 })).toEqual(dueByModel.slice(0, 2));

    // Labels: [order n, fulfillmentStatus, updatedAt, createdAt, metafieldWritten, void?]
    const labels: [number, string, Date, Date, boolean, boolean][] = [
      [111, "IN_PROGRESS", ago(10 * minute), ago(60 * minute), false, false],
      [112, "PENDING", ago(6 * minute), ago(60 * minute), false, false],
      [113, "IN_PROGRESS", ago(minute), ago(60 * minute), false, false],
      [114, "IN_PROGRESS", ago(10 * minute), ago(60 * minute), false, true],
      [115, "CREATED", ago(2 * minute), ago(60 * minute), false, false],
      [116, "CREATED", ago(30_000), ago(60 * minute), false, false],
      [117, "CREATED", ago(2 * minute), ago(25 * 60 * minute), false, false],
      [118, "CREATED", ago(2 * minute), ago(60 * minute), true, false],
      [119, "CREATED", ago(10 * minute), ago(60 * minute), true, false],
      [120, "IN_PROGRESS", staleBefore, ago(60 * minute), false, false],
      [121, "CREATED", ago(minute), ago(60 * minute), false, false],
      [122, "CREATED", ago(3 * minute), ago(24 * 60 * minute), false, false],
    ];
    const labelIds = new Map<number, string>();
    for (const [n, fulfillmentStatus, updatedAt, createdAt, metafieldWritten, voided] of labels) {
      const attempt = await insertAttempt(db, { ...attemptInput(n), shop: passShop, orderSlot: `${passShop}|${n}`, status: "CREATED" }, createdAt);
      const label = (await insertLabelForAttempt(db, attempt.id, { ...labelInput(n), shop: passShop }, "CREATED", createdAt))!;
      await db.label.update({ where: { id: label.id }, data: { fulfillmentStatus, updatedAt, createdAt, metafieldWritten, voidState: voided ? "VOID" : null } });
      labelIds.set(n, label.id);
    }
    const claimedBefore = staleBefore;
    const stuck = await stuckLabels(db, { claimedBefore, limit: 20 });
    expect(stuck).toEqual(
      await db.label.findMany({
        where: { fulfillmentStatus: { in: ["PENDING", "IN_PROGRESS"] }, updatedAt: { lt: claimedBefore }, voidState: null },
        orderBy: { updatedAt: "asc" },
        take: 20,
        select: { id: true, shop: true, fulfillmentStatus: true },
      }),
    );
    // Not 120 (claimed exactly at the bound), 114 (void), 113 (recent) or 119 (older, but not pushing).
    expect(ours(stuck).map((row) => row.id)).toEqual([111, 112].map((n) => labelIds.get(n)));
    expect(await stuckLabels(db, { claimedBefore, limit: 1 })).toEqual(stuck.slice(0, 1));
    const touchedBefore = ago(minute);
    const createdSince = ago(24 * 60 * minute);
    const unwritten = await unwrittenSummaryLabels(db, { touchedBefore, createdSince, limit: 20 });
    expect(unwritten).toEqual(
      await db.label.findMany({
        where: { fulfillmentStatus: "CREATED", metafieldWritten: false, updatedAt: { lte: touchedBefore }, createdAt: { gte: createdSince } },
        orderBy: { updatedAt: "asc" },
        take: 20,
        select: { id: true, shop: true },
      }),
    );
    // 122 was created exactly a day before, 121 touched exactly a minute before: both in. Not 116 (touched 30 s
    // before), 117 (created over a day before), 118 and 119 (written), nor the labels not fulfilled.
    expect(ours(unwritten).map((row) => row.id)).toEqual([122, 115, 121].map((n) => labelIds.get(n)));
    expect(await unwrittenSummaryLabels(db, { touchedBefore, createdSince, limit: 1 })).toEqual(unwritten.slice(0, 1));

    // Bulk items of two jobs: PENDING, stale and fresh RUNNING and QUEUED.
    const running = await db.bulkJob.create({ data: { shop: passShop, environment: "staging", settingsJson: "{}" } });
    const cancelled = await db.bulkJob.create({ data: { shop: passShop, environment: "staging", settingsJson: "{}", status: "CANCELLED" } });
    const items: [string, string, Date][] = [
      [running.id, "PENDING", ago(minute)],
      [running.id, "PENDING", ago(2 * minute)],
      [cancelled.id, "PENDING", ago(minute)],
      [running.id, "RUNNING", ago(10 * minute)],
      [cancelled.id, "RUNNING", ago(20 * minute)],
      [running.id, "RUNNING", ago(minute)],
      [running.id, "QUEUED", ago(10 * minute)],
      [running.id, "QUEUED", ago(minute)],
      [running.id, "LABELLED", ago(30 * minute)],
      [running.id, "RUNNING", staleBefore],
    ];
    for (const [position, [jobId, status, updatedAt]] of items.entries()) {
      await db.bulkJobItem.create({ data: { jobId, shop: passShop, orderId: `gid://shopify/Order/${200 + position}`, orderName: `#${200 + position}`, position, status, updatedAt } });
    }
    const byId = <T extends { id: string }>(rows: T[]) => [...rows].sort((a, b) => a.id.localeCompare(b.id));
    const pendingByModel = await db.bulkJobItem.findMany({ where: { status: "PENDING", shop: passShop } });
    expect(pendingByModel).toHaveLength(3);
    expect(byId(await pendingItems(db, { shop: passShop, limit: 500 }))).toEqual(byId(pendingByModel));
    expect(byId(await pendingItems(db, { jobId: running.id, limit: 500 }))).toEqual(byId(pendingByModel.filter((item) => item.jobId === running.id)));
    expect(await pendingItems(db, { shop: passShop, limit: 1 })).toHaveLength(1);
    // The recurring pass reads every shop's.
    expect(byId(await pendingItems(db, { limit: 500 }))).toEqual(byId(await db.bulkJobItem.findMany({ where: { status: "PENDING" }, take: 500 })));
    const jobsByModel = await db.bulkJobItem.findMany({ where: { status: "PENDING" }, distinct: ["jobId"], select: { jobId: true }, take: 100 });
    const jobIds = await jobsWithPendingItems(db, 100);
    expect([...jobIds].sort()).toEqual(jobsByModel.map((row) => row.jobId).sort());
    expect(jobIds).toEqual(expect.arrayContaining([running.id, cancelled.id]));
    const oneJob = await jobsWithPendingItems(db, 1);
    expect(oneJob).toHaveLength(1);
    expect(jobIds).toContain(oneJob[0]);

    const updatedBefore = staleBefore;
    for (const status of ["RUNNING", "QUEUED"] as const) {
      const stale = await staleItems(db, { status, updatedBefore, limit: 200 });
      const byModel = await db.bulkJobItem.findMany({
        where: { status, updatedAt: { lt: updatedBefore } },
        include: { job: { select: { status: true } } },
        orderBy: { updatedAt: "asc" },
        take: 200,
      });
      expect(stale.map(({ jobStatus, ...item }) => ({ ...item, job: { status: jobStatus } }))).toEqual(byModel);
      expect(await staleItems(db, { status, updatedBefore, limit: 1 })).toEqual(stale.slice(0, 1));
    }
    const staleRunning = ours(await staleItems(db, { status: "RUNNING", updatedBefore, limit: 200 }));
    // Not the item touched exactly at the bound, nor the fresh one.
    expect(staleRunning.map((item) => [item.jobId, item.jobStatus])).toEqual([[cancelled.id, "CANCELLED"], [running.id, "RUNNING"]]);
    expect(ours(await staleItems(db, { status: "QUEUED", updatedBefore, limit: 200 })).map((item) => item.position)).toEqual([6]);
  });

  it("writes a job's items inside the creation's transaction as createMany writes them (230: three statements)", async () => {
    const readAt = new Date("2026-11-27T08:00:00.000Z");
    const items: NewItem[] = Array.from({ length: 230 }, (_, i): NewItem => {
      const base = { shop: SHOP, orderId: `gid://shopify/Order/${1000 + i}`, orderName: `#${1000 + i}`, position: i };
      if (i % 3 === 0) return { ...base, status: "QUEUED", orderSealed: `sealed-${i}`, orderReadAt: readAt };
      if (i % 3 === 1) return { ...base, status: "BLOCKED", reasonJson: '{"code":"missing_hs_code","params":{}}' };
      return { ...base, status: "LABELLED", alreadyLabelled: true, labelId: `label-${i}`, trackingNumber: `6A${i}`, finishedAt: readAt };
    });
    const byModel = await db.bulkJob.create({ data: { shop: SHOP, environment: "staging", settingsJson: "{}" } });
    await db.bulkJobItem.createMany({ data: items.map((item) => ({ ...item, jobId: byModel.id })) });
    const byStatements = await db.bulkJob.create({ data: { shop: SHOP, environment: "staging", settingsJson: "{}" } });
    const now = new Date();
    await db.$transaction(async (tx) => insertItems(tx, byStatements.id, items, now));

    const read = (jobId: string) => db.bulkJobItem.findMany({ where: { jobId }, orderBy: { position: "asc" } });
    const [model, plain] = [await read(byModel.id), await read(byStatements.id)];
    const comparable = ({ id: _id, jobId: _job, createdAt: _c, updatedAt: _u, ...rest }: (typeof model)[number]) => rest;
    expect(plain.map(comparable)).toEqual(model.map(comparable));
    expect(plain.every((row) => row.createdAt.getTime() === now.getTime() && row.updatedAt.getTime() === now.getTime())).toBe(true);
    expect(new Set(plain.map((row) => row.id)).size).toBe(230);
    // SQLite stores a date as text: the same text Prisma writes (compared by shape, digits aside). PostgreSQL stores a
    // timestamp, whatever the writer.
    if (name !== "SQLite") return;
    const stored = async (jobId: string) =>
      await db.$queryRawUnsafe<Record<string, string | null>[]>(
        `SELECT CAST("createdAt" AS TEXT) AS "c", CAST("finishedAt" AS TEXT) AS "f", CAST("orderReadAt" AS TEXT) AS "r"
          FROM "BulkJobItem" WHERE "jobId" = '${jobId}' AND "position" IN (0, 2) ORDER BY "position"`,
      );
    const shape = (rows: Record<string, string | null>[]) => rows.map((row) => Object.values(row).map((text) => text?.replace(/\d/g, "0") ?? null));
    const written = shape(await stored(byStatements.id));
    expect(written.flat().filter((text) => text !== null)).toHaveLength(4); // createdAt twice, finishedAt, orderReadAt
    expect(written).toEqual(shape(await stored(byModel.id)));
  });
});

describe("row ids", () => {
  it("look like Prisma's and sort by creation", () => {
    const ids = Array.from({ length: 50 }, (_, i) => newRowId(1_764_000_000_000 + i));
    for (const id of ids) expect(id).toMatch(/^c[0-9a-z]{24}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(Array.from({ length: 1000 }, () => newRowId())).size).toBe(1000);
  });
});
