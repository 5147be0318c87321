/**
 * What a printer would get from a label file: its page count (pdf-lib), its text (pdftotext) and whether a page
 * carries a 1-D barcode (pdftoppm renders it; a barcode is a band of identical pixel rows made of many bars, which
 * text never is).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PDFDocument } from "pdf-lib";

export interface LabelPdf {
  pages: number;
  text: string;
  /** The tallest band of identical rows with at least `minBars` bars: its height in pixels at 150 dpi, and bar count. */
  barcode: { rows: number; bars: number };
}

/** A binary PGM (P5, 8-bit) as pixel rows. */
function parsePgm(bytes: Buffer): { width: number; height: number; pixel: (x: number, y: number) => number } {
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(bytes.subarray(0, 64).toString("latin1"));
  if (!header) throw new Error("pdftoppm did not write a binary PGM");
  const width = Number(header[1]);
  const height = Number(header[2]);
  const offset = header[0].length;
  return { width, height, pixel: (x, y) => bytes[offset + y * width + x] ?? 255 };
}

export function findBarcode(pgm: Buffer, minBars = 20): { rows: number; bars: number } {
  const image = parsePgm(pgm);
  let best = { rows: 0, bars: 0 };
  let run = 0;
  let previous = "";
  for (let y = 0; y < image.height; y += 1) {
    const edges: number[] = [];
    let dark = false;
    for (let x = 0; x < image.width; x += 1) {
      const now = image.pixel(x, y) < 128;
      if (now !== dark) edges.push(x);
      dark = now;
    }
    const bars = Math.floor(edges.length / 2);
    const signature = edges.join(",");
    if (bars >= minBars && signature === previous) {
      run += 1;
      if (run > best.rows) best = { rows: run, bars };
    } else {
      run = bars >= minBars ? 1 : 0;
    }
    previous = signature;
  }
  return best;
}

export async function inspectLabelPdf(bytes: Buffer, keepPngAs?: string): Promise<LabelPdf> {
  const pdf = await PDFDocument.load(bytes);
  const dir = mkdtempSync(path.join(tmpdir(), "etiquette-label-"));
  try {
    const file = path.join(dir, "label.pdf");
    writeFileSync(file, bytes);
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
    execFileSync("pdftoppm", ["-r", "150", "-gray", "-singlefile", file, path.join(dir, "page")]);
    const barcode = findBarcode(readFileSync(path.join(dir, "page.pgm")));
    if (keepPngAs) execFileSync("pdftoppm", ["-r", "60", "-png", "-singlefile", file, keepPngAs.replace(/\.png$/, "")]);
    return { pages: pdf.getPageCount(), text, barcode };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
