/**
 * One file for many labels. PDF: pages copied with pdf-lib into one document, in the order given. The sources are
 * loaded a chunk at a time (fetched together, parsed, copied, then dropped), so only one chunk of source documents is
 * in memory beside the growing output. Thermal (ZPL/DPL): the files one after the other, each on its own line.
 */
import { PDFDocument } from "pdf-lib";

export const DEFAULT_CHUNK_SIZE = 25;

export interface MergeSource<T> {
  items: readonly T[];
  /** Loads the bytes of a chunk's items, in the same order. */
  load(chunk: readonly T[]): Promise<Uint8Array[]>;
  chunkSize?: number;
  /** Called after each chunk (e.g. progress, or a cancellation check that throws). */
  onChunk?(done: number): void;
}

/** Thrown when one source is not a readable PDF; `item` says which. */
export class UnreadableLabelFileError<T> extends Error {
  constructor(
    readonly item: T,
    cause: unknown,
  ) {
    super(`label file is not a readable PDF: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

export async function mergePdf<T>(source: MergeSource<T>): Promise<{ bytes: Uint8Array; pageCount: number }> {
  const output = await PDFDocument.create();
  output.setProducer("Etiquette");
  output.setCreator("Etiquette");
  const chunkSize = Math.max(1, source.chunkSize ?? DEFAULT_CHUNK_SIZE);
  for (let start = 0; start < source.items.length; start += chunkSize) {
    const chunk = source.items.slice(start, start + chunkSize);
    const files = await source.load(chunk);
    for (let index = 0; index < chunk.length; index += 1) {
      const item = chunk[index] as T;
      const file = files[index];
      let document: PDFDocument;
      try {
        if (!file) throw new Error("no file");
        document = await PDFDocument.load(file, { updateMetadata: false });
      } catch (error) {
        throw new UnreadableLabelFileError(item, error);
      }
      const pages = await output.copyPages(document, document.getPageIndices());
      for (const page of pages) output.addPage(page);
    }
    source.onChunk?.(start + chunk.length);
  }
  const bytes = await output.save({ useObjectStreams: true });
  return { bytes, pageCount: output.getPageCount() };
}

export async function concatenateThermal<T>(source: MergeSource<T>): Promise<Uint8Array> {
  const parts: Buffer[] = [];
  const chunkSize = Math.max(1, source.chunkSize ?? DEFAULT_CHUNK_SIZE);
  for (let start = 0; start < source.items.length; start += chunkSize) {
    const chunk = source.items.slice(start, start + chunkSize);
    for (const file of await source.load(chunk)) {
      parts.push(Buffer.from(file));
      const last = file[file.length - 1];
      if (last !== 0x0a) parts.push(Buffer.from("\r\n"));
    }
    source.onChunk?.(start + chunk.length);
  }
  return new Uint8Array(Buffer.concat(parts));
}
