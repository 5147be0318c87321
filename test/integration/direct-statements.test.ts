/**
 * Raw statements straight to the driver adapter (app/db-direct.server.ts, decision 0202) against the Prisma client's
 * own `$queryRaw`/`$executeRaw`, on SQLite and PostgreSQL: the same rows with the same JavaScript types, the same
 * counts, the same error, the same stored values; a transaction's client is never bypassed, and on SQLite a direct
 * statement waits for an open Prisma transaction instead of meeting its lock.
 */
import { describe, expect, it } from "vitest";
import { statements, transactions, UNDERLYING_CLIENT } from "../../app/db-direct.server";
import { Prisma, type PrismaClient } from "../../app/generated/prisma/client";
import { isUniqueViolation } from "../../app/labels/label-rows.server";
import { BOTH_DATABASES, useDatabase } from "../helpers/both-databases";

const SHOP = "direct.myshopify.com";
/** What an attempt and its label share. */
const ORDER_1 = {
  shop: SHOP,
  orderId: "gid://shopify/Order/1",
  orderName: "#1",
  environment: "staging",
  customReference: "20261126-1",
};

/** Each value with its type's name, so Date against string or bigint against number cannot compare equal. */
function typed(rows: Record<string, unknown>[]): unknown[] {
  return rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([key, value]) => [
        key,
        [
          value instanceof Date ? "Date" : value instanceof Uint8Array ? "Uint8Array" : typeof value,
          value instanceof Uint8Array ? [...value] : value,
        ],
      ]),
    ),
  );
}

