/**
 * Print bench: 500 sandbox 10×15 labels merged into one PDF with app/print/merge.ts (chunks of 25), time and peak
 * RSS (sampled every 10 ms), against the targets < 5 s and < 200 MB. 25 distinct real label files are rendered
 * first and used in turn; every one of the 500 is parsed and copied, as in production.
 */
import { renderPdf, type LabelFileData } from "../emulators/label-sandbox/labels-file";
import { mergePdf } from "../app/print/merge";

export async function benchPrint(count = 500): Promise<void> {
  const distinct = await Promise.all(
    Array.from({ length: 25 }, (_, n): LabelFileData => ({
      id: `b${n}`, reference: `JD${String(n).padStart(8, "0")}`, carrierName: "Colissimo", serviceName: "Domicile", labelType: "PDF_10x15_300dpi",
      customReference: `20261123-${n}`, weightGrams: 750, sender: { firstname: "Ana", lastname: "Boutique", city: "Lyon", zip: "69001", country: "FR" },
      recipient: { firstname: "Client", lastname: `N${n}`, address_line1: "1 rue de la Paix", city: "Paris", zip: "75002", country: "FR" },
    })).map(renderPdf),
  );
  const items = Array.from({ length: count }, (_, index) => index);
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const start = performance.now();
  const { bytes, pageCount } = await mergePdf({ items, load: async (chunk) => chunk.map((index) => distinct[index % distinct.length]!) });
  const ms = performance.now() - start;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const mb = peak / 1024 / 1024;
  console.log(`RSS before the merge (node, tsx, the bench's imports): ${(baseline / 1024 / 1024).toFixed(1)} MB; the merge added ${((peak - baseline) / 1024 / 1024).toFixed(1)} MB`);
  console.log(`print merge: ${pageCount} labels -> one PDF of ${(bytes.byteLength / 1024 / 1024).toFixed(1)} MB`);
  console.log("bench                      time ms   target ms   ratio   peak RSS MB   target MB   ratio");
  console.log(
    `${"merge 500 labels (PDF)".padEnd(24)} ${ms.toFixed(0).padStart(9)} ${"5000".padStart(11)} ${(ms / 5000).toFixed(2).padStart(7)} ${mb.toFixed(1).padStart(13)} ${"200".padStart(11)} ${(mb / 200).toFixed(2).padStart(7)}`,
  );
}
