import { PDFDocument } from "pdf-lib";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/helpers/test-db";
import type { JobQueue } from "../jobs/types";
import { translator } from "../i18n/translate.server";
import { openPrintFile } from "./download.server";
import { LabelFileFetchError, type LabelFileRef, type LabelFileReader } from "./label-files.server";
import { mockAdmin } from "../../test/helpers/mock-admin";
import { DEFAULT_RECONCILE_TIMINGS } from "../config.server";
import { voidLabel } from "../labels/void.server";
import { handlePrintRequest } from "./print-request.server";
import { buildPrintFile, createPrintFiles, listPrintFiles, printBulkJob, PRINT_FILE_JOB, PrintRequestError, selectLabels } from "./print.server";
import { printNoticeText, printProblemText } from "./problem-text";

const database = createTestDatabase();
const db = database.prisma;
afterAll(() => database.close());

const A = "shop-a.myshopify.com";
const B = "shop-b.myshopify.com";

/** Label files by URL: a one-page PDF whose width is the order number (so the page order is readable), or ZPL. */
function fakeFiles(failing: Set<string> = new Set()): LabelFileReader & { fetched: string[] } {
  const fetched: string[] = [];
  const get = async (label: LabelFileRef) => {
    fetched.push(label.labelUrl);
    if (failing.has(label.labelUrl)) throw new LabelFileFetchError(label, "http", 503);
    const n = Number(/(\d+)\.\w+$/.exec(label.labelUrl)?.[1]);
    if (label.labelFormat.startsWith("ZPL")) return new TextEncoder().encode(`^XA^FD${n}^FS^XZ\n`);
    const document = await PDFDocument.create();
    document.addPage([n, 500]);
    return document.save();
  };
  return { fetched, get, getMany: (labels) => Promise.all(labels.map(get)) };
}

let counter = 0;
async function label(shop: string, orderNumber: number, labelFormat = "PDF_10x15_300dpi", extra: Record<string, unknown> = {}) {
  counter += 1;
  const extension = labelFormat.startsWith("ZPL") ? "zpl" : "pdf";
  return db.label.create({
    data: {
      shop, orderId: `gid://shopify/Order/${orderNumber}`, orderName: `#${orderNumber}`, environment: "staging", customReference: `20261123-${counter}`,
      serviceLabelId: `S${counter}`, trackingNumber: `T${counter}`, trackingUrl: "", labelUrl: `https://labels.test/${orderNumber}.${extension}`,
      carrierName: "Colissimo", carrierServiceName: "DOM", labelFormat, requestSnapshotJson: "{}", createdAt: new Date(Date.UTC(2026, 10, 1, 0, counter)), ...extra,
    },
  });
}

beforeEach(async () => {
  await db.printFile.deleteMany();
  await db.purchaseAttempt.deleteMany();
  await db.label.deleteMany();
});

