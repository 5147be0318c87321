/**
 * The statements the purchase path runs on every label (the slot's holder, the reference counter, the attempt, the
 * label and its Shopify step), as plain SQL (decision 0199): the same text on SQLite and PostgreSQL, and about a
 * quarter of the CPU of the model queries they replace. They run straight on the client's driver adapter, past
 * Prisma's query compiler, with the client's own conversions (`statements`, decision 0202). Rows are read with
 * `SELECT *` or `RETURNING *`, so they carry the model's fields and types (test/integration/raw-rows.test.ts holds
 * that on both databases). Writes set `createdAt`/`updatedAt` themselves: the column defaults and Prisma's
 * @updatedAt only apply to Prisma's own model queries, and the stored format must stay the one Prisma writes.
 */
import { randomFillSync } from "node:crypto";
import { Prisma, type Label, type PrismaClient, type PurchaseAttempt } from "../generated/prisma/client";
import { statements, transactions, unsynced, type RawTransactions } from "../db-direct.server";
import { ATTEMPT, CLAIMABLE_FULFILLMENT_STATUSES, FULFILLMENT, PUSHING_FULFILLMENT_STATUSES } from "./status";

export type RawDb = Pick<PrismaClient, "$queryRaw" | "$executeRaw">;

let counter = 0;

/** Random bytes drawn 2 KiB at a time: one call into the system's generator per 256 ids, not one per id. */
const randomPool = Buffer.alloc(8 * 256);
let randomAt = randomPool.length;

function random64(): bigint {
  if (randomAt === randomPool.length) {
    randomFillSync(randomPool);
    randomAt = 0;
  }
  const value = randomPool.readBigUInt64BE(randomAt);
  randomAt += 8;
  return value;
}

/**
 * A new row id in the family Prisma's cuid() makes: "c", the time in base 36, a counter and randomness (25
 * characters, increasing with time within a process, so ids sort by creation like Prisma's).
 */
export function newRowId(now = Date.now()): string {
  counter = (counter + 1) % 36 ** 4;
  const random = random64().toString(36).padStart(12, "0").slice(-12);
  return `c${now.toString(36).padStart(8, "0")}${counter.toString(36).padStart(4, "0")}${random}`;
}

/**
 * A unique index refused the row. Prisma's model queries say P2002; its raw ones say P2010, with the driver
 * adapter's classification of the database's error (`UniqueConstraintViolation` on SQLite and PostgreSQL alike).
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, meta } = error as { code?: string; meta?: { driverAdapterError?: { cause?: { kind?: string } } } };
  if (code === "P2002") return true;
  return code === "P2010" && meta?.driverAdapterError?.cause?.kind === "UniqueConstraintViolation";
}

export async function attemptInSlot(db: RawDb, slot: string, shop: string): Promise<PurchaseAttempt | null> {
  const rows = await statements(db).$queryRaw<PurchaseAttempt[]>`SELECT * FROM "PurchaseAttempt" WHERE "orderSlot" = ${slot} AND "shop" = ${shop}`;
  return rows[0] ?? null;
}

export async function attemptById(db: RawDb, id: string): Promise<PurchaseAttempt | null> {
  const rows = await statements(db).$queryRaw<PurchaseAttempt[]>`SELECT * FROM "PurchaseAttempt" WHERE "id" = ${id}`;
  return rows[0] ?? null;
}

export async function labelById(db: RawDb, id: string, shop?: string): Promise<Label | null> {
  const rows = shop
    ? await statements(db).$queryRaw<Label[]>`SELECT * FROM "Label" WHERE "id" = ${id} AND "shop" = ${shop}`
    : await statements(db).$queryRaw<Label[]>`SELECT * FROM "Label" WHERE "id" = ${id}`;
  return rows[0] ?? null;
}

/** Another attempt of the order holding a slot for this fulfillment order (a first label asked under another slot). */
export async function attemptForFulfillmentOrder(
  db: RawDb,
  input: { shop: string; orderId: string; fulfillmentOrderId: string; exceptSlot: string },
): Promise<PurchaseAttempt | null> {
  const rows = await statements(db).$queryRaw<PurchaseAttempt[]>`SELECT * FROM "PurchaseAttempt"
    WHERE "shop" = ${input.shop} AND "orderId" = ${input.orderId} AND "fulfillmentOrderId" = ${input.fulfillmentOrderId}
      AND "labelIndex" = 1 AND "orderSlot" IS NOT NULL AND "orderSlot" <> ${input.exceptSlot}
    LIMIT 1`;
  return rows[0] ?? null;
}

