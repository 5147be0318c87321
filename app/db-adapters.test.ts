import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient, type Client, type Config, type InArgs, type ResultSet } from "@libsql/client";
import { ConnectionPool } from "@libsql/client/sqlite3";
import Database from "libsql";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createStatementCachingClient, cachedStatements } from "./db-libsql-client";
import { statements, unsynced } from "./db-direct.server";
import { UNSYNCED_WRITE } from "./db-sync";
import { createTestDatabase } from "../test/helpers/test-db";

let dir: string;
const clients: Client[] = [];

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "etiquette-stmts-"));
});

afterEach(() => {
  for (const client of clients.splice(0)) client.close();
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

function fileUrl(name: string): string {
  return `file:${path.join(dir, name)}`;
}

function open(factory: (config: Config) => Client, config: Config): Client {
  const client = factory(config);
  clients.push(client);
  return client;
}

/** Counts native prepares (every `Database#prepare` that reaches libSQL, whoever calls it). */
function countPrepares() {
  return vi.spyOn(Database.prototype, "prepare");
}

function preparesOf(spy: ReturnType<typeof countPrepares>, sql: string): number {
  return spy.mock.calls.filter(([text]) => text === sql).length;
}

// --- what a result or an error looks like, down to value types, for comparing the two clients -------------------

function value(v: unknown): unknown {
  if (v instanceof ArrayBuffer) return ["ArrayBuffer", Array.from(new Uint8Array(v))];
  if (typeof v === "bigint") return ["bigint", v.toString()];
  return [v === null ? "null" : typeof v, v];
}

function resultShape(result: ResultSet | void) {
  if (result === undefined) return "void";
  return {
    columns: result.columns,
    columnTypes: result.columnTypes,
    rows: result.rows.map((row) => ({
      length: row.length,
      byIndex: Array.from({ length: row.length }, (_, i) => value(row[i])),
      byName: Object.entries(row).map(([name, v]) => [name, value(v)]),
    })),
    rowsAffected: result.rowsAffected,
    lastInsertRowid: value(result.lastInsertRowid),
  };
}

function errorShape(error: unknown) {
  const e = error as { constructor: { name: string }; message: string; code?: unknown; rawCode?: unknown; extendedCode?: unknown };
  return { error: e.constructor.name, message: e.message, code: e.code, rawCode: e.rawCode, extendedCode: e.extendedCode };
}

async function outcome(work: () => Promise<ResultSet | ResultSet[] | void>) {
  try {
    const result = await work();
    return Array.isArray(result) ? result.map(resultShape) : resultShape(result);
  } catch (error) {
    return errorShape(error);
  }
}

const TABLE = `CREATE TABLE item (
  id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, n INTEGER, big BIGINT, price REAL, ratio DOUBLE PRECISION,
  amount DECIMAL, data BLOB, at DATETIME, flag BOOLEAN, note TEXT)`;
const INSERT = "INSERT INTO item (name, n, big, price, ratio, amount, data, at, flag, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
const SELECT = "SELECT id, name, n, big, price, ratio, amount, data, at, flag, note, n * 2 AS doubled FROM item WHERE id = ?";

/** The same calls, in the same order, as the app's adapter and the rest of the client contract make them. */
async function scenario(client: Client): Promise<unknown[]> {
  const log: unknown[] = [];
  const run = async (work: () => Promise<ResultSet | ResultSet[] | void>) => log.push(await outcome(work));
  const exec = (sql: string, args: InArgs = []) => run(() => client.execute({ sql, args }));

  await exec(TABLE);
  // Prisma's DateTime as the adapter stores it (ISO 8601, "+00:00"), an epoch-milliseconds BigInt, a blob, a boolean.
  await exec(INSERT, ["a", 1, 1_764_144_000_000n, 1.5, 0.25, 12.34, new Uint8Array([0, 1, 255]), "2026-11-26T08:00:00.000+00:00", 1, null]);
  await exec(INSERT, ["b", -7, 9_007_199_254_740_991n, 0, -2.5e-9, 0, new Uint8Array([]), "1970-01-01T00:00:00.000+00:00", 0, "é ✓"]);
  await exec(INSERT, ["c", null, null, null, null, null, null, null, null, null]);
  await exec(INSERT, ["d", 2 ** 31, 9_007_199_254_740_993n, 1e300, 1, 1, new Uint8Array(1000).fill(7).buffer, "2000-02-29T23:59:59.999+00:00", 1, ""]);
  for (const id of [1, 2, 3, 4, 99]) await exec(SELECT, [id]);
  await exec("INSERT INTO item (name, n) VALUES (:name, :n)", { ":name": "named", ":n": 5 });
  await exec("INSERT INTO item (name, n) VALUES ($name, $n)", { name: "named2", n: 6 });
  // A constraint error, then the same statement again with values that fit.
  await exec(INSERT, ["a", 1, null, null, null, null, null, null, null, null]);
  await exec(INSERT, ["e", 1, null, null, null, null, null, null, null, null]);
  await exec("SELECT id, nme FROM item");
  await exec("UPDATE item SET n = n + 1 WHERE n IS NOT NULL");
  await exec("UPDATE item SET n = n + 1 WHERE id = ? RETURNING id, n", [1]);
  await exec("DELETE FROM item WHERE name = ?", ["named2"]);
  await exec("DELETE FROM item WHERE name = ?", ["nobody"]);
  await exec("SELECT count(*) AS c, max(id), min(price), sum(big) FROM item");
  await exec("SELECT ? AS t, ? AS i, ? AS r, ? AS b, ? AS z, ? AS x", ["text", 3, 2.5, true, null, 42n]);
  await exec("PRAGMA busy_timeout");

  // Transactions: rollback, commit, a read transaction that tries to write, a statement after commit.
  const rolledBack = await client.transaction("write");
  await run(() => rolledBack.execute({ sql: INSERT, args: ["tx1", 1, null, null, null, null, null, null, null, null] }));
  await run(() => rolledBack.execute("SELECT count(*) AS c FROM item"));
  await run(() => rolledBack.rollback());
  log.push(rolledBack.closed);
  await exec("SELECT count(*) AS c FROM item");
  const committed = await client.transaction("deferred");
  await run(() => committed.execute({ sql: INSERT, args: ["tx2", 2, null, null, null, null, null, null, null, null] }));
  await run(() => committed.commit());
  await run(() => committed.execute("SELECT 1"));
  await exec("SELECT name FROM item WHERE name = ?", ["tx2"]);
  const readOnly = await client.transaction("read");
  await run(() => readOnly.execute({ sql: INSERT, args: ["tx3", 3, null, null, null, null, null, null, null, null] }));
  readOnly.close();
  log.push(readOnly.closed);

  await run(() => client.executeMultiple("CREATE TABLE extra (k TEXT); INSERT INTO extra VALUES ('x'); INSERT INTO extra VALUES ('y');"));
  await exec("SELECT k FROM extra ORDER BY k");
  await run(() => client.batch([{ sql: "INSERT INTO extra VALUES (?)", args: ["z"] }, "SELECT count(*) FROM extra"], "write"));
  await run(() => client.batch(["INSERT INTO extra VALUES ('w')", "INSERT INTO nowhere VALUES (1)"], "write"));
  await exec("SELECT count(*) FROM extra");
  return log;
}

describe("the statement-caching libSQL client", () => {
  it("gives the library's own results, errors and transaction outcomes, with integers as numbers", async () => {
    const spy = countPrepares();
    const library = await scenario(open(createClient, { url: fileUrl("library.sqlite"), timeout: 5000 }));
    const libraryPrepares = spy.mock.calls.length;
    spy.mockClear();
    const cached = await scenario(open(createStatementCachingClient, { url: fileUrl("cached.sqlite"), timeout: 5000 }));

    expect(cached).toEqual(library);
    // The scenario reads a value above 2^53 with intMode "number": both refuse it the same way.
    expect(JSON.stringify(library)).toContain("cannot be safely represented");
    expect(spy.mock.calls.length).toBeLessThan(libraryPrepares);
    expect(preparesOf(spy, SELECT)).toBe(1);
    // Prepared twice: the statement that met the unique constraint left the cache (see the SQLITE_BUSY test below).
    expect(preparesOf(spy, INSERT)).toBe(2);
  });

  it("gives the library's results with intMode bigint too, and in memory", async () => {
    const config = (name: string): Config => ({ url: name === "memory" ? ":memory:" : fileUrl(name), intMode: "bigint" });
    expect(await scenario(open(createStatementCachingClient, config("cached.sqlite")))).toEqual(
      await scenario(open(createClient, config("library.sqlite"))),
    );
    expect(await scenario(open(createStatementCachingClient, config("memory")))).toEqual(await scenario(open(createClient, config("memory"))));
  });

  it("prepares a statement once per connection and keeps at most the configured number", async () => {
    const spy = countPrepares();
    const acquired = vi.spyOn(ConnectionPool.prototype, "acquireSync");
    const client = open((config) => createStatementCachingClient(config, 3), { url: fileUrl("lru.sqlite") });
    await client.execute("CREATE TABLE t (k INTEGER)");
    for (let i = 0; i < 20; i++) await client.execute({ sql: "INSERT INTO t VALUES (?)", args: [i] });
    expect(preparesOf(spy, "INSERT INTO t VALUES (?)")).toBe(1);

    const texts = ["SELECT 1", "SELECT 2", "SELECT 3", "SELECT 4"];
    for (const sql of texts) await client.execute(sql);
    const connection = acquired.mock.results.at(-1)!.value as InstanceType<typeof Database>;
    expect(new Set(acquired.mock.results.map((r) => r.value)).size).toBe(1); // calls in sequence share one connection
    expect(cachedStatements(connection)).toEqual(["SELECT 2", "SELECT 3", "SELECT 4"]);
    // The insert was the least recently used: it was dropped and is prepared again; "SELECT 4" is still there.
    await client.execute({ sql: "INSERT INTO t VALUES (?)", args: [20] });
    await client.execute("SELECT 4");
    expect(preparesOf(spy, "INSERT INTO t VALUES (?)")).toBe(2);
    expect(preparesOf(spy, "SELECT 4")).toBe(1);
    expect((await client.execute("SELECT count(*) AS c FROM t")).rows[0]!.c).toBe(21);

    client.close();
    expect(cachedStatements(connection)).toEqual([]);
    expect(connection.open).toBe(false);
    await expect(client.execute("SELECT 1")).rejects.toMatchObject({ code: "CLIENT_CLOSED" });
  });

  it("asks libSQL for a kept statement's modes and columns once, and still tells a write from a query", async () => {
    const statementClass = Object.getPrototypeOf(new Database(":memory:").prepare("SELECT 1")) as Record<string, (...args: unknown[]) => unknown>;
    const asked = { raw: vi.spyOn(statementClass, "raw"), safeIntegers: vi.spyOn(statementClass, "safeIntegers"), columns: vi.spyOn(statementClass, "columns") };
    const client = open(createStatementCachingClient, { url: fileUrl("modes.sqlite") });
    await client.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)");
    for (const spy of Object.values(asked)) spy.mockClear();

    const inserted: ResultSet[] = [];
    const read: ResultSet[] = [];
    for (let i = 1; i <= 10; i++) {
      inserted.push(await client.execute({ sql: "INSERT INTO t (k, v) VALUES (?, ?)", args: [i, `v${i}`] }));
      read.push(await client.execute({ sql: "SELECT k, v FROM t WHERE k = ?", args: [i] }));
    }

    // Two statements: each was asked once (the insert's raw(true) refused once, and the refusal was given again).
    expect(asked.safeIntegers).toHaveBeenCalledTimes(2);
    expect(asked.raw).toHaveBeenCalledTimes(2);
    expect(asked.columns).toHaveBeenCalledTimes(1);
    expect(inserted.map((r) => [r.rowsAffected, Number(r.lastInsertRowid)])).toEqual(Array.from({ length: 10 }, (_, i) => [1, i + 1]));
    expect(read.map((r) => [r.columns, r.columnTypes, r.rows.map((row) => ({ ...row }))])).toEqual(
      Array.from({ length: 10 }, (_, i) => [["k", "v"], ["INTEGER", "TEXT"], [{ k: i + 1, v: `v${i + 1}` }]]),
    );
  });

  it("reads a kept SELECT *'s new columns once another connection added one", async () => {
    const app = open(createStatementCachingClient, { url: fileUrl("widened.sqlite") });
    await app.executeMultiple("CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1);");
    expect((await app.execute("SELECT * FROM t")).columns).toEqual(["a"]);
    const migration = open(createClient, { url: fileUrl("widened.sqlite") });
    await migration.executeMultiple("ALTER TABLE t ADD COLUMN b TEXT DEFAULT 'x';");

    // The call that meets the change still names its values with the list read before it ran (as the library
    // alone does); the next one has the new list.
    await app.execute("SELECT * FROM t");
    const after = await app.execute("SELECT * FROM t");
    expect(after.columns).toEqual(["a", "b"]);
    expect({ ...after.rows[0] }).toEqual({ a: 1, b: "x" });
  });

  it("reads a table's new columns after a script changed it", async () => {
    const client = open(createStatementCachingClient, { url: fileUrl("schema.sqlite") });
    await client.executeMultiple("CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1);");
    expect((await client.execute("SELECT * FROM t")).columns).toEqual(["a"]);
    await client.executeMultiple("ALTER TABLE t ADD COLUMN b TEXT DEFAULT 'x';");
    const after = await client.execute("SELECT * FROM t");
    expect(after.columns).toEqual(["a", "b"]);
    expect(after.rows[0]!.b).toBe("x");
  });

  it("commits a write marked unsynced with synchronous NORMAL, any other write and every transaction with FULL", async () => {
    // One connection, so every call below reads the level the previous one left (PRAGMA reads never change it).
    const client = open(createStatementCachingClient, { url: fileUrl("sync.sqlite"), concurrency: 1 });
    const level = async (on: Pick<Client, "execute"> = client) => Number((await on.execute("PRAGMA synchronous")).rows[0]![0]);
    const FULL = 2;
    const NORMAL = 1;
    const prepares = countPrepares();
    await client.execute("PRAGMA journal_mode = WAL");
    await client.execute("CREATE TABLE t (k INTEGER)");
    expect(await level()).toBe(FULL);
    await client.execute({ sql: `${UNSYNCED_WRITE}INSERT INTO t VALUES (?)`, args: [1] });
    expect(await level()).toBe(NORMAL);
    // A read leaves the level as it is; the next unmarked write is synced again.
    await client.execute("SELECT count(*) FROM t");
    expect(await level()).toBe(NORMAL);
    await client.execute({ sql: "INSERT INTO t VALUES (?)", args: [2] });
    expect(await level()).toBe(FULL);
    await client.execute({ sql: `${UNSYNCED_WRITE}INSERT INTO t VALUES (?)`, args: [3] });
    expect(await level()).toBe(NORMAL);
    // A transaction begins at FULL after an unsynced write, and a marked write inside it leaves the level alone
    // (SQLite refuses to change it inside a transaction).
    const tx = await client.transaction("deferred");
    expect(await level(tx)).toBe(FULL);
    await tx.execute({ sql: `${UNSYNCED_WRITE}INSERT INTO t VALUES (?)`, args: [4] });
    expect(await level(tx)).toBe(FULL);
    await tx.commit();
    // Each level's setter is prepared once per connection and kept.
    expect(preparesOf(prepares, "PRAGMA synchronous = NORMAL")).toBe(1);
    expect(preparesOf(prepares, "PRAGMA synchronous = FULL")).toBe(1);
    // A script runs at FULL too.
    await client.execute({ sql: `${UNSYNCED_WRITE}INSERT INTO t VALUES (?)`, args: [5] });
    await client.executeMultiple("INSERT INTO t VALUES (6); INSERT INTO t VALUES (7);");
    expect(await level()).toBe(FULL);
    expect((await client.execute("SELECT count(*) AS c FROM t")).rows[0]!.c).toBe(7);
  });

  it("runs a transaction's statements on its own connection while plain calls use another", async () => {
    const client = open(createStatementCachingClient, { url: fileUrl("tx.sqlite"), timeout: 100 });
    await client.execute("PRAGMA journal_mode = WAL");
    await client.execute("CREATE TABLE t (k TEXT)");
    const tx = await client.transaction("write");
    await tx.execute({ sql: "INSERT INTO t VALUES (?)", args: ["inside"] });
    expect((await tx.execute("SELECT count(*) AS c FROM t")).rows[0]!.c).toBe(1);
    // Another connection reads the committed state and cannot write while the transaction holds the lock.
    expect((await client.execute("SELECT count(*) AS c FROM t")).rows[0]!.c).toBe(0);
    await expect(client.execute({ sql: "INSERT INTO t VALUES (?)", args: ["outside"] })).rejects.toMatchObject({
      code: "SQLITE_BUSY",
      rawCode: 5,
    });
    await tx.commit();
    await client.execute({ sql: "INSERT INTO t VALUES (?)", args: ["outside"] });
    expect((await client.execute("SELECT k FROM t ORDER BY k")).rows.map((row) => row.k)).toEqual(["inside", "outside"]);
  });

  it("drops a statement that failed, and closes a connection SQLITE_BUSY stopped instead of keeping its old snapshot", async () => {
    const url = fileUrl("snapshot.sqlite");
    const client = open(createStatementCachingClient, { url, timeout: 100 });
    await client.execute("PRAGMA journal_mode = WAL");
    await client.execute("CREATE TABLE t (k INTEGER)");
    const other = new Database(url.slice("file:".length));
    try {
      const acquired = vi.spyOn(ConnectionPool.prototype, "acquireSync");
      const insert = "INSERT INTO t VALUES (?)";
      // A deferred transaction reads, another connection commits, the transaction's write meets an old snapshot.
      const tx = await client.transaction("deferred");
      const connection = acquired.mock.results.at(-1)!.value as InstanceType<typeof Database>;
      await tx.execute("SELECT count(*) FROM t");
      other.exec("INSERT INTO t VALUES (2)");
      await tx.execute({ sql: "SELECT ? AS v", args: [1] });
      await expect(tx.execute({ sql: insert, args: [3] })).rejects.toMatchObject({ code: "SQLITE_BUSY", extendedCode: "SQLITE_BUSY_SNAPSHOT" });
      await tx.rollback();
      // The failed insert left the cache, and its connection was closed and dropped from the pool: the client's next
      // calls run on a fresh connection that sees the other connection's row and can write.
      expect(cachedStatements(connection)).toEqual([]);
      expect(connection.open).toBe(false);
      expect((await client.execute("SELECT count(*) AS c FROM t")).rows[0]!.c).toBe(1);
      await client.execute({ sql: insert, args: [4] });
      expect((await client.execute("SELECT k FROM t ORDER BY k")).rows.map((row) => row.k)).toEqual([2, 4]);
    } finally {
      other.close();
    }
  });

  it("serves a call waiting for the connection that SQLITE_BUSY stopped", async () => {
    const url = fileUrl("waiter.sqlite");
    const client = open(createStatementCachingClient, { url, concurrency: 1 });
    await client.execute("CREATE TABLE t (k INTEGER)");
    const other = new Database(url.slice("file:".length));
    try {
      other.exec("BEGIN IMMEDIATE");
      // One connection: the read waits in the pool while the write borrows it and fails.
      const [write, read] = await Promise.allSettled([client.execute("INSERT INTO t VALUES (1)"), client.execute("SELECT count(*) AS c FROM t")]);
      expect(write).toMatchObject({ status: "rejected", reason: { code: "SQLITE_BUSY" } });
      expect(read).toMatchObject({ status: "fulfilled", value: { rows: [{ c: 0 }] } });
      other.exec("COMMIT");
      await client.execute("INSERT INTO t VALUES (2)");
    } finally {
      other.close();
    }
  });

  it("waits for another process's write lock within the busy timeout, and fails at once without one", async () => {
    const url = fileUrl("busy.sqlite");
    const file = url.slice("file:".length);
    const setup = open(createStatementCachingClient, { url });
    await setup.execute("CREATE TABLE t (k TEXT)");

    /** Starts a process that holds the write lock for 300 ms; resolves once it holds it, with its exit. */
    const holdLock = async (): Promise<{ released: Promise<unknown> }> => {
      const child = spawn(
        process.execPath,
        [
          "-e",
          `const Database = require("libsql"); const db = new Database(${JSON.stringify(file)});
           db.exec("BEGIN IMMEDIATE"); db.exec("INSERT INTO t VALUES ('other')"); console.log("locked");
           setTimeout(() => { db.exec("COMMIT"); db.close(); }, 300);`,
        ],
        { cwd: process.cwd(), stdio: ["ignore", "pipe", "inherit"] },
      );
      const released = new Promise((resolve) => child.once("exit", resolve));
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("locked") && resolve());
        child.once("exit", (code) => reject(new Error(`lock holder exited (${code}) before locking`)));
      });
      return { released };
    };

    const patient = open(createStatementCachingClient, { url, timeout: 5000 });
    let holder = await holdLock();
    await patient.execute({ sql: "INSERT INTO t VALUES (?)", args: ["patient"] });
    await holder.released;

    const impatient = open(createStatementCachingClient, { url });
    holder = await holdLock();
    await expect(impatient.execute({ sql: "INSERT INTO t VALUES (?)", args: ["impatient"] })).rejects.toMatchObject({
      code: "SQLITE_BUSY",
    });
    await holder.released;
    expect((await patient.execute("SELECT k FROM t ORDER BY rowid")).rows.map((row) => row.k)).toEqual(["other", "patient", "other"]);
  });

  it("hands malformed and remote URLs to the library, which rejects or serves them as before", () => {
    expect(() => createStatementCachingClient({ url: "file://example.com/x.sqlite" })).toThrow(/Invalid host/);
    expect(() => createStatementCachingClient({ url: "file:x.sqlite?mode=rw" })).toThrow(/Unsupported URL query parameter/);
  });
});