describe("createPrintFiles", () => {
  it("merges the chosen orders into one PDF per format, in order-name order (#998 before #1002)", async () => {
    for (const n of [1002, 998, 1010]) await label(A, n);
    await label(A, 999, "PDF_A4_300dpi");
    await label(A, 1001, "ZPL_10x15_203dpi");
    await label(A, 1000, "ZPL_10x15_203dpi");
    const labels = await selectLabels(db, A, { kind: "orders", orderIds: [998, 999, 1000, 1001, 1002, 1010].map((n) => `gid://shopify/Order/${n}`) });
    const files = await createPrintFiles(db, A, labels, { files: fakeFiles() });
    expect(files.map((file) => [file.format, file.labelCount, file.status])).toEqual([
      ["PDF_10x15_300dpi", 3, "READY"],
      ["PDF_A4_300dpi", 1, "READY"],
      ["ZPL_10x15_203dpi", 2, "READY"],
    ]);
    const pdf = await openPrintFile(db, files[0]!.id, { shop: A });
    if (pdf.kind !== "file") throw new Error(pdf.kind);
    expect(pdf.contentType).toBe("application/pdf");
    const merged = await PDFDocument.load(pdf.bytes);
    expect(merged.getPages().map((page) => Math.round(page.getWidth()))).toEqual([998, 1002, 1010]);
    const zpl = await openPrintFile(db, files[2]!.id, { shop: A });
    if (zpl.kind !== "file") throw new Error(zpl.kind);
    expect(zpl.fileName).toMatch(/\.zpl$/);
    expect(zpl.contentType).toBe("application/octet-stream");
    expect(new TextDecoder().decode(zpl.bytes)).toBe("^XA^FD1000^FS^XZ\n^XA^FD1001^FS^XZ\n");
  });

  it("prints in pick order by SKU when asked", async () => {
    for (const n of [1, 2, 3]) await label(A, n + 100);
    const labels = await selectLabels(db, A, { kind: "labels", labelIds: (await db.label.findMany()).map((row) => row.id) });
    const skus = new Map([["gid://shopify/Order/101", ["TEA-B"]], ["gid://shopify/Order/102", ["TEA-A"]], ["gid://shopify/Order/103", []]]);
    const [file] = await createPrintFiles(db, A, labels, { files: fakeFiles(), order: "sku", skus });
    const pdf = await openPrintFile(db, file!.id, { shop: A });
    if (pdf.kind !== "file") throw new Error(pdf.kind);
    expect((await PDFDocument.load(pdf.bytes)).getPages().map((page) => Math.round(page.getWidth()))).toEqual([102, 101, 103]);
  });

  it("records the failing order, and says so in English and French", async () => {
    await label(A, 1001);
    await label(A, 1002);
    const labels = await selectLabels(db, A, { kind: "orders", orderIds: ["gid://shopify/Order/1001", "gid://shopify/Order/1002"] });
    const [file] = await createPrintFiles(db, A, labels, { files: fakeFiles(new Set(["https://labels.test/1002.pdf"])) });
    expect(file).toMatchObject({ status: "FAILED", problem: { code: "fetch", params: { order: "#1002", reason: "http", status: 503 } } });
    expect(printProblemText(translator("en"), file!.problem!)).toBe(
      "The label of order #1002 could not be downloaded from the label service (error 503). Try again in a minute; if it keeps failing, open that label from the order's page.",
    );
    expect(printProblemText(translator("fr"), file!.problem!)).toContain("L’étiquette de la commande #1002 n’a pas pu être téléchargée");
    expect(await openPrintFile(db, file!.id, { shop: A })).toMatchObject({ kind: "failed" });
  });

  it("queues a large merge as a job; the file is offered once the job built it", async () => {
    for (let n = 1; n <= 5; n += 1) await label(A, 200 + n);
    const enqueued: Array<{ name: string; payload: unknown }> = [];
    const queue = { enqueue: async (name: string, data: { payload: unknown }) => (enqueued.push({ name, payload: data.payload }), "job-1") } as unknown as JobQueue;
    const labels = await selectLabels(db, A, { kind: "unprinted" });
    const files = fakeFiles();
    const [file] = await createPrintFiles(db, A, labels, { files, queue, inlineLimit: 3 });
    expect(file).toMatchObject({ status: "PENDING", labelCount: 5 });
    expect(enqueued).toEqual([{ name: PRINT_FILE_JOB, payload: { printFileId: file!.id } }]);
    expect(files.fetched).toEqual([]);
    expect(await openPrintFile(db, file!.id, { shop: A })).toEqual({ kind: "pending" });
    await buildPrintFile(db, file!.id, files);
    expect(await openPrintFile(db, file!.id, { shop: A })).toMatchObject({ kind: "file" });
  });

  it("says there is nothing to print when the orders have no label", async () => {
    await expect(createPrintFiles(db, A, [], { files: fakeFiles() })).rejects.toMatchObject({ problem: { code: "noLabels" } });
  });
});

describe("openPrintFile", () => {
  it("serves a file to its shop or its token only; another shop gets not found", async () => {
    await label(A, 1);
    const [file] = await createPrintFiles(db, A, await selectLabels(db, A, { kind: "unprinted" }), { files: fakeFiles() });
    const row = await db.printFile.findUniqueOrThrow({ where: { id: file!.id } });
    expect(await openPrintFile(db, file!.id, { shop: B })).toEqual({ kind: "notFound" });
    expect(await openPrintFile(db, file!.id, { token: "not-the-token" })).toEqual({ kind: "notFound" });
    expect(await openPrintFile(db, "missing", { shop: A })).toEqual({ kind: "notFound" });
    expect(await openPrintFile(db, file!.id, { token: row.downloadToken })).toMatchObject({ kind: "file" });
    expect(file!.url).toBe(`/api/print/files/${file!.id}?token=${row.downloadToken}`);
    const later = new Date(Date.now() + 25 * 60 * 60 * 1000);
    expect(await openPrintFile(db, file!.id, { shop: A }, later)).toEqual({ kind: "notFound" });
  });

  it("records when each label was printed, on download only, and Print unprinted then skips them", async () => {
    const printed = await label(A, 1);
    const other = await label(A, 2);
    const otherShop = await label(B, 3);
    const [file] = await createPrintFiles(db, A, await selectLabels(db, A, { kind: "labels", labelIds: [printed.id, otherShop.id] }), { files: fakeFiles() });
    expect(file!.labelCount).toBe(1);
    expect((await db.label.findUniqueOrThrow({ where: { id: printed.id } })).printedAt).toBeNull();
    const at = new Date("2026-11-23T21:00:00Z");
    await openPrintFile(db, file!.id, { shop: A }, at);
    expect((await db.label.findUniqueOrThrow({ where: { id: printed.id } })).printedAt).toEqual(at);
    expect((await db.label.findUniqueOrThrow({ where: { id: other.id } })).printedAt).toBeNull();
    expect((await selectLabels(db, A, { kind: "unprinted" })).map((row) => row.id)).toEqual([other.id]);
  });
});

