import { createHash } from "node:crypto";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createLabelFiles, DEFAULT_LABEL_FILE_OPTIONS, LabelFileFetchError, type LabelFileRef } from "./label-files.server";

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
/** A fetch answering every URL with `body`, and the URLs it was asked for. */
function recordingFetch(body: BodyInit = PDF) {
  const calls: string[] = [];
  const fetch = (async (url: string) => {
    calls.push(url);
    return new Response(body);
  }) as unknown as typeof globalThis.fetch;
  return { calls, fetch };
}

const label = (n: number, extra: Partial<LabelFileRef> = {}): LabelFileRef => ({ id: `L${n}`, orderName: `#${1000 + n}`, labelUrl: `https://labels.test/${n}.pdf`, labelFormat: "PDF_10x15_300dpi", ...extra });

describe("createLabelFiles", () => {
  it("downloads a label once, then serves it from the disk cache", async () => {
    const { calls, fetch } = recordingFetch();
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
    const { calls, fetch } = recordingFetch(big);
    const files = createLabelFiles({ fetch, cacheDir: dir, cacheMaxBytes: 1000 });
    for (let n = 1; n <= 6; n += 1) await files.get(label(n));
    expect(readdirSync(dir).length).toBeLessThanOrEqual(2);
    // Both kept files were last used ten seconds ago (set, not left to the file system's timestamp resolution).
    const before = new Date(Date.now() - 10_000);
    for (const name of readdirSync(dir)) utimesSync(path.join(dir, name), before, before);
    // Label 5 is used again (a minute later, by the cache's clock), then a new one pushes one file out: label 6.
    const later = createLabelFiles({ fetch, cacheDir: dir, cacheMaxBytes: 1000, now: () => Date.now() + 60_000 });
    await later.get(label(5));
    await later.get(label(7));
    calls.length = 0;
    await later.get(label(5));
    expect(calls).toEqual([]);
    await later.get(label(6));
    expect(calls).toEqual(["https://labels.test/6.pdf"]);
  });

  it("serves and keeps a cached file only within its maximum age after the download", async () => {
    const dir = cacheDir();
    const { calls, fetch } = recordingFetch();
    await createLabelFiles({ fetch, cacheDir: dir }).get(label(1));
    const dayLater = createLabelFiles({ fetch, cacheDir: dir, now: () => Date.now() + DEFAULT_LABEL_FILE_OPTIONS.cacheMaxAgeMs - 60_000 });
    await dayLater.get(label(1));
    expect(calls).toHaveLength(1);
    const tooLate = createLabelFiles({ fetch, cacheDir: dir, now: () => Date.now() + DEFAULT_LABEL_FILE_OPTIONS.cacheMaxAgeMs + 60_000 });
    expect(await tooLate.get(label(1))).toEqual(PDF);
    expect(calls).toHaveLength(2);
  });

  it("sweeps the expired files and abandoned partial writes off the disk, and keeps the fresh ones", async () => {
    const dir = cacheDir();
    const fetch = (async () => new Response(PDF)) as unknown as typeof globalThis.fetch;
    const files = createLabelFiles({ fetch, cacheDir: dir, cacheMaxAgeMs: 60_000 });
    await files.get(label(1));
    await files.get(label(2));
    const [first] = readdirSync(dir);
    const old = new Date(Date.now() - 120_000);
    utimesSync(path.join(dir, first!), old, old);
    writeFileSync(path.join(dir, `${first}.abc.tmp`), "partial");
    utimesSync(path.join(dir, `${first}.abc.tmp`), old, old);
    expect(await files.sweep()).toBe(2);
    expect(readdirSync(dir)).toHaveLength(1);
    expect(readdirSync(dir)[0]).not.toBe(first);
    expect(await files.sweep()).toBe(0);
  });

  it("keeps its folder to this user: mode 700, files 600", async () => {
    const dir = cacheDir();
    chmodSync(dir, 0o755);
    await createLabelFiles({ fetch: (async () => new Response(PDF)) as unknown as typeof globalThis.fetch, cacheDir: dir }).get(label(1));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dir, readdirSync(dir)[0]!)).mode & 0o777).toBe(0o600);
  });

  it.runIf(process.getuid?.() === 0)("does not use a folder another user owns", async () => {
    const dir = cacheDir();
    chownSync(dir, 1, 1);
    const { calls, fetch } = recordingFetch();
    const files = createLabelFiles({ fetch, cacheDir: dir });
    await files.get(label(1));
    await files.get(label(1));
    expect(calls).toHaveLength(2);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("does not write a file forgotten while its download was under way, nor a partial write of it", async () => {
    const dir = cacheDir();
    let answer: (response: Response) => void = () => undefined;
    const fetch = (() => new Promise<Response>((resolve) => (answer = resolve))) as unknown as typeof globalThis.fetch;
    const files = createLabelFiles({ fetch, cacheDir: dir });
    const pending = files.get(label(1));
    await new Promise((resolve) => setTimeout(resolve, 10));
    const partial = `${createHash("sha256").update("https://labels.test/1.pdf").digest("hex")}.1234.tmp`;
    writeFileSync(path.join(dir, partial), "partial");
    await files.forget(["https://labels.test/1.pdf"]);
    expect(readdirSync(dir)).toEqual([]);
    answer(new Response(PDF));
    expect(await pending).toEqual(PDF);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("reports a file it cannot remove and goes on", async () => {
    const dir = cacheDir();
    const fetch = (async () => new Response(PDF)) as unknown as typeof globalThis.fetch;
    const failures: string[] = [];
    const files = createLabelFiles({ fetch, cacheDir: dir, onRemoveError: (file) => failures.push(path.basename(file)) });
    await files.get(label(2));
    // A directory where a label file would be: removing it without `recursive` fails.
    const blocked = createHash("sha256").update("https://labels.test/1.pdf").digest("hex");
    mkdirSync(path.join(dir, blocked, "inside"), { recursive: true });
    await expect(files.forget(["https://labels.test/1.pdf", "https://labels.test/2.pdf"])).resolves.toBeUndefined();
    expect(failures).toEqual([blocked]);
    expect(readdirSync(dir)).toEqual([blocked]);
  });

  it("forgets the files of given label URLs at once", async () => {
    const dir = cacheDir();
    const { calls, fetch } = recordingFetch();
    const files = createLabelFiles({ fetch, cacheDir: dir });
    await files.getMany([label(1), label(2), label(3)]);
    await files.forget(["https://labels.test/1.pdf", "https://labels.test/3.pdf", "https://labels.test/never-cached.pdf"]);
    expect(readdirSync(dir)).toHaveLength(1);
    calls.length = 0;
    await files.getMany([label(1), label(2)]);
    expect(calls).toEqual(["https://labels.test/1.pdf"]);
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