/**
 * The shop's next value of the day's reference counter (1 for the day's first), in one atomic statement. Unsynced
 * (decision 0219): the attempt that uses the value is synced after it; a value never sent may be lost.
 */
export async function nextReferenceValue(db: RawDb, shop: string, day: string): Promise<number> {
  const rows = await statements(db).$queryRaw<{ value: number | bigint }[]>`${unsynced}INSERT INTO "ReferenceCounter" ("shop", "day", "value") VALUES (${shop}, ${day}, 1)
    ON CONFLICT ("shop", "day") DO UPDATE SET "value" = "ReferenceCounter"."value" + 1
    RETURNING "value"`;
  return Number(rows[0]!.value);
}

/** The label-service e-mail each shop saved for this environment: this shop's, and the other shops' with the same one. */
export async function accountsLike(db: RawDb, shop: string, environment: string): Promise<{ own: string | null; others: { shop: string; email: string }[] }> {
  const rows = await statements(db).$queryRaw<{ shop: string; email: string }[]>`SELECT other."shop", other."email" FROM "LabelServiceAccount" own
    JOIN "LabelServiceAccount" other ON other."environment" = own."environment" AND LOWER(other."email") = LOWER(own."email")
    WHERE own."shop" = ${shop} AND own."environment" = ${environment}`;
  const own = rows.find((row) => row.shop === shop)?.email ?? null;
  return { own, others: rows.filter((row) => row.shop !== shop) };
}

export interface NewAttempt {
  shop: string;
  orderId: string;
  orderName: string;
  environment: string;
  customReference: string;
  orderSlot: string;
  labelIndex: number;
  locationId: string | null;
  fulfillmentOrderId: string | null;
  status: string;
  requestJson: string;
}

/**
 * Writes the attempt (it takes the order's slot: a unique violation when the slot is held). Synced, never marked
 * unsynced: it must be on the disk before the purchase call (decision 0219).
 */
export async function insertAttempt(db: RawDb, attempt: NewAttempt, now: Date): Promise<PurchaseAttempt> {
  const rows = await statements(db).$queryRaw<PurchaseAttempt[]>`INSERT INTO "PurchaseAttempt"
      ("id", "shop", "orderId", "orderName", "environment", "customReference", "orderSlot", "labelIndex", "locationId",
       "fulfillmentOrderId", "status", "requestJson", "reconcileCount", "absentLookups", "createdAt", "updatedAt")
    VALUES (${newRowId(now.getTime())}, ${attempt.shop}, ${attempt.orderId}, ${attempt.orderName}, ${attempt.environment},
      ${attempt.customReference}, ${attempt.orderSlot}, ${attempt.labelIndex}, ${attempt.locationId}, ${attempt.fulfillmentOrderId},
      ${attempt.status}, ${attempt.requestJson}, 0, 0, ${now}, ${now})
    RETURNING *`;
  return rows[0]!;
}

export interface NewLabel {
  shop: string;
  orderId: string;
  orderName: string;
  environment: string;
  customReference: string;
  serviceLabelId: string;
  trackingNumber: string;
  trackingUrl: string;
  labelUrl: string;
  carrierName: string;
  carrierServiceName: string;
  labelFormat: string;
  requestSnapshotJson: string;
  fulfillmentOrderId: string | null;
}

/**
 * Stores the label of an attempt and closes the attempt, in one transaction: the attempt is claimed (`labelId` still
 * empty) after the label row is written, so when two adopters race only one label is kept. Null when the attempt
 * was already closed (nothing written).
 */
