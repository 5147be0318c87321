/**
 * UI strings of the order page's edits, bad request bodies and readable codes, in English and French. Kept apart
 * from messages.ts (spread into it) so that parallel work on the two files merges cleanly.
 */
export const orderPageEn = {
  "order.field.shippingPaid": "Shipping paid",
  "order.cn23.description": "Description",
  "order.customs.notRequired": "Not required for this destination",
  "order.customs.notRequiredHelp": "This parcel stays inside the EU customs territory, so no customs declaration is needed. The lines below are sent for information only.",
  "order.customs.show": "Show the lines",
  "order.customs.hide": "Hide the lines",
  "order.label.format": "File format: {format}",
  "order.rejected.detail": "The label service's message: {detail}",
  "order.rejected.summary": "The label service refused this label; nothing was charged. Correct what it names, then create the label again.",
  "format.PDF_A4_300dpi": "PDF, A4 sheet (office printer)",
  "format.PDF_10x15_300dpi": "PDF, 10×15 cm label",
  "format.ZPL_10x15_203dpi": "ZPL thermal label 10×15 cm (203 dpi)",
  "format.ZPL_10x15_300dpi": "ZPL thermal label 10×15 cm (300 dpi)",
  "format.DPL_10x15_203dpi": "DPL thermal label 10×15 cm (203 dpi)",
  "format.DPL_10x15_300dpi": "DPL thermal label 10×15 cm (300 dpi)",
} as const;

export const orderPageFr: Record<keyof typeof orderPageEn, string> = {
  "order.field.shippingPaid": "Frais de port payés",
  "order.cn23.description": "Description",
  "order.customs.notRequired": "Non requise pour cette destination",
  "order.customs.notRequiredHelp": "Ce colis reste dans le territoire douanier de l'UE : aucune déclaration en douane n'est nécessaire. Les lignes ci-dessous ne sont envoyées qu'à titre d'information.",
  "order.customs.show": "Afficher les lignes",
  "order.customs.hide": "Masquer les lignes",
  "order.label.format": "Format du fichier : {format}",
  "order.rejected.detail": "Message du service d'étiquettes : {detail}",
  "order.rejected.summary": "Le service d'étiquettes a refusé cette étiquette ; rien n'a été facturé. Corrigez ce qu'il indique, puis recréez l'étiquette.",
  "format.PDF_A4_300dpi": "PDF, feuille A4 (imprimante de bureau)",
  "format.PDF_10x15_300dpi": "PDF, étiquette 10×15 cm",
  "format.ZPL_10x15_203dpi": "Étiquette thermique ZPL 10×15 cm (203 dpi)",
  "format.ZPL_10x15_300dpi": "Étiquette thermique ZPL 10×15 cm (300 dpi)",
  "format.DPL_10x15_203dpi": "Étiquette thermique DPL 10×15 cm (203 dpi)",
  "format.DPL_10x15_300dpi": "Étiquette thermique DPL 10×15 cm (300 dpi)",
};