describe.each(BOTH_DATABASES)("direct statements on %s", (_name, open) => {
  let db: PrismaClient;
  useDatabase(open, (client) => (db = client));

  it("is used for the client made by the app, and for the app's lazy proxy of it", () => {
    const direct = statements(db);
    expect(direct).not.toBe(db);
    expect(statements({ [UNDERLYING_CLIENT]: db } as unknown as PrismaClient)).toBe(direct);
  });

  it("reads every column type the app stores exactly as the client's own raw query does", async () => {
    const at = new Date("2026-11-26T10:00:00.123Z");
    // Written through Prisma's model queries, so the stored format is Prisma's.
    await db.purchaseAttempt.create({
      data: {
        ...ORDER_1,
        status: "PENDING",
        requestJson: "{}",
        createdAt: at,
        updatedAt: at,
      },
    });
    await db.label.create({
      data: {
        ...ORDER_1,
        serviceLabelId: "L-1",
        trackingNumber: "6A1",
        trackingUrl: "https://t.example/1",
        labelUrl: "https://l.example/1.pdf",
        carrierName: "Colissimo",
        carrierServiceName: "Expert",
        labelFormat: "PDF_A4",
        requestSnapshotJson: "{}",
        metafieldWritten: true,
      },
    });
    await db.job.create({
      data: {
        id: "job-1",
        name: "bulk-item",
        shop: SHOP,
        payload: "{}",
        state: "queued",
        runAfterMs: 1_764_150_000_123n,
        maxAttempts: 5,
        backoffMs: 1000,
        createdAtMs: 1_764_150_000_000n,
        leaseUntilMs: null,
      },
    });
    await db.shopifyBucket.create({
      data: { shop: SHOP, available: 1234.5, maximum: 2000, restoreRate: 100, atMs: 1_764_150_000_999n },
    });
    await db.printFile.create({
      data: {
        shop: SHOP,
        format: "PDF_A4",
        labelIdsJson: "[]",
        labelCount: 0,
        content: new Uint8Array([0, 1, 254, 255]),
        downloadToken: "t",
      },
    });

    const queries: Prisma.Sql[] = [
      Prisma.sql`SELECT * FROM "PurchaseAttempt" WHERE "shop" = ${SHOP}`,
      Prisma.sql`SELECT * FROM "Label" WHERE "shop" = ${SHOP}`,
      Prisma.sql`SELECT * FROM "Job" WHERE "id" = ${"job-1"}`,
      Prisma.sql`SELECT * FROM "ShopifyBucket" WHERE "shop" = ${SHOP}`,
      Prisma.sql`SELECT * FROM "PrintFile" WHERE "shop" = ${SHOP}`,
      Prisma.sql`SELECT COUNT(*) AS "n" FROM "Label" WHERE "shop" = ${SHOP} AND "metafieldWritten" = ${true}`,
      Prisma.sql`SELECT "id" FROM "Job" WHERE "runAfterMs" <= ${1_764_150_000_123} AND "state" IN (${Prisma.join(["queued", "active"])})`,
      Prisma.sql`SELECT * FROM "PurchaseAttempt" WHERE "createdAt" = ${at}`,
      Prisma.sql`SELECT * FROM "PurchaseAttempt" WHERE "shop" = ${"nobody"}`,
      Prisma.sql`SELECT * FROM "ShopifyBucket" WHERE "atMs" = ${1_764_150_000_999n}`,
      Prisma.sql`SELECT "id" FROM "PurchaseAttempt" WHERE "createdAt" IN (${Prisma.join([at, new Date(0)])})`,
      // Columns of no declared type: each typed from its values, as the client types them.
      Prisma.sql`SELECT SUM("available") AS "sum", 2.5 * 3 AS "product", 'a' || MIN("shop") AS "text", NULL AS "nothing" FROM "ShopifyBucket"`,
      Prisma.sql`SELECT "v", "w" FROM (SELECT NULL AS "v", NULL AS "w" UNION ALL SELECT 2.5, 'x') AS "t"`,
    ];
    for (const query of queries) {
      const own = await db.$queryRaw<Record<string, unknown>[]>(query);
      const direct = await statements(db).$queryRaw<Record<string, unknown>[]>(query);
      expect(typed(direct), query.sql).toEqual(typed(own));
    }
    // Date and bigint arguments match the stored values (the filters above found their rows), on both paths.
    expect(await statements(db).$queryRaw<unknown[]>(queries[7]!)).toHaveLength(1);
    expect(await statements(db).$queryRaw<unknown[]>(queries[9]!)).toHaveLength(1);
    expect(await statements(db).$queryRaw<unknown[]>(queries[10]!)).toHaveLength(1);

    // What JSON cannot hold is stored as NULL, as the client sends it.
    const invalidDate = new Date(Number.NaN);
    await expect(
      db.$executeRaw`UPDATE "Job" SET "lastError" = ${invalidDate} WHERE "id" = ${"job-1"}`,
    ).rejects.toThrow();
    await expect(
      statements(db).$executeRaw`UPDATE "Job" SET "lastError" = ${invalidDate} WHERE "id" = ${"job-1"}`,
    ).rejects.toThrow(/invalid date/);
    for (const odd of [undefined, Number.NaN, Number.POSITIVE_INFINITY]) {
      for (const raw of [db, statements(db)]) {
        await db.job.update({ where: { id: "job-1" }, data: { leaseUntilMs: 5n, lastError: "x" } });
        expect(
          await raw.$executeRaw`UPDATE "Job" SET "leaseUntilMs" = ${odd}, "lastError" = ${odd} WHERE "id" = ${"job-1"}`,
        ).toBe(1);
        expect(
          await db.job.findUniqueOrThrow({ where: { id: "job-1" }, select: { leaseUntilMs: true, lastError: true } }),
        ).toEqual({ leaseUntilMs: null, lastError: null });
      }
    }
  });

  it("writes what the client's own raw statement writes, and counts the same rows", async () => {
    const at = new Date("2026-11-26T11:22:33.456Z");
    const insert = (id: string) =>
      Prisma.sql`INSERT INTO "ReferenceCounter" ("shop", "day", "value") VALUES (${`${SHOP}-${id}`}, ${"20261126"}, ${7}) RETURNING *`;
    const withoutShop = (rows: Record<string, unknown>[]) => typed(rows.map(({ shop: _shop, ...rest }) => rest));
    const direct = await statements(db).$queryRaw<Record<string, unknown>[]>(insert("direct"));
    expect(direct.map((row) => row.shop)).toEqual([`${SHOP}-direct`]);
    expect(withoutShop(direct)).toEqual(withoutShop(await db.$queryRaw<Record<string, unknown>[]>(insert("own"))));

    const touch = (id: string) =>
      Prisma.sql`UPDATE "PurchaseAttempt" SET "updatedAt" = ${at}, "reconcileCount" = "reconcileCount" + 1 WHERE "shop" = ${SHOP} AND "orderName" = ${id}`;
    await db.purchaseAttempt.create({
      data: {
        shop: SHOP,
        orderId: "gid://shopify/Order/2",
        orderName: "#2",
        environment: "staging",
        customReference: "20261126-2",
        status: "PENDING",
        requestJson: "{}",
      },
    });
    await db.purchaseAttempt.create({
      data: {
        shop: SHOP,
        orderId: "gid://shopify/Order/3",
        orderName: "#3",
        environment: "staging",
        customReference: "20261126-3",
        status: "PENDING",
        requestJson: "{}",
      },
    });
    expect(await statements(db).$executeRaw(touch("#2"))).toBe(1);
    expect(await db.$executeRaw(touch("#3"))).toBe(1);
    expect(await statements(db).$executeRaw(touch("#none"))).toBe(0);
    // Both stored the date in the same form: Prisma's model query reads each back as the same instant.
    const rows = await db.purchaseAttempt.findMany({
      where: { orderName: { in: ["#2", "#3"] } },
      orderBy: { orderName: "asc" },
    });
    expect(rows.map((row) => [row.updatedAt.toISOString(), row.reconcileCount])).toEqual([
      [at.toISOString(), 1],
      [at.toISOString(), 1],
    ]);
    const stored = (name: string) =>
      statements(db).$queryRaw<
        { updatedAt: unknown }[]
      >`SELECT CAST("updatedAt" AS TEXT) AS "updatedAt" FROM "PurchaseAttempt" WHERE "orderName" = ${name}`;
    expect(await stored("#2")).toEqual(await stored("#3"));
  });

  it("reports a refused row as the client reports a raw query's error", async () => {
    const insert = Prisma.sql`INSERT INTO "ReferenceCounter" ("shop", "day", "value") VALUES (${SHOP}, ${"20261127"}, ${1})`;
    await statements(db).$executeRaw(insert);
    const own = await db.$executeRaw(insert).then(
      () => null,
      (error: unknown) => error,
    );
    const direct = await statements(db)
      .$executeRaw(insert)
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(direct).toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
    expect(isUniqueViolation(direct)).toBe(true);
    expect(isUniqueViolation(own)).toBe(true);
    const fields = (error: unknown) => {
      const known = error as Prisma.PrismaClientKnownRequestError & {
        meta: { driverAdapterError: { cause: { kind: string } } };
      };
      return {
        code: known.code,
        kind: known.meta.driverAdapterError.cause.kind,
        message: known.message.split("\n").at(-1),
      };
    };
    expect(fields(direct)).toEqual(fields(own));
  });

  it("leaves a transaction's client its own methods, so its statements stay in the transaction", async () => {
    await db
      .$transaction(async (tx) => {
        expect(statements(tx as unknown as PrismaClient)).toBe(tx);
        await statements(tx as unknown as PrismaClient)
          .$executeRaw`INSERT INTO "ReferenceCounter" ("shop", "day", "value") VALUES (${SHOP}, ${"20261128"}, ${1})`;
        throw new Error("roll back");
      })
      .catch(() => undefined);
    expect(
      await statements(db).$queryRaw<
        unknown[]
      >`SELECT * FROM "ReferenceCounter" WHERE "shop" = ${SHOP} AND "day" = ${"20261128"}`,
    ).toEqual([]);
  });

  it("waits for an open transaction's commit when it writes the same row, and then sees it", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => (wrote = resolve));
    const transaction = db.$transaction(async (tx) => {
      await tx.$executeRaw`INSERT INTO "ReferenceCounter" ("shop", "day", "value") VALUES (${SHOP}, ${"20261129"}, ${1})`;
      wrote();
      await held;
    });
    await written;
    const direct = statements(db).$queryRaw<
      { value: number }[]
    >`INSERT INTO "ReferenceCounter" ("shop", "day", "value") VALUES (${SHOP}, ${"20261129"}, ${1})
      ON CONFLICT ("shop", "day") DO UPDATE SET "value" = "ReferenceCounter"."value" + 1 RETURNING "value"`;
    // The transaction is still open: give the direct statement time to go wrong if it could.
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await transaction;
    expect((await direct).map((row) => Number(row.value))).toEqual([2]);
  });

  it("commits a transaction's statements together, and none of them when its work throws", async () => {
    expect(transactions(db)).not.toBe(db);
    const counter = (day: string) =>
      statements(db).$queryRaw<
        { value: unknown }[]
      >`SELECT "value" FROM "ReferenceCounter" WHERE "shop" = ${SHOP} AND "day" = ${day}`;
    const result = await transactions(db).$transaction(async (tx) => {
      await tx.$executeRaw`INSERT INTO "ReferenceCounter" ("shop", "day", "value") VALUES (${SHOP}, ${"20261201"}, ${1})`;
      // The transaction sees its own write.
      const rows = await tx.$queryRaw<
        { value: unknown }[]
      >`UPDATE "ReferenceCounter" SET "value" = "value" + 1 WHERE "shop" = ${SHOP} AND "day" = ${"20261201"} RETURNING "value"`;
      return Number(rows[0]!.value);
    });
    expect(result).toBe(2);
    expect((await counter("20261201")).map((row) => Number(row.value))).toEqual([2]);

    const failure = new Error("work failed");
    const thrown = await transactions(db)
      .$transaction(async (tx) => {
        await tx.$executeRaw`INSERT INTO "ReferenceCounter" ("shop", "day", "value") VALUES (${SHOP}, ${"20261202"}, ${1})`;
        await tx.$executeRaw`UPDATE "ReferenceCounter" SET "value" = 9 WHERE "shop" = ${SHOP} AND "day" = ${"20261201"}`;
        throw failure;
      })
      .catch((error: unknown) => error);
    expect(thrown).toBe(failure);
    expect(await counter("20261202")).toEqual([]);
    expect((await counter("20261201")).map((row) => Number(row.value))).toEqual([2]);

    // A refused statement inside: the error is the client's raw-query error, and the transaction is rolled back.
    const refused = await transactions(db)
      .$transaction(async (tx) => {
        await tx.$executeRaw`INSERT INTO "ReferenceCounter" ("shop", "day", "value") VALUES (${SHOP}, ${"20261203"}, ${1})`;
        await tx.$executeRaw`INSERT INTO "ReferenceCounter" ("shop", "day", "value") VALUES (${SHOP}, ${"20261201"}, ${1})`;
      })
      .catch((error: unknown) => error);
    expect(isUniqueViolation(refused)).toBe(true);
    expect(await counter("20261203")).toEqual([]);
    // The connection (and on SQLite the adapter's lock) was handed back: the next transaction runs.
    await transactions(db).$transaction(
      async (tx) => tx.$executeRaw`DELETE FROM "ReferenceCounter" WHERE "shop" = ${SHOP} AND "day" = ${"20261201"}`,
    );
    expect(await counter("20261201")).toEqual([]);
  });

  it("leaves a client it did not make to its own $transaction, and serves the app's lazy proxy", async () => {
    const own = { $transaction: async <T>(work: (tx: never) => Promise<T>) => work("own" as never) };
    expect(transactions(own)).toBe(own);
    await db.$transaction(async (tx) => expect(transactions(tx as unknown as PrismaClient)).toBe(tx));
    expect(transactions({ [UNDERLYING_CLIENT]: db } as unknown as PrismaClient)).toBe(transactions(db));
  });

  it("hands its connection back whatever ends it, and refuses statements once it has ended", async () => {
    // More failed transactions than the PostgreSQL test pool has connections (4): a leaked one would stall here.
    for (let i = 0; i < 6; i++) {
      const thrown = await transactions(db)
        .$transaction(async (tx) => {
          await tx.$executeRaw`INSERT INTO "ReferenceCounter" ("shop", "day", "value") VALUES (${SHOP}, ${`2027010${i}`}, ${1})`;
          if (i % 2 === 0) throw new Error("work failed");
          await tx.$executeRaw`INSERT INTO "ReferenceCounter" ("shop", "day", "value") VALUES (${SHOP}, ${`2027010${i}`}, ${1})`;
        })
        .catch((error: unknown) => error);
      expect(thrown).toBeInstanceOf(Error);
    }
    expect(
      await statements(db).$queryRaw<
        unknown[]
      >`SELECT * FROM "ReferenceCounter" WHERE "shop" = ${SHOP} AND "day" LIKE ${"202701%"}`,
    ).toEqual([]);

    let kept: { $queryRaw: (query: Prisma.Sql) => Promise<unknown> } | undefined;
    await transactions(db).$transaction(async (tx) => {
      kept = tx;
    });
    await expect(kept!.$queryRaw(Prisma.sql`SELECT 1 AS "one"`)).rejects.toThrow(/already ended/);
  });

  it("connects the client on first use and again after a disconnect", async () => {
    await db.$disconnect();
    const rows = await statements(db).$queryRaw<{ one: unknown }[]>`SELECT 1 AS "one"`;
    expect(rows.map((row) => Number(row.one))).toEqual([1]);
  });
});