export async function insertLabelForAttempt(db: RawTransactions, attemptId: string, label: NewLabel, status: string, now: Date): Promise<Label | null> {
  const id = newRowId(now.getTime());
  const NotClaimed = Symbol("not claimed");
  try {
    return await transactions(db).$transaction(async (tx) => {
      const rows = await tx.$queryRaw<Label[]>`INSERT INTO "Label"
          ("id", "shop", "orderId", "orderName", "environment", "customReference", "serviceLabelId", "trackingNumber",
           "trackingUrl", "labelUrl", "carrierName", "carrierServiceName", "labelFormat", "requestSnapshotJson",
           "fulfillmentOrderId", "fulfillmentStatus", "metafieldWritten", "createdAt", "updatedAt")
        VALUES (${id}, ${label.shop}, ${label.orderId}, ${label.orderName}, ${label.environment}, ${label.customReference},
          ${label.serviceLabelId}, ${label.trackingNumber}, ${label.trackingUrl}, ${label.labelUrl}, ${label.carrierName},
          ${label.carrierServiceName}, ${label.labelFormat}, ${label.requestSnapshotJson}, ${label.fulfillmentOrderId},
          ${FULFILLMENT.PENDING}, ${false}, ${now}, ${now})
        RETURNING *`;
      const claimed = await tx.$executeRaw`UPDATE "PurchaseAttempt"
        SET "status" = ${status}, "nextReconcileAt" = NULL, "labelId" = ${id}, "updatedAt" = ${now}
        WHERE "id" = ${attemptId} AND "labelId" IS NULL`;
      // Rolls the label back: another adopter closed the attempt first.
      if (claimed !== 1) throw NotClaimed;
      return rows[0]!;
    });
  } catch (error) {
    if (error === NotClaimed) return null;
    throw error;
  }
}

/**
 * Sets the Shopify step's outcome on a label; the row as written, or null when the label is gone. Unsynced (decision
 * 0219): a lost outcome leaves the synced claim, and the stuck-step pass pushes the label again.
 */
export async function updateLabelStep(
  db: RawDb,
  id: string,
  data: { fulfillmentStatus: string; fulfillmentId?: string | null; fulfillmentError: string | null; metafieldWritten?: boolean; summaryDueAt?: Date | null },
  now: Date,
): Promise<Label | null> {
  const sets: Prisma.Sql[] = [
    Prisma.sql`"fulfillmentStatus" = ${data.fulfillmentStatus}`,
    Prisma.sql`"fulfillmentError" = ${data.fulfillmentError}`,
    Prisma.sql`"updatedAt" = ${now}`,
  ];
  if (data.fulfillmentId !== undefined) sets.push(Prisma.sql`"fulfillmentId" = ${data.fulfillmentId}`);
  if (data.metafieldWritten !== undefined) sets.push(Prisma.sql`"metafieldWritten" = ${data.metafieldWritten}`);
  if (data.summaryDueAt !== undefined) sets.push(Prisma.sql`"summaryDueAt" = ${data.summaryDueAt}`);
  const rows = await statements(db).$queryRaw<Label[]>`${unsynced}UPDATE "Label" SET ${Prisma.join(sets, ", ")} WHERE "id" = ${id} RETURNING *`;
  return rows[0] ?? null;
}

/**
 * Claims a live label's Shopify step (IN_PROGRESS, error cleared). `neverPushed`: only from PENDING with no
 * fulfillment recorded. Otherwise from PENDING, FAILED or SKIPPED_TEST, or from a claim older than `staleBefore`.
 * Synced, never marked unsynced: it must be on the disk before the fulfillment call (decision 0219).
 */
export async function claimLabelStep(db: RawDb, input: { id: string; shop: string; neverPushed: boolean; staleBefore: Date }, now: Date): Promise<boolean> {
  const claim = Prisma.sql`UPDATE "Label" SET "fulfillmentStatus" = ${FULFILLMENT.IN_PROGRESS}, "fulfillmentError" = NULL, "updatedAt" = ${now}
    WHERE "id" = ${input.id} AND "shop" = ${input.shop} AND "voidState" IS NULL`;
  const count = input.neverPushed
    ? await statements(db).$executeRaw`${claim} AND "fulfillmentStatus" = ${FULFILLMENT.PENDING} AND "fulfillmentId" IS NULL`
    : await statements(db).$executeRaw`${claim} AND ("fulfillmentStatus" IN (${Prisma.join([...CLAIMABLE_FULFILLMENT_STATUSES, FULFILLMENT.SKIPPED_TEST])})
        OR ("fulfillmentStatus" = ${FULFILLMENT.IN_PROGRESS} AND "updatedAt" < ${input.staleBefore}))`;
  return count === 1;
}

