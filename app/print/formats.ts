/**
 * Print file kinds. Labels are grouped by their exact label format: an A4 sheet and a 10×15 label never share a PDF,
 * and a 203 dpi ZPL label never shares a file with a 300 dpi one (each prints right on one printer only).
 */
export type PrintKind = "pdf" | "zpl" | "dpl";

export function printKindOf(labelFormat: string): PrintKind {
  if (labelFormat.startsWith("ZPL")) return "zpl";
  if (labelFormat.startsWith("DPL")) return "dpl";
  return "pdf";
}

export const CONTENT_TYPES: Record<PrintKind, string> = {
  pdf: "application/pdf",
  // Sent as a download (Content-Disposition: attachment), never shown as text in a tab.
  zpl: "application/octet-stream",
  dpl: "application/octet-stream",
};

/** Groups items by label format, keeping each group in the order given and the groups in first-seen order. */
export function groupByFormat<T extends { labelFormat: string }>(items: readonly T[]): Array<{ format: string; items: T[] }> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(item.labelFormat);
    if (group) group.push(item);
    else groups.set(item.labelFormat, [item]);
  }
  return [...groups].map(([format, grouped]) => ({ format, items: grouped }));
}

/** A quick check that the bytes are a label file of that kind (a service error page served with 200 is not). */
export function looksLikeLabelFile(kind: PrintKind, bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString("latin1");
  if (kind === "pdf") return head.startsWith("%PDF-");
  if (kind === "zpl") return head.includes("^XA");
  return bytes.length > 0 && !head.trimStart().startsWith("<");
}

/** File name of a print file: etiquette-labels-<count>-<format>.<ext>. */
export function printFileName(format: string, labelCount: number, createdAt: Date): string {
  const stamp = createdAt.toISOString().slice(0, 16).replace(/[-:T]/g, "");
  return `etiquette-${labelCount}-labels-${format}-${stamp}.${printKindOf(format)}`;
}