describe("Prisma on the app's SQLite adapter", () => {
  it("reuses its statements and round-trips the app's column types, in and out of transactions", async () => {
    const db = await Promise.resolve(createTestDatabase());
    try {
      const { prisma } = db;
      const content = Buffer.from([0, 1, 2, 250, 255]);
      const file = await prisma.printFile.create({
        data: { shop: "s.myshopify.com", format: "PDF", labelIdsJson: "[]", labelCount: 2, content, downloadToken: "t" },
      });
      const job = await prisma.job.create({
        data: { id: "j1", name: "n", shop: "s", payload: "{}", state: "queued", runAfterMs: 1_764_144_000_123n, maxAttempts: 3, backoffMs: 10, createdAtMs: 9_007_199_254_740_991n },
      });

      const spy = countPrepares();
      const read = () => prisma.printFile.findUnique({ where: { id: file.id } });
      const first = await read();
      const preparesForFirstRead = spy.mock.calls.length;
      for (let i = 0; i < 5; i++) expect(await read()).toEqual(first);
      expect(spy.mock.calls.length).toBe(preparesForFirstRead);

      expect(first).toMatchObject({ labelCount: 2, byteSize: 0, errorJson: null, status: "PENDING" });
      expect(Buffer.from(first!.content!)).toEqual(content);
      expect(first!.createdAt).toEqual(file.createdAt);
      expect(first!.createdAt.getTime()).toBe(file.createdAt.getTime());
      const storedAt = await prisma.$queryRawUnsafe<{ stored: string }[]>(`SELECT "createdAt" || '' AS stored FROM "PrintFile"`);
      expect(storedAt[0]!.stored).toBe(file.createdAt.toISOString().replace("Z", "+00:00"));
      expect(await prisma.job.findUnique({ where: { id: "j1" } })).toEqual(job);
      expect(job.createdAtMs).toBe(9_007_199_254_740_991n);

      await expect(
        prisma.$transaction(async (tx) => {
          await tx.job.update({ where: { id: "j1" }, data: { attempts: 1 } });
          throw new Error("abandon");
        }),
      ).rejects.toThrow("abandon");
      expect((await prisma.job.findUnique({ where: { id: "j1" } }))!.attempts).toBe(0);
      await prisma.$transaction(async (tx) => {
        await tx.job.update({ where: { id: "j1" }, data: { attempts: 2 } });
      });
      expect((await prisma.job.findUnique({ where: { id: "j1" } }))!.attempts).toBe(2);

      const journal = await prisma.$queryRawUnsafe<{ journal_mode: string }[]>("PRAGMA journal_mode");
      const busy = await prisma.$queryRawUnsafe<{ timeout: number | bigint }[]>("PRAGMA busy_timeout");
      expect(journal[0]!.journal_mode).toBe("wal");
      expect(Number(busy[0]!.timeout)).toBe(5000);

      // The app's raw statements carry the unsynced mark to the connection (one after another, they share one).
      const synchronous = async () => Number((await prisma.$queryRawUnsafe<{ synchronous: number | bigint }[]>("PRAGMA synchronous"))[0]!.synchronous);
      await statements(prisma).$executeRaw`${unsynced}UPDATE "Job" SET "attempts" = 3 WHERE "id" = ${"j1"}`;
      expect(await synchronous()).toBe(1);
      await prisma.job.update({ where: { id: "j1" }, data: { attempts: 4 } });
      expect(await synchronous()).toBe(2);
    } finally {
      await db.close();
    }
  });
});