describe("printBulkJob", () => {
  it("prints a bulk job's labels, or only its unprinted ones, of this shop only", async () => {
    const first = await label(A, 1, "PDF_10x15_300dpi", { printedAt: new Date() });
    const second = await label(A, 2);
    const foreign = await label(B, 3);
    const all = await printBulkJob(db, A, { labelIds: [first.id, second.id, foreign.id] }, {}, { files: fakeFiles() });
    expect(all.map((file) => file.labelCount)).toEqual([2]);
    const unprinted = await printBulkJob(db, A, { labelIds: [first.id, second.id] }, { unprintedOnly: true }, { files: fakeFiles() });
    expect(unprinted.map((file) => file.labelCount)).toEqual([1]);
  });
});

describe("void labels (decision 0112)", () => {
  it("are never printed again: not by order, not by id, not as unprinted, not from a file asked for before the void", async () => {
    const live = await label(A, 1001);
    const voided = await label(A, 1002, "PDF_10x15_300dpi", { voidState: "VOID" });
    const voiding = await label(A, 1003, "PDF_10x15_300dpi", { voidState: "VOIDING" });
    const ids = (labels: { id: string }[]) => labels.map((entry) => entry.id).sort();
    expect(ids(await selectLabels(db, A, { kind: "orders", orderIds: ["gid://shopify/Order/1001", "gid://shopify/Order/1002", "gid://shopify/Order/1003"] }))).toEqual([live.id]);
    expect(ids(await selectLabels(db, A, { kind: "labels", labelIds: [live.id, voided.id, voiding.id] }))).toEqual([live.id]);
    expect(ids(await selectLabels(db, A, { kind: "unprinted" }))).toEqual([live.id]);

    // A file asked for while both were live, built after one was voided, holds only the live one.
    const other = await label(A, 1004);
    const [pending] = await createPrintFiles(db, A, [live, other].map((entry) => ({ ...entry })), { files: fakeFiles(), queue: { enqueue: async () => {} } as unknown as JobQueue, inlineLimit: 0 });
    await db.label.update({ where: { id: other.id }, data: { voidState: "VOID" } });
    const built = await buildPrintFile(db, pending!.id, fakeFiles());
    expect(built).toMatchObject({ status: "READY", labelCount: 1 });
  });
});

describe("printing an order shipping from two locations (decision 0115)", () => {
  it("prints each location's label, and of an ordinary order its newest label only", async () => {
    const located = async (orderNumber: number, location: string) => {
      const row = await label(A, orderNumber);
      await db.purchaseAttempt.create({
        data: { shop: A, orderId: row.orderId, orderName: row.orderName, environment: "staging", customReference: row.customReference, status: "CREATED", requestJson: "{}", labelId: row.id, orderSlot: `${A}|${row.orderId}|1|${location}`, locationId: location },
      });
      return row;
    };
    const paris = await located(1044, "gid://shopify/Location/71000001");
    const lyon = await located(1044, "gid://shopify/Location/71000002");
    await label(A, 1050);
    const newer = await label(A, 1050);
    const chosen = await selectLabels(db, A, { kind: "orders", orderIds: ["gid://shopify/Order/1044", "gid://shopify/Order/1050"] });
    expect(chosen.map((row) => row.id).sort()).toEqual([paris.id, lyon.id, newer.id].sort());
    expect(chosen.every((row) => !("attempt" in row))).toBe(true);
  });
});

