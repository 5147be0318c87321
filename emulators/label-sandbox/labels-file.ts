/**
 * Real label files for sandbox labels: a PDF (A4 or 10x15 cm) with the tracking number as a Code 128 barcode, the
 * sender and the recipient; or printer text for thermal formats (ZPL, DPL). Rendered on request from stored data.
 */
import bwipjs from "bwip-js/node";
import { PDFDocument, StandardFonts, type PDFFont } from "pdf-lib";

export interface LabelFileData {
  id: string;
  reference: string;
  carrierName: string;
  serviceName: string;
  labelType: string;
  customReference: string;
  weightGrams: number;
  sender: Record<string, unknown>;
  recipient: Record<string, unknown>;
}

const MM = 72 / 25.4;
export const PAGE_SIZES = { A4: [210 * MM, 297 * MM], "10x15": [100 * MM, 150 * MM] } as const;

function lines(party: Record<string, unknown>): string[] {
  const field = (name: string) => (typeof party[name] === "string" ? (party[name] as string).trim() : "");
  return [
    [field("firstname"), field("lastname")].filter(Boolean).join(" "),
    field("company_name"),
    field("address_line1"),
    field("address_line2"),
    [field("zip"), field("city")].filter(Boolean).join(" "),
    field("country"),
    field("phone1"),
  ].filter(Boolean);
}

/** The standard PDF fonts only encode WinAnsi; other characters (e.g. non-Latin names) print as "?". */
function printable(font: PDFFont, value: string): string {
  return [...value]
    .map((character) => {
      try {
        font.encodeText(character);
        return character;
      } catch {
        return "?";
      }
    })
    .join("");
}

export async function renderPdf(label: LabelFileData): Promise<Uint8Array> {
  const a4 = label.labelType.startsWith("PDF_A4");
  const [width, height] = a4 ? PAGE_SIZES.A4 : PAGE_SIZES["10x15"];
  const doc = await PDFDocument.create();
  doc.setTitle(`Label ${label.reference}`);
  doc.setProducer("Etiquette label sandbox");
  const page = doc.addPage([width, height]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const margin = 8 * MM;
  const labelWidth = Math.min(width, PAGE_SIZES["10x15"][0]) - 2 * margin;
  let y = height - margin;
  const write = (value: string, size: number, useFont = font) => {
    y -= size * 1.3;
    page.drawText(printable(useFont, value), { x: margin, y, size, font: useFont, maxWidth: labelWidth });
  };
  write(`${label.carrierName} · ${label.serviceName}`, 14, bold);
  write("SANDBOX — NOT A VALID SHIPPING LABEL", 8);
  y -= 6;
  write("FROM", 7, bold);
  for (const line of lines(label.sender)) write(line, 8);
  y -= 6;
  write("TO", 9, bold);
  for (const line of lines(label.recipient)) write(line, 12, bold);
  y -= 6;
  write(`Weight: ${label.weightGrams} g   Ref: ${label.customReference}`, 8);
  const barcode = await bwipjs.toBuffer({ bcid: "code128", text: label.reference, scale: 2, height: 14, includetext: true, textxalign: "center" });
  const image = await doc.embedPng(barcode);
  const scale = Math.min(1, labelWidth / image.width);
  y -= image.height * scale + 10;
  page.drawImage(image, { x: margin, y, width: image.width * scale, height: image.height * scale });
  return doc.save();
}

/** ZPL II for 10x15 cm at the given density: text fields and a Code 128 barcode (^BC) of the tracking number. */
export function renderZpl(label: LabelFileData): string {
  const dots = label.labelType.endsWith("300dpi") ? 12 : 8; // dots per mm
  const at = (xMm: number, yMm: number) => `^FO${Math.round(xMm * dots)},${Math.round(yMm * dots)}`;
  const clean = (value: string) => value.replace(/[\^~]/g, " ");
  const to = lines(label.recipient).map((line, index) => `${at(5, 40 + index * 6)}^A0N,${4 * dots},${4 * dots}^FD${clean(line)}^FS`);
  const from = lines(label.sender).map((line, index) => `${at(5, 10 + index * 4)}^A0N,${3 * dots},${3 * dots}^FD${clean(line)}^FS`);
  return [
    "^XA",
    "^CI28",
    `${at(5, 3)}^A0N,${5 * dots},${5 * dots}^FD${clean(`${label.carrierName} ${label.serviceName}`)}^FS`,
    ...from,
    ...to,
    `${at(5, 100)}^BY3^BCN,${25 * dots},Y,N,N^FD${clean(label.reference)}^FS`,
    `${at(5, 140)}^A0N,${3 * dots},${3 * dots}^FDSANDBOX ${clean(label.customReference)} ${label.weightGrams} g^FS`,
    "^XZ",
    "",
  ].join("\n");
}

/** Datamax DPL, minimal: text records and a Code 128 barcode record of the tracking number. */
export function renderDpl(label: LabelFileData): string {
  const records = [
    `1911A1200100010${label.carrierName} ${label.serviceName}`,
    ...lines(label.recipient).map((line, index) => `1911A14${String(300 - index * 25).padStart(4, "0")}0010${line}`),
    `1E1105000500010${label.reference}`,
  ];
  return ["\x02L", "D11", ...records, "E", ""].join("\r\n");
}

export function labelFileKind(labelType: string): { extension: "pdf" | "zpl" | "dpl"; contentType: string } {
  if (labelType.startsWith("ZPL")) return { extension: "zpl", contentType: "text/plain; charset=utf-8" };
  if (labelType.startsWith("DPL")) return { extension: "dpl", contentType: "text/plain; charset=utf-8" };
  return { extension: "pdf", contentType: "application/pdf" };
}
