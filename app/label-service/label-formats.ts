/** Kept apart from contract.ts (zod) so a page can list the formats without shipping the whole contract. */
/** Label file formats. Inferred from La Poste Colissimo's printing types (see NOTES); PDF A4 is the documented one. */
export const LABEL_FORMATS = [
  "PDF_A4_300dpi",
  "PDF_10x15_300dpi",
  "ZPL_10x15_203dpi",
  "ZPL_10x15_300dpi",
  "DPL_10x15_203dpi",
  "DPL_10x15_300dpi",
] as const;
export type LabelFormat = (typeof LABEL_FORMATS)[number];