/** The live (not void) labels of these orders of the shop. */
export async function liveLabelsOf(db: RawDb, shop: string, orderIds: readonly string[]): Promise<Label[]> {
  return statements(db).$queryRaw<Label[]>`SELECT * FROM "Label" WHERE "shop" = ${shop} AND "orderId" IN (${Prisma.join([...orderIds])}) AND "voidState" IS NULL`;
}

/** Up to `limit` labels of the shop whose order summary waits for a batched write, the longest waiting first. */
export async function dueSummaries(db: RawDb, shop: string, limit: number): Promise<{ id: string; orderId: string }[]> {
  return statements(db).$queryRaw`SELECT "id", "orderId" FROM "Label"
    WHERE "shop" = ${shop} AND "summaryDueAt" IS NOT NULL AND "metafieldWritten" = ${false}
    ORDER BY "summaryDueAt" ASC, "id" ASC LIMIT ${limit}`;
}

/** Takes these labels' waiting summaries for one writer (another item may flush at once): the ones it got. */
export async function claimDueSummaries(db: RawDb, ids: readonly string[], now: Date): Promise<{ id: string; orderId: string }[]> {
  if (ids.length === 0) return [];
  return statements(db).$queryRaw`UPDATE "Label" SET "summaryDueAt" = NULL, "updatedAt" = ${now}
    WHERE "id" IN (${Prisma.join([...ids])}) AND "summaryDueAt" IS NOT NULL AND "metafieldWritten" = ${false}
    RETURNING "id", "orderId"`;
}

/*
 * The background passes' reads (decision 0218). They run every RECONCILE_INTERVAL_MS in every deployment, and almost
 * always find nothing: as model queries, each cost several times the CPU of the same statement run here.
 */

/** Up to `limit` attempts due for a reconciliation, across shops, the longest untouched first. */
export async function dueAttempts(
  db: RawDb,
  input: { now: Date; staleBefore: Date; limit: number },
): Promise<Pick<PurchaseAttempt, "id" | "shop" | "environment">[]> {
  return statements(db).$queryRaw`SELECT "id", "shop", "environment" FROM "PurchaseAttempt"
    WHERE ("status" = ${ATTEMPT.UNKNOWN} AND "nextReconcileAt" <= ${input.now})
       OR ("status" = ${ATTEMPT.PENDING} AND "updatedAt" <= ${input.staleBefore})
    ORDER BY "updatedAt" ASC LIMIT ${input.limit}`;
}

/** Up to `limit` live labels whose Shopify step has been pushing since before `claimedBefore`, across shops. */
export async function stuckLabels(
  db: RawDb,
  input: { claimedBefore: Date; limit: number },
): Promise<Pick<Label, "id" | "shop" | "fulfillmentStatus">[]> {
  return statements(db).$queryRaw`SELECT "id", "shop", "fulfillmentStatus" FROM "Label"
    WHERE "fulfillmentStatus" IN (${Prisma.join([...PUSHING_FULFILLMENT_STATUSES])}) AND "updatedAt" < ${input.claimedBefore}
      AND "voidState" IS NULL
    ORDER BY "updatedAt" ASC LIMIT ${input.limit}`;
}

/** Up to `limit` fulfilled labels created since `createdSince` whose order summary is unwritten, untouched since `touchedBefore`. */
export async function unwrittenSummaryLabels(
  db: RawDb,
  input: { touchedBefore: Date; createdSince: Date; limit: number },
): Promise<Pick<Label, "id" | "shop">[]> {
  return statements(db).$queryRaw`SELECT "id", "shop" FROM "Label"
    WHERE "fulfillmentStatus" = ${FULFILLMENT.CREATED} AND "metafieldWritten" = ${false}
      AND "updatedAt" <= ${input.touchedBefore} AND "createdAt" >= ${input.createdSince}
    ORDER BY "updatedAt" ASC LIMIT ${input.limit}`;
}
