/**
 * The statements a bulk job's item runs on every order (claim, settle, what is left), as plain SQL: the same
 * text on SQLite and PostgreSQL, and about a quarter of the CPU of the model queries they replace (decision 0199),
 * run straight on the client's driver adapter (`statements`, decision 0202; the creation's `insertItems` runs on its
 * transaction's client). Rows are read with `SELECT *` or `RETURNING *` (SQLite reports the declared column types for
 * both), so they have the model's fields and types (the client types raw rows by their columns;
 * test/integration/raw-rows.test.ts holds that on both databases).
 * Every write sets `updatedAt` itself: Prisma's @updatedAt only applies to its own model queries.
 */
import { Prisma, type BulkJob, type BulkJobItem, type PrismaClient } from "../generated/prisma/client";
import { statements, unsynced } from "../db-direct.server";
import { pacedChunks } from "../event-loop";
import { newRowId } from "../labels/label-rows.server";
import { UNFINISHED_ITEM_STATUSES, type BulkItemStatus } from "./types";

type Raw = Pick<PrismaClient, "$queryRaw" | "$executeRaw">;

export async function readJob(db: Raw, id: string): Promise<BulkJob | null> {
  const rows = await statements(db).$queryRaw<BulkJob[]>`SELECT * FROM "BulkJob" WHERE "id" = ${id}`;
  return rows[0] ?? null;
}

/**
 * Claims the job's item for this order: QUEUED (or RUNNING, its last run's process died) -> RUNNING, one more attempt,
 * started at its first run. The claimed row, as it is now; null when the job has no such item of this shop or it is
 * not runnable any more. One statement: the claim reads the row it changed (RETURNING).
 */
export async function claimItem(db: Raw, input: { jobId: string; orderId: string; shop: string }, now: Date): Promise<BulkJobItem | null> {
  const rows = await statements(db).$queryRaw<BulkJobItem[]>`${unsynced}UPDATE "BulkJobItem"
    SET "status" = 'RUNNING', "attempts" = "attempts" + 1, "startedAt" = COALESCE("startedAt", ${now}), "updatedAt" = ${now}
    WHERE "jobId" = ${input.jobId} AND "orderId" = ${input.orderId} AND "shop" = ${input.shop}
      AND "status" IN (${Prisma.join([...UNFINISHED_ITEM_STATUSES])})
    RETURNING *`;
  return rows[0] ?? null;
}

/** What a run records on its item besides the status (null clears a field; absent leaves it). */
export interface ItemSettlement {
  reasonJson?: string | null;
  labelId?: string | null;
  trackingNumber?: string | null;
  alreadyLabelled?: boolean;
  attemptId?: string | null;
  /** One more retryable refusal counted. */
  refused?: true;
}

/**
 * A RUNNING item's outcome. QUEUED (it waits for its next run) keeps the order the job read for that run; any other
 * status ends the run, stamps finishedAt and clears the stored order. False when the item was not RUNNING.
 */
export async function settleItem(db: Raw, id: string, status: Exclude<BulkItemStatus, "RUNNING" | "CANCELLED">, data: ItemSettlement, now: Date): Promise<boolean> {
  const sets: Prisma.Sql[] = [Prisma.sql`"status" = ${status}`, Prisma.sql`"updatedAt" = ${now}`];
  if (status === "QUEUED") sets.push(Prisma.sql`"finishedAt" = NULL`);
  else sets.push(Prisma.sql`"finishedAt" = ${now}`, Prisma.sql`"orderSealed" = NULL`, Prisma.sql`"orderReadAt" = NULL`);
  if (data.reasonJson !== undefined) sets.push(Prisma.sql`"reasonJson" = ${data.reasonJson}`);
  if (data.labelId !== undefined) sets.push(Prisma.sql`"labelId" = ${data.labelId}`);
  if (data.trackingNumber !== undefined) sets.push(Prisma.sql`"trackingNumber" = ${data.trackingNumber}`);
  if (data.alreadyLabelled !== undefined) sets.push(Prisma.sql`"alreadyLabelled" = ${data.alreadyLabelled}`);
  if (data.attemptId !== undefined) sets.push(Prisma.sql`"attemptId" = ${data.attemptId}`);
  if (data.refused) sets.push(Prisma.sql`"refusals" = "refusals" + 1`);
  const count = await statements(db).$executeRaw`${unsynced}UPDATE "BulkJobItem" SET ${Prisma.join(sets, ", ")} WHERE "id" = ${id} AND "status" = 'RUNNING'`;
  return count === 1;
}

/**
 * Whether any of the job's items is still to run (QUEUED or RUNNING): each finished item asks, and stopping at the
 * first such row is cheaper than counting them all (a COUNT over a 500-item job's index range on every finish).
 */