describe("a print file and a label voided after it was built (decision 0197)", () => {
  // A test label kept out of Shopify (decision 0170): the void makes no Shopify call, so any call fails the test.
  const noShopify = mockAdmin({});

  it("is withdrawn by the void: the file is no longer offered or downloadable, and says why in English and French", async () => {
    const kept = await label(A, 1001, "PDF_10x15_300dpi", { fulfillmentStatus: "SKIPPED_TEST" });
    const voided = await label(A, 1002, "PDF_10x15_300dpi", { fulfillmentStatus: "SKIPPED_TEST" });
    const [file] = await createPrintFiles(db, A, await selectLabels(db, A, { kind: "labels", labelIds: [kept.id, voided.id] }), { files: fakeFiles() });
    expect(file).toMatchObject({ status: "READY", labelCount: 2 });
    // Another shop's file and a file without the label are left as they are.
    const [unrelated] = await createPrintFiles(db, A, await selectLabels(db, A, { kind: "labels", labelIds: [kept.id] }), { files: fakeFiles() });

    const outcome = await voidLabel({ db, admin: noShopify, timings: DEFAULT_RECONCILE_TIMINGS }, { shop: A, labelId: voided.id });
    expect(outcome.kind).toBe("voided");

    const [after] = await listPrintFiles(db, A, [file!.id]);
    expect(after).toMatchObject({ status: "FAILED", problem: { code: "voided", params: { orders: "#1002" } } });
    expect((await db.printFile.findUniqueOrThrow({ where: { id: file!.id } })).content).toBeNull();
    expect(await openPrintFile(db, file!.id, { shop: A })).toMatchObject({ kind: "failed" });
    expect(printProblemText(translator("en"), after!.problem!)).toContain("The label of order #1002 was voided");
    expect(printProblemText(translator("fr"), after!.problem!)).toContain("L’étiquette de la commande #1002 a été annulée");
    expect(await openPrintFile(db, unrelated!.id, { shop: A })).toMatchObject({ kind: "file" });
  });

  it("is refused at download when its build raced the void, and never hands the label out", async () => {
    const kept = await label(A, 1001);
    const voided = await label(A, 1002);
    const [file] = await createPrintFiles(db, A, await selectLabels(db, A, { kind: "labels", labelIds: [kept.id, voided.id] }), { files: fakeFiles() });
    // The void's intent written after the file was built but without withdrawing it (the build finished after it).
    await db.label.update({ where: { id: voided.id }, data: { voidState: "VOIDING" } });
    const opened = await openPrintFile(db, file!.id, { token: (await db.printFile.findUniqueOrThrow({ where: { id: file!.id } })).downloadToken });
    expect(opened).toMatchObject({ kind: "failed" });
    expect(JSON.parse((opened as { errorJson: string }).errorJson)).toEqual({ code: "voided", params: { orders: "#1002" } });
    expect((await db.label.findUniqueOrThrow({ where: { id: kept.id } })).printedAt).toBeNull();
  });
});

describe("a print request naming void labels (decision 0197)", () => {
  it("prints the live ones, lists the void ones as left out and says so in English and French", async () => {
    const live = await label(A, 1001);
    const voided = await label(A, 1002, "PDF_10x15_300dpi", { voidState: "VOID" });
    const result = await handlePrintRequest(db, A, { labelIds: [live.id, voided.id] }, { files: fakeFiles() });
    expect(result.files.map((file) => file.labelCount)).toEqual([1]);
    expect(result.leftOut).toEqual([{ labelId: voided.id, orderName: "#1002" }]);
    expect(printNoticeText(translator("en"), result.notice!)).toBe("The label of order #1002 was left out: it was voided and is never printed.");
    expect(printNoticeText(translator("fr"), result.notice!)).toBe("L’étiquette de la commande #1002 a été écartée : elle a été annulée et n’est jamais imprimée.");

    const clean = await handlePrintRequest(db, A, { labelIds: [live.id] }, { files: fakeFiles() });
    expect(clean).toMatchObject({ leftOut: [], notice: null });
  });

  it("refuses with the reason when every named label is void, and never names another shop's", async () => {
    const voided = await label(A, 1002, "PDF_10x15_300dpi", { voidState: "VOID" });
    const foreign = await label(B, 1003, "PDF_10x15_300dpi", { voidState: "VOID" });
    const refusal = await handlePrintRequest(db, A, { labelIds: [voided.id, foreign.id] }, { files: fakeFiles() }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(PrintRequestError);
    const problem = (refusal as PrintRequestError).problem;
    expect(problem).toEqual({ code: "allVoided", params: { orders: "#1002" } });
    expect(printProblemText(translator("en"), problem)).toBe("Nothing to print: the chosen labels (order #1002) were voided, and a void label is never printed.");
    expect(printProblemText(translator("fr"), problem)).toContain("Rien à imprimer");
  });
});
