/**
 * `npx tsx scripts/page-weight.ts [build/client] [--chunks]`: the JavaScript each page of a production build loads,
 * gzip-compressed (what the browser downloads from a compressing server): Remix's entry, then every route module of the
 * page (root, the app layout, the page) with the chunks they import, each chunk counted once. Then, per language, that
 * plus the one file only that language's pages load (Polaris's dictionary, fetched before hydrating: decision 0189),
 * and what the page's JavaScript should not carry (zod, the label service's contract, a Polaris dictionary). Run
 * `npm run build` first. Also used by `npm run vitals`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { gzipSync } from "node:zlib";

interface RemixManifest {
  entry: { module: string; imports?: string[] };
  routes: Record<string, { module: string; imports?: string[] }>;
}

export const PAGES: Record<string, string[]> = {
  "Orders to ship (/app)": ["root", "routes/app", "routes/app._index"],
  "Order page (/app/orders/:id)": ["root", "routes/app", "routes/app.orders.$id"],
  "Settings (/app/settings)": ["root", "routes/app", "routes/app.settings"],
  "Label history (/app/labels)": ["root", "routes/app", "routes/app.labels"],
  "Shipping rules (/app/rules)": ["root", "routes/app", "routes/app.rules"],
};

const require = createRequire(import.meta.url);

/** The longest plain sentence of a Polaris dictionary: found in a chunk only if the dictionary is in it. */
function dictionaryMarker(locale: "en" | "fr"): string {
  const values: string[] = [];
  const walk = (node: unknown) => {
    if (typeof node === "string") values.push(node);
    else if (node && typeof node === "object") Object.values(node).forEach(walk);
  };
  walk(require(`@shopify/polaris/locales/${locale}.json`));
  return values.filter((value) => !/["'\\{]/.test(value)).sort((a, b) => b.length - a.length)[0]!;
}

/** What a page's JavaScript should not carry, each found by a text only its module has. */
export const MARKERS: Record<string, string> = {
  zod: "ZodError",
  "label contract": "expected a whole number written as a string", // app/label-service/contract.ts
  "Polaris en": dictionaryMarker("en"),
  "Polaris fr": dictionaryMarker("fr"),
};

export function readRemixManifest(clientDir: string): RemixManifest {
  const assets = path.join(clientDir, "assets");
  const file = readdirSync(assets).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file) throw new Error(`no Remix manifest in ${assets}: run npm run build first`);
  const text = readFileSync(path.join(assets, file), "utf8");
  return JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as RemixManifest;
}

export interface PageWeight {
  page: string;
  files: number;
  rawBytes: number;
  gzipBytes: number;
  chunks: { file: string; gzipBytes: number }[];
  /** The MARKERS found in the page's chunks. */
  carries: string[];
  /** The JavaScript plus the file only that language loads (Polaris's dictionary, when it is not in the chunks). */
  byLocale: Record<"en" | "fr", number>;
}

/** Polaris's dictionaries as files of the build (app/i18n/polaris.ts imports them with `?url`), by language. */
function dictionaryFiles(clientDir: string): Partial<Record<"en" | "fr", string>> {
  const files: Partial<Record<"en" | "fr", string>> = {};
  for (const name of readdirSync(path.join(clientDir, "assets"))) {
    const match = /^(en|fr)-[\w-]+\.json$/.exec(name);
    if (match) files[match[1] as "en" | "fr"] = `/assets/${name}`;
  }
  return files;
}

export function pageWeights(clientDir: string): PageWeight[] {
  const manifest = readRemixManifest(clientDir);
  const dictionaries = dictionaryFiles(clientDir);
  const gzipped = new Map<string, { raw: number; gzip: number }>();
  const sizeOf = (url: string) => {
    let size = gzipped.get(url);
    if (!size) {
      const content = readFileSync(path.join(clientDir, url));
      size = { raw: content.length, gzip: gzipSync(content).length };
      gzipped.set(url, size);
    }
    return size;
  };
  return Object.entries(PAGES).map(([page, routeIds]) => {
    const files = new Set<string>([manifest.entry.module, ...(manifest.entry.imports ?? [])]);
    for (const id of routeIds) {
      const route = manifest.routes[id];
      if (!route) throw new Error(`route ${id} is not in the build`);
      files.add(route.module);
      for (const imported of route.imports ?? []) files.add(imported);
    }
    const chunks = [...files]
      .map((file) => ({ file, gzipBytes: sizeOf(file).gzip }))
      .sort((a, b) => b.gzipBytes - a.gzipBytes);
    const gzipBytes = chunks.reduce((sum, chunk) => sum + chunk.gzipBytes, 0);
    const text = [...files].map((file) => readFileSync(path.join(clientDir, file), "utf8")).join("\n");
    const dictionary = (locale: "en" | "fr") => {
      const file = dictionaries[locale];
      return file ? sizeOf(file).gzip : 0;
    };
    return {
      page,
      files: files.size,
      rawBytes: [...files].reduce((sum, file) => sum + sizeOf(file).raw, 0),
      gzipBytes,
      chunks,
      carries: Object.entries(MARKERS)
        .filter(([, marker]) => text.includes(marker))
        .map(([name]) => name),
      byLocale: { en: gzipBytes + dictionary("en"), fr: gzipBytes + dictionary("fr") },
    };
  });
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const clientDir = path.resolve(process.argv.slice(2).find((arg) => !arg.startsWith("--")) ?? "build/client");
  for (const weight of pageWeights(clientDir)) {
    console.log(
      `${weight.page}: ${kb(weight.gzipBytes)} gzip (${kb(weight.rawBytes)} raw, ${weight.files} files); ` +
        `en ${kb(weight.byLocale.en)}, fr ${kb(weight.byLocale.fr)}; JS carries: ${weight.carries.join(", ") || "none of " + Object.keys(MARKERS).join(", ")}`,
    );
    if (process.argv.includes("--chunks"))
      for (const chunk of weight.chunks) console.log(`    ${kb(chunk.gzipBytes)}  ${chunk.file}`);
  }
}
