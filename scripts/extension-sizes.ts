/**
 * The admin extensions' bundles and Shopify's size limit. Built by the Shopify CLI exactly as `shopify app deploy`
 * builds them (`npm run extensions:build`: `shopify app build --skip-dependencies-installation`, offline, no login),
 * measured the way the CLI and Shopify's backend measure them: zlib deflate of each built file, against 64 KB.
 *
 * `npm run extensions:size` prints the table (building first when a bundle is missing or older than its sources) and
 * exits 1 when a bundle is over the limit. `npm run bench` prints the same table (BENCH_ONLY=extensions: only that).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { deflateSync } from "node:zlib";
import toml from "toml";

/** Shopify's limit for admin UI extensions (API 2025-10 and later), per built file, compressed. */
export const EXTENSION_SIZE_LIMIT_BYTES = 64 * 1024;

const root = path.resolve(import.meta.dirname, "..");
export const EXTENSIONS_DIR = path.join(root, "extensions");

export interface ExtensionInfo {
  handle: string;
  directory: string;
  targets: string[];
}

export interface BundleSize {
  handle: string;
  file: string;
  bytes: number;
  deflatedBytes: number;
}

/** The extensions: every extensions/<dir>/shopify.extension.toml, with its handle and targets. */
export function listExtensions(): ExtensionInfo[] {
  return readdirSync(EXTENSIONS_DIR)
    .filter((name) => existsSync(path.join(EXTENSIONS_DIR, name, "shopify.extension.toml")))
    .sort()
    .map((name) => {
      const directory = path.join(EXTENSIONS_DIR, name);
      const config = toml.parse(readFileSync(path.join(directory, "shopify.extension.toml"), "utf8")) as {
        extensions: { handle: string; targeting: { target: string }[] }[];
      };
      const extension = config.extensions[0]!;
      return { handle: extension.handle, directory, targets: extension.targeting.map((entry) => entry.target) };
    });
}

/** The files the CLI writes for an extension: its bundle, and its should-render bundle when it has one. */
function bundleFiles(extension: ExtensionInfo): string[] {
  const dist = path.join(extension.directory, "dist");
  return [`${extension.handle}.js`, `${extension.handle}-conditions.js`].map((file) => path.join(dist, file)).filter((file) => existsSync(file));
}

function newestSource(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (entry.name === "dist" || entry.name === "tests" || entry.name === "node_modules") continue;
    const full = path.join(directory, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** True when a bundle is missing or older than its extension's sources or the shared code. */
export function bundlesStale(): boolean {
  const shared = path.join(EXTENSIONS_DIR, "shared");
  const sharedNewest = existsSync(shared) ? newestSource(shared) : 0;
  return listExtensions().some((extension) => {
    const main = path.join(extension.directory, "dist", `${extension.handle}.js`);
    if (!existsSync(main)) return true;
    return Math.max(newestSource(extension.directory), sharedNewest) > statSync(main).mtimeMs;
  });
}

/** Runs the Shopify CLI's build (offline; the app TOML's placeholder client_id is enough). Throws with its output. */
export function buildExtensions(): void {
  const cli = path.join(root, "node_modules", ".bin", "shopify");
  const result = spawnSync(cli, ["app", "build", "--skip-dependencies-installation"], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, SHOPIFY_CLI_NO_ANALYTICS: "1", CI: "1" },
    timeout: 180_000,
  });
  if (result.status !== 0) {
    throw new Error(`shopify app build failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
  }
}

/** Each built file's size, raw and deflated (zlib, as Shopify measures it). */
export function measureBundles(): BundleSize[] {
  return listExtensions().flatMap((extension) =>
    bundleFiles(extension).map((file) => {
      const content = readFileSync(file);
      return { handle: extension.handle, file: path.relative(root, file), bytes: content.length, deflatedBytes: deflateSync(content).length };
    }),
  );
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function formatSizes(sizes: BundleSize[]): string {
  const lines = [`Admin extensions, deflated size of each built file (limit ${kb(EXTENSION_SIZE_LIMIT_BYTES)} each)`];
  for (const size of sizes) {
    const share = ((size.deflatedBytes / EXTENSION_SIZE_LIMIT_BYTES) * 100).toFixed(0);
    const verdict = size.deflatedBytes <= EXTENSION_SIZE_LIMIT_BYTES ? "ok" : "OVER THE LIMIT";
    lines.push(`  ${path.basename(size.file).padEnd(38)} ${kb(size.bytes).padStart(9)} raw  ${kb(size.deflatedBytes).padStart(8)} deflated / ${kb(EXTENSION_SIZE_LIMIT_BYTES)} (${share}%)  ${verdict}`);
  }
  return lines.join("\n");
}

/** Builds when needed, then measures. */
export function extensionSizes(options: { build?: "always" | "if-stale" } = {}): BundleSize[] {
  if (options.build === "always" || bundlesStale()) buildExtensions();
  return measureBundles();
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const sizes = extensionSizes({ build: process.argv.includes("--build") ? "always" : "if-stale" });
  console.log(formatSizes(sizes));
  if (sizes.some((size) => size.deflatedBytes > EXTENSION_SIZE_LIMIT_BYTES)) process.exit(1);
}
