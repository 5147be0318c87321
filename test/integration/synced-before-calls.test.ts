/**
 * Decision 0219: a write marked unsynced commits without waiting for the disk, so every call that leaves the machine
 * must follow a FULL commit of what it depends on. This records, for every write the app sends to SQLite, the
 * connection's `synchronous` level as the write runs, and looks at the writes made before the label service is asked
 * to buy and before Shopify is asked to fulfil.
 */
import Database from "libsql";
import { afterAll, beforeAll, expect, it } from "vitest";
import { developmentStorePlan, fulfilTestLabelsOn } from "../helpers/dev-store";
import { mockAdmin, unfulfilledOrderContext } from "../helpers/mock-admin";
import { createTestDatabase } from "../helpers/test-db";
import { exampleLabelRequest } from "../../app/label-service/__fixtures__/example-request";
import { pushLabelToShopify } from "../../app/labels/fulfill.server";
import { purchaseLabel, type GenerateOutcome, type LabelServicePort } from "../../app/labels/purchase.server";

type Connection = InstanceType<typeof Database>;
type Write = { sql: string; level: "FULL" | "NORMAL" | "OTHER"; inTransaction: boolean };

const writes: Write[] = [];
const prepare = Database.prototype.prepare;

/** Every statement prepared from here on records its level each time it runs, if it is a write. */
function recordWrites(this: Connection, sql: string) {
  return recording(this, prepare.call(this, sql), sql);
}

function recording(connection: Connection, statement: ReturnType<typeof prepare>, sql: string) {
  if (/^\s*(SELECT|PRAGMA)\b/i.test(sql)) return statement;
  for (const method of ["run", "all", "get"] as const) {
    const original = (statement[method] as (...args: unknown[]) => unknown).bind(statement);
    (statement as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      const row = prepare.call(connection, "PRAGMA synchronous").get([]) as Record<string, number | bigint>;
      const value = Number(Object.values(row)[0]);
      writes.push({ sql: sql.replace(/\s+/g, " "), level: value === 2 ? "FULL" : value === 1 ? "NORMAL" : "OTHER", inTransaction: connection.inTransaction });
      return original(...args);
    };
  }
  return statement;
}

const SHOP = "shop-a.myshopify.com";
const ORDER = "gid://shopify/Order/1001";
let database: ReturnType<typeof createTestDatabase>;

beforeAll(() => {
  Database.prototype.prepare = recordWrites as typeof prepare;
  database = createTestDatabase();
});

afterAll(async () => {
  Database.prototype.prepare = prepare;
  await database.close();
});

/** The writes of `sql`'s kind among those made before a call. */
function written(before: Write[], sql: RegExp): Write[] {
  return before.filter((write) => sql.test(write.sql));
}

it("buys a label only after the purchase attempt is synced, and fulfils only after the Shopify step's claim is", async () => {
  const db = database.prisma;
  await fulfilTestLabelsOn(db, SHOP);
  let beforePurchase: Write[] = [];
  const service: LabelServicePort = {
    async generateLabel() {
      beforePurchase = [...writes];
      const label = { id: "L1", reference: "JD00001", label_url: "https://s.test/l/1.pdf", tracking_url: "https://s.test/t/1", message: "ok" };
      return { status: "created", label } as GenerateOutcome;
    },
    async lookUpLabelByReference() {
      return { status: "absent" };
    },
  };
  const bought = await purchaseLabel({ db, service }, { shop: SHOP, environment: "staging", orderId: ORDER, orderName: "#1001", buildRequest: (reference) => exampleLabelRequest({ custom_reference: reference }) });
  expect(bought.status).toBe("created");
  if (bought.status !== "created") return;
  // The attempt is on the disk before the call (later writes, if any, are bookkeeping that may be lost).
  expect(written(beforePurchase, /^(\/\* unsynced \*\/ )?INSERT INTO "PurchaseAttempt"/)).toEqual([expect.objectContaining({ level: "FULL", inTransaction: false })]);

  let beforeFulfillment: Write[] = [];
  const admin = mockAdmin({
    ...developmentStorePlan,
    FulfillmentContext: () => unfulfilledOrderContext({ id: ORDER, name: "#1001", n: 1 }),
    FulfillmentCreate: () => {
      beforeFulfillment = [...writes];
      return { data: { fulfillmentCreate: { fulfillment: { id: "gid://shopify/Fulfillment/1", status: "SUCCESS" }, userErrors: [] } } };
    },
    OrderLabelMetafieldSet: () => ({ data: { metafieldsSet: { metafields: [{ id: "gid://shopify/Metafield/1" }], userErrors: [] } } }),
  });
  const pushed = await pushLabelToShopify({ db, admin }, { shop: SHOP, labelId: bought.label.id, notifyCustomer: true });
  expect(pushed.status).toBe("created");
  // The claim of the Shopify step (claimLabelStep: the one write on a label that clears its error as a literal).
  const claims = written(beforeFulfillment.slice(beforePurchase.length), /^(\/\* unsynced \*\/ )?UPDATE "Label" SET "fulfillmentStatus" = \?, "fulfillmentError" = NULL,/);
  expect(claims).toEqual([expect.objectContaining({ level: "FULL", inTransaction: false })]);

  // The recorder tells the levels apart: the day's reference counter and the Shopify step's outcome went unsynced,
  // and the label was stored in a transaction begun at FULL.
  const unsynced = writes.filter((write) => write.level === "NORMAL").map((write) => write.sql);
  expect(unsynced.some((sql) => sql.includes('INSERT INTO "ReferenceCounter"'))).toBe(true);
  expect(unsynced.some((sql) => sql.includes('UPDATE "Label" SET "fulfillmentStatus"') && sql.endsWith("RETURNING *"))).toBe(true);
  expect(writes.find((write) => write.sql.startsWith('INSERT INTO "Label"'))).toMatchObject({ level: "FULL", inTransaction: true });
  expect(writes.filter((write) => write.level === "NORMAL").every((write) => write.sql.startsWith("/* unsynced */"))).toBe(true);
});