export async function anyItemLeft(db: Raw, jobId: string): Promise<boolean> {
  const rows = await statements(db).$queryRaw<{ one: number | bigint }[]>`SELECT 1 AS "one" FROM "BulkJobItem"
    WHERE "jobId" = ${jobId} AND "status" IN (${Prisma.join([...UNFINISHED_ITEM_STATUSES])}) LIMIT 1`;
  return rows.length > 0;
}

/** A new item of a job, as the job's creation knows it. */
export interface NewItem {
  shop: string;
  orderId: string;
  orderName: string;
  position: number;
  status: BulkItemStatus;
  reasonJson?: string | null;
  labelId?: string | null;
  trackingNumber?: string | null;
  alreadyLabelled?: boolean;
  finishedAt?: Date | null;
  orderSealed?: string | null;
  orderReadAt?: Date | null;
}

/** Rows per INSERT when a job's items are written: 18 parameters each, far below SQLite's 32,766 and PostgreSQL's 65,535. */
const ITEM_ROWS_PER_STATEMENT = 100;

/**
 * Writes a job's items in multi-row INSERTs, on `db` (the job's creation transaction). A model `createMany` of 500
 * items with their sealed orders held the event loop for about 0.6 s in Prisma's query compiler and interpreter;
 * these statements take a third to a quarter of that time (decision 0208). Every column is given, the dates in the format
 * Prisma writes (the column defaults only apply to Prisma's model queries).
 */
export async function insertItems(db: Raw, jobId: string, items: readonly NewItem[], now: Date): Promise<void> {
  // Between statements the event loop gets its turns (the transaction waits; decision 0209).
  for await (const chunk of pacedChunks(items, ITEM_ROWS_PER_STATEMENT)) {
    const values = chunk.map(
      (item) =>
        Prisma.sql`(${newRowId(now.getTime())}, ${jobId}, ${item.shop}, ${item.orderId}, ${item.orderName}, ${item.position},
          ${item.status}, ${item.reasonJson ?? null}, ${item.labelId ?? null}, ${item.trackingNumber ?? null},
          ${item.alreadyLabelled ?? false}, ${0}, ${0}, ${item.finishedAt ?? null}, ${item.orderSealed ?? null},
          ${item.orderReadAt ?? null}, ${now}, ${now})`,
    );
    await statements(db).$executeRaw`INSERT INTO "BulkJobItem" ("id", "jobId", "shop", "orderId", "orderName", "position",
        "status", "reasonJson", "labelId", "trackingNumber", "alreadyLabelled", "attempts", "refusals", "finishedAt",
        "orderSealed", "orderReadAt", "createdAt", "updatedAt")
      VALUES ${Prisma.join(values)}`;
  }
}

/*
 * The background passes' reads (decision 0218): every RECONCILE_INTERVAL_MS in every deployment, nearly always
 * finding nothing, at a fraction of the CPU of the model queries they replace. pendingItems also runs when a job is read.
 */

/** Up to `limit` PENDING items, of one shop or one job if given. */
export async function pendingItems(db: Raw, where: { shop?: string; jobId?: string; limit: number }): Promise<BulkJobItem[]> {
  const shop = !where.shop ? Prisma.empty : Prisma.sql` AND "shop" = ${where.shop}`;
  const job = !where.jobId ? Prisma.empty : Prisma.sql` AND "jobId" = ${where.jobId}`;
  return statements(db).$queryRaw<BulkJobItem[]>`SELECT * FROM "BulkJobItem" WHERE "status" = 'PENDING'${shop}${job} LIMIT ${where.limit}`;
}

/** Up to `limit` jobs that have a PENDING item. */
export async function jobsWithPendingItems(db: Raw, limit: number): Promise<string[]> {
  const rows = await statements(db).$queryRaw<{ jobId: string }[]>`SELECT DISTINCT "jobId" FROM "BulkJobItem" WHERE "status" = 'PENDING' LIMIT ${limit}`;
  return rows.map((row) => row.jobId);
}

/** Up to `limit` items in `status` untouched since before `updatedBefore`, the oldest first, each with its job's status. */
export async function staleItems(
  db: Raw,
  input: { status: "RUNNING" | "QUEUED"; updatedBefore: Date; limit: number },
): Promise<(BulkJobItem & { jobStatus: BulkJob["status"] })[]> {
  return statements(db).$queryRaw`SELECT "BulkJobItem".*, "BulkJob"."status" AS "jobStatus"
    FROM "BulkJobItem" JOIN "BulkJob" ON "BulkJob"."id" = "BulkJobItem"."jobId"
    WHERE "BulkJobItem"."status" = ${input.status} AND "BulkJobItem"."updatedAt" < ${input.updatedBefore}
    ORDER BY "BulkJobItem"."updatedAt" ASC LIMIT ${input.limit}`;
}
