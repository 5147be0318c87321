/**
 * `npx tsx scripts/page-weight.ts [build/client]`: the JavaScript each page of a production build loads, gzip-
 * compressed (what the browser downloads from a compressing server): Remix's entry, then every route module of the
 * page (root, the app layout, the page) with the chunks they import, each chunk counted once. Run `npm run build`
 * first. Also used by `npm run vitals`.
 */
import { readdirSync, readFileSync } from "node:fs";
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
  /** The page's chunks that also ship a given marker (e.g. both languages' messages), by name. */
  chunks: { file: string; gzipBytes: number }[];
}

export function pageWeights(clientDir: string): PageWeight[] {
  const manifest = readRemixManifest(clientDir);
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
    return {
      page,
      files: files.size,
      rawBytes: [...files].reduce((sum, file) => sum + sizeOf(file).raw, 0),
      gzipBytes: chunks.reduce((sum, chunk) => sum + chunk.gzipBytes, 0),
      chunks,
    };
  });
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const clientDir = path.resolve(process.argv.slice(2).find((arg) => !arg.startsWith("--")) ?? "build/client");
  for (const weight of pageWeights(clientDir)) {
    console.log(`${weight.page}: ${kb(weight.gzipBytes)} gzip (${kb(weight.rawBytes)} raw, ${weight.files} files)`);
    if (process.argv.includes("--chunks"))
      for (const chunk of weight.chunks) console.log(`    ${kb(chunk.gzipBytes)}  ${chunk.file}`);
  }
}
