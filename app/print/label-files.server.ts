/**
 * Label files from the label service's `label_url`: public links (the service's own answer carries no token for
 * them), fetched with a timeout and a size cap, a few at a time, and cached on this instance's disk. A label's file
 * never changes, so the cache is keyed by its URL; the cache is pruned (least recently used first) when it grows past
 * its bound. A label file shows the recipient's name, address and phone (decision 0205), so:
 * - a cached file is served for at most `cacheMaxAgeMs` after its download (a day by default), and `sweep` removes the
 *   older ones from the disk; the file's modification time is its download time, its access time its last use (set
 *   here, whatever the mount's atime setting);
 * - `forget` removes given labels' files at once (customers/redact, shop/redact), and a download of one of them that
 *   was under way is not written afterwards;
 * - the folder is this process user's own (mode 700, files 600); a folder owned by another user is not used at all.
 * The cache is best effort: a disk error only costs a download.
 */
import { createHash, randomUUID } from "node:crypto";
import { chmod, mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { looksLikeLabelFile, printKindOf } from "./formats";

export interface LabelFileRef {
  id: string;
  orderName: string;
  labelUrl: string;
  labelFormat: string;
}

export type FetchFailure = "noUrl" | "timeout" | "http" | "tooLarge" | "notALabelFile" | "network";

/** A label file that could not be had; names the order so the merchant knows which label to look at. */
export class LabelFileFetchError extends Error {
  constructor(
    readonly label: LabelFileRef,
    readonly reason: FetchFailure,
    readonly status?: number,
  ) {
    super(`label file of order ${label.orderName} (${label.id}): ${reason}${status ? ` ${status}` : ""}`);
  }
}

export interface LabelFileOptions {
  fetch?: typeof globalThis.fetch;
  /** Folder of the cache; null turns the cache off. */
  cacheDir?: string | null;
  cacheMaxBytes?: number;
  /** How long after its download a cached file may be served and kept. */
  cacheMaxAgeMs?: number;
  timeoutMs?: number;
  maxFileBytes?: number;
  concurrency?: number;
  now?: () => number;
  /** Told of a cache file that could not be removed (forget, sweep). */
  onRemoveError?: (file: string, error: unknown) => void;
}

export interface LabelFiles {
  get(label: LabelFileRef): Promise<Uint8Array>;
  /** The files of many labels in the same order, `concurrency` at a time; the first failure rejects. */
  getMany(labels: readonly LabelFileRef[]): Promise<Uint8Array[]>;
  /** Removes the cached files of these label URLs, if this instance holds them. Never throws (a failure is logged). */
  forget(labelUrls: readonly string[]): Promise<void>;
  /** Removes the cached files older than the cache's maximum age (and abandoned partial writes): how many. */
  sweep(): Promise<number>;
}

/** What building a print file needs of the cache: reading label files. */
export type LabelFileReader = Pick<LabelFiles, "get" | "getMany">;

export const DEFAULT_LABEL_FILE_OPTIONS = {
  cacheDir: path.join(tmpdir(), "etiquette-label-files"),
  cacheMaxBytes: 256 * 1024 * 1024,
  cacheMaxAgeMs: 24 * 60 * 60 * 1000,
  timeoutMs: 15_000,
  maxFileBytes: 5 * 1024 * 1024,
  concurrency: 6,
} as const;

async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array | "tooLarge"> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    await response.body?.cancel();
    return "tooLarge";
  }
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return "tooLarge";
    }
    parts.push(value);
  }
  return new Uint8Array(Buffer.concat(parts));
}

