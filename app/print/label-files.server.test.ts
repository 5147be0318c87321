import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createLabelFiles, LabelFileFetchError, type LabelFileRef } from "./label-files.server";

const PDF = new TextEncoder().encode("%PDF-1.7\n% a label\n");
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function cacheDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "etiquette-print-cache-"));
  dirs.push(dir);
  return dir;
}
const label = (n: number, extra: Partial<LabelFileRef> = {}): LabelFileRef => ({ id: `L${n}`, orderName: `#${1000 + n}`, labelUrl: `https://labels.test/${n}.pdf`, labelFormat: "PDF_10x15_300dpi", ...extra });

describe("createLabelFiles", () => {
  it("downloads a label once, then serves it from the disk cache", async () => {
    const calls: string[] = [];
    const fetch = (async (url: string) => {
      calls.push(url);
      return new Response(PDF, { status: 200 });
    }) as unknown as typeof globalThis.fetch;
    const dir = cacheDir();
    const files = createLabelFiles({ fetch, cacheDir: dir });
    expect(await files.get(label(1))).toEqual(PDF);
    expect(await createLabelFiles({ fetch, cacheDir: dir }).get(label(1))).toEqual(PDF);
    expect(calls).toEqual(["https://labels.test/1.pdf"]);
  });

  it("keeps the cache under its bound, dropping the least recently used files", async () => {
    const dir = cacheDir();
    const big = new Uint8Array(400).fill(32);
    big.set(PDF);
    const fetch = (async () => new Response(big)) as unknown as typeof globalThis.fetch;
    const files = createLabelFiles({ fetch, cacheDir: dir, cacheMaxBytes: 1000 });
    for (let n = 1; n <= 6; n += 1) await files.get(label(n));
    expect(readdirSync(dir).length).toBeLessThanOrEqual(2);
  });

  it("gives up after the timeout, naming the order", async () => {
    const fetch = ((_url: string, init: RequestInit) =>
      new Promise((_resolve, reject) => init.signal?.addEventListener("abort", () => reject(init.signal?.reason)))) as unknown as typeof globalThis.fetch;
    const error = await createLabelFiles({ fetch, cacheDir: null, timeoutMs: 20 }).get(label(7)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LabelFileFetchError);
    expect(error).toMatchObject({ reason: "timeout", label: { orderName: "#1007" } });
  });

  it("refuses a file over the size cap, an HTTP error and a page that is not a label", async () => {
    const answer = (response: () => Response) => createLabelFiles({ fetch: (async () => response()) as unknown as typeof globalThis.fetch, cacheDir: null, maxFileBytes: 100 });
    await expect(answer(() => new Response(new Uint8Array(500).fill(37))).get(label(1))).rejects.toMatchObject({ reason: "tooLarge" });
    await expect(answer(() => new Response("gone", { status: 410 })).get(label(2))).rejects.toMatchObject({ reason: "http", status: 410 });
    await expect(answer(() => new Response("<html>login</html>")).get(label(3))).rejects.toMatchObject({ reason: "notALabelFile" });
    await expect(answer(() => new Response(PDF)).get(label(4, { labelUrl: "" }))).rejects.toMatchObject({ reason: "noUrl" });
    await expect(answer(() => new Response("^XA^FDx^FS^XZ")).get(label(5, { labelFormat: "ZPL_10x15_203dpi" }))).resolves.toBeInstanceOf(Uint8Array);
  });

  it("fetches many in the order given, never more than `concurrency` at once", async () => {
    let running = 0;
    let peak = 0;
    const fetch = (async (url: string) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      return new Response(`%PDF-1.7 ${url}`);
    }) as unknown as typeof globalThis.fetch;
    const labels = Array.from({ length: 12 }, (_, index) => label(index + 1));
    const bytes = await createLabelFiles({ fetch, cacheDir: null, concurrency: 3 }).getMany(labels);
    expect(bytes.map((file) => new TextDecoder().decode(file).split(" ")[1])).toEqual(labels.map((entry) => entry.labelUrl));
    expect(peak).toBe(3);
  });
});
