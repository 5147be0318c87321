import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { renderPdf, renderZpl, type LabelFileData } from "../../emulators/label-sandbox/labels-file";
import { concatenateThermal, mergePdf, UnreadableLabelFileError } from "./merge";

/** A one-page PDF whose page width tells which label it was (the order is then visible in the merged file). */
async function markedPdf(width: number): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.addPage([width, 400]);
  return document.save();
}

function sandboxLabel(n: number, labelType: string): LabelFileData {
  return {
    id: `id-${n}`, reference: `JD${String(n).padStart(8, "0")}`, carrierName: "Colissimo", serviceName: "Domicile", labelType, customReference: `20261123-${n}`,
    weightGrams: 500, sender: { firstname: "Ana", lastname: "Shop", city: "Lyon", zip: "69001", country: "FR" }, recipient: { firstname: "Client", lastname: `N${n}`, city: "Paris", zip: "75001", country: "FR" },
  };
}

describe("mergePdf", () => {
  it("keeps every page, in the order given, across chunks", async () => {
    const widths = [201, 202, 203, 204, 205, 206, 207];
    const files = new Map(await Promise.all(widths.map(async (width) => [width, await markedPdf(width)] as const)));
    const chunks: number[][] = [];
    const { bytes, pageCount } = await mergePdf({
      items: widths,
      chunkSize: 3,
      load: async (chunk) => {
        chunks.push([...chunk]);
        return chunk.map((width) => files.get(width)!);
      },
    });
    expect(chunks).toEqual([[201, 202, 203], [204, 205, 206], [207]]);
    const merged = await PDFDocument.load(bytes);
    expect(pageCount).toBe(7);
    expect(merged.getPages().map((page) => Math.round(page.getWidth()))).toEqual(widths);
  });

  it("merges real sandbox labels (10×15 pages stay 10×15)", async () => {
    const labels = [1, 2, 3].map((n) => sandboxLabel(n, "PDF_10x15_300dpi"));
    const { bytes, pageCount } = await mergePdf({ items: labels, load: (chunk) => Promise.all(chunk.map(renderPdf)) });
    expect(pageCount).toBe(3);
    const merged = await PDFDocument.load(bytes);
    expect(merged.getPages().every((page) => Math.round(page.getWidth()) === 283 && Math.round(page.getHeight()) === 425)).toBe(true);
  });

  it("names the label whose file is not a PDF", async () => {
    const error = await mergePdf({ items: ["#1001", "#1002"], load: async () => [await markedPdf(200), new TextEncoder().encode("<html>maintenance</html>")] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnreadableLabelFileError);
    expect((error as UnreadableLabelFileError<string>).item).toBe("#1002");
  });
});

describe("concatenateThermal", () => {
  it("puts ZPL labels one after the other, each complete, in order", async () => {
    const labels = [1, 2, 3].map((n) => sandboxLabel(n, "ZPL_10x15_203dpi"));
    const bytes = await concatenateThermal({ items: labels, chunkSize: 2, load: async (chunk) => chunk.map((label) => new TextEncoder().encode(renderZpl(label))) });
    const text = new TextDecoder().decode(bytes);
    expect(text.match(/\^XA/g)).toHaveLength(3);
    expect(text.match(/\^XZ/g)).toHaveLength(3);
    const positions = labels.map((label) => text.indexOf(`^FD${label.reference}^FS`));
    expect(positions.every((position) => position > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it("adds a line break between files that do not end with one", async () => {
    const bytes = await concatenateThermal({ items: ["^XA^FDa^FS^XZ", "^XA^FDb^FS^XZ"], load: async (chunk) => chunk.map((text) => new TextEncoder().encode(text)) });
    expect(new TextDecoder().decode(bytes)).toBe("^XA^FDa^FS^XZ\r\n^XA^FDb^FS^XZ\r\n");
  });
});