export function createLabelFiles(options: LabelFileOptions = {}): LabelFiles {
  const settings = { ...DEFAULT_LABEL_FILE_OPTIONS, ...options };
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const now = options.now ?? Date.now;
  const cacheDir = settings.cacheDir;
  let cacheBytes: number | null = null; // measured on first write
  let pruning: Promise<void> | null = null;
  let owned: Promise<boolean> | null = null;
  /** Files forgotten (redacted) within the last `cacheMaxAgeMs`, by path: a download under way must not write them. */
  const forgotten = new Map<string, number>();

  const cachePath = (url: string) => (cacheDir ? path.join(cacheDir, createHash("sha256").update(url).digest("hex")) : null);

  const expired = (downloadedAtMs: number) => now() - downloadedAtMs > settings.cacheMaxAgeMs;

  async function remove(file: string): Promise<boolean> {
    try {
      await rm(file, { force: true });
      return true;
    } catch (error) {
      options.onRemoveError?.(file, error);
      return false;
    }
  }

  /** The folder, made if missing, is this user's and closed to others; false: the cache is not used. */
  function ownFolder(): Promise<boolean> {
    owned ??= (async () => {
      if (!cacheDir) return false;
      try {
        await mkdir(cacheDir, { recursive: true, mode: 0o700 });
        const info = await stat(cacheDir);
        if (!info.isDirectory() || (process.getuid && info.uid !== process.getuid())) return false;
        if ((info.mode & 0o077) !== 0) await chmod(cacheDir, 0o700);
        return true;
      } catch {
        return false;
      }
    })();
    return owned;
  }

  async function readCache(file: string | null): Promise<Uint8Array | null> {
    if (!file || !(await ownFolder())) return null;
    try {
      const info = await stat(file);
      if (expired(info.mtimeMs)) {
        await remove(file);
        cacheBytes = null;
        return null;
      }
      const bytes = await readFile(file);
      // Recently used files are pruned last; the modification time stays the download time.
      await utimes(file, new Date(now()), info.mtime).catch(() => undefined);
      return new Uint8Array(bytes);
    } catch {
      return null;
    }
  }

  async function cachedFiles(): Promise<{ full: string; size: number; mtime: number; atime: number }[]> {
    if (!cacheDir) return [];
    const entries = await readdir(cacheDir).catch(() => [] as string[]);
    const files = await Promise.all(
      entries.map(async (name) => {
        const full = path.join(cacheDir, name);
        const info = await stat(full).catch(() => null);
        return info?.isFile() ? { full, size: info.size, mtime: info.mtimeMs, atime: info.atimeMs } : null;
      }),
    );
    return files.filter((entry) => entry !== null);
  }

  async function sweep(): Promise<number> {
    for (const [file, at] of forgotten) if (expired(at)) forgotten.delete(file);
    if (!(await ownFolder())) return 0;
    let removed = 0;
    for (const file of await cachedFiles()) {
      if (expired(file.mtime) && (await remove(file.full))) removed += 1;
    }
    if (removed > 0) cacheBytes = null; // measured again on the next write
    return removed;
  }

  async function forget(labelUrls: readonly string[]): Promise<void> {
    if (!cacheDir || labelUrls.length === 0) return;
    const files = new Set(labelUrls.map((url) => cachePath(url)!));
    for (const file of files) forgotten.set(file, now());
    if (!(await ownFolder())) return;
    // One listing, then only the files present (a shop may have many labels, few of them cached here). A name is a
    // file's hash, or that hash followed by `.<uuid>.tmp` for a write under way.
    for (const name of await readdir(cacheDir).catch(() => [] as string[])) {
      const file = path.join(cacheDir, name.split(".")[0]!);
      if (files.has(file)) await remove(path.join(cacheDir, name));
    }
    cacheBytes = null;
  }

  async function prune(): Promise<void> {
    const files = await cachedFiles();
    let total = files.reduce((sum, file) => sum + file.size, 0);
    const target = settings.cacheMaxBytes * 0.8;
    for (const file of files.sort((a, b) => a.atime - b.atime)) {
      if (total <= target && !expired(file.mtime)) continue;
      if (await remove(file.full)) total -= file.size;
    }
    cacheBytes = total;
  }

  async function writeCache(file: string | null, bytes: Uint8Array): Promise<void> {
    if (!file || !(await ownFolder()) || forgotten.has(file)) return;
    try {
      const temporary = `${file}.${randomUUID()}.tmp`;
      await writeFile(temporary, bytes, { mode: 0o600 });
      if (forgotten.has(file)) {
        await rm(temporary, { force: true });
        return;
      }
      await rename(temporary, file);
      if (cacheBytes === null) {
        pruning ??= prune().finally(() => (pruning = null));
        await pruning;
      } else cacheBytes += bytes.byteLength;
      if ((cacheBytes ?? 0) > settings.cacheMaxBytes) {
        pruning ??= prune().finally(() => (pruning = null));
        await pruning;
      }
    } catch {
      // A cache that cannot be written only costs a download next time.
    }
  }

  async function download(label: LabelFileRef): Promise<Uint8Array> {
    if (!/^https?:\/\//i.test(label.labelUrl)) throw new LabelFileFetchError(label, "noUrl");
    let response: Response;
    try {
      response = await fetchImpl(label.labelUrl, { signal: AbortSignal.timeout(settings.timeoutMs), redirect: "follow" });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      throw new LabelFileFetchError(label, timedOut ? "timeout" : "network");
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new LabelFileFetchError(label, "http", response.status);
    }
    let bytes: Uint8Array | "tooLarge";
    try {
      bytes = await readCapped(response, settings.maxFileBytes);
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      throw new LabelFileFetchError(label, timedOut ? "timeout" : "network");
    }
    if (bytes === "tooLarge") throw new LabelFileFetchError(label, "tooLarge");
    if (!looksLikeLabelFile(printKindOf(label.labelFormat), bytes)) throw new LabelFileFetchError(label, "notALabelFile");
    return bytes;
  }

  async function get(label: LabelFileRef): Promise<Uint8Array> {
    const file = cachePath(label.labelUrl);
    const cached = await readCache(file);
    if (cached) return cached;
    const bytes = await download(label);
    await writeCache(file, bytes);
    return bytes;
  }

  async function getMany(labels: readonly LabelFileRef[]): Promise<Uint8Array[]> {
    const results = new Array<Uint8Array>(labels.length);
    let next = 0;
    let failed = false;
    const worker = async () => {
      while (!failed && next < labels.length) {
        const index = next++;
        try {
          results[index] = await get(labels[index] as LabelFileRef);
        } catch (error) {
          failed = true;
          throw error;
        }
      }
    };
    const workers = Array.from({ length: Math.min(settings.concurrency, labels.length) }, worker);
    const settled = await Promise.allSettled(workers);
    const rejection = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
    if (rejection) throw rejection.reason;
    return results;
  }

  return { get, getMany, forget, sweep };
}
