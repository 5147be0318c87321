/**
 * English customs descriptions: the merchant's own wording of a product for the CN23 line ("Green tea, loose leaf"
 * for "Thé vert en vrac"). Stored per product by app/labels/customs-descriptions.server.ts, used by the mapper for
 * every later order of that product. Pure and browser-safe: the check and the suggestion from a product title.
 */
import { z } from "zod";

/** The label service keeps 100 characters of a CN23 line's description. */
export const CUSTOMS_DESCRIPTION_MAX = 100;

/** Why a typed description is refused; each has an English and French sentence in the customs messages. */
export type CustomsDescriptionError = "empty" | "too_long" | "not_plain_english";

/**
 * Plain English as customs forms take it: letters without accents, digits, spaces and common punctuation. A French
 * accent or a curly quote is the usual sign the text was not translated yet, so it is refused with that hint.
 */
const PLAIN_ENGLISH = /^[A-Za-z0-9 .,;:'"()&%/+-]+$/;

export const customsDescriptionSchema = z
  .string()
  .transform((text) => text.trim().replace(/\s+/g, " "))
  .pipe(
    z
      .string()
      .min(1, { error: "empty" })
      .max(CUSTOMS_DESCRIPTION_MAX, { error: "too_long" })
      .regex(PLAIN_ENGLISH, { error: "not_plain_english" }),
  );

export function checkCustomsDescription(text: string): { ok: true; value: string } | { ok: false; error: CustomsDescriptionError } {
  const parsed = customsDescriptionSchema.safeParse(text);
  if (parsed.success) return { ok: true, value: parsed.data };
  const first = parsed.error.issues[0]?.message;
  return { ok: false, error: first === "too_long" || first === "not_plain_english" ? first : "empty" };
}

const LIGATURES: Record<string, string> = { œ: "oe", Œ: "OE", æ: "ae", Æ: "AE", ß: "ss", "’": "'", "‘": "'", "«": '"', "»": '"', "–": "-", "—": "-" };

/**
 * The text a new description starts from: the product title with its accents removed and anything customs forms do
 * not take dropped, cut at the length the service keeps. Still the title's language: the merchant translates it.
 */
export function suggestCustomsDescription(title: string): string {
  const plain = title
    // French quotes hold their words with (non-breaking) spaces: « maison » is "maison".
    .replace(/«\s*/g, '"')
    .replace(/\s*»/g, '"')
    .replace(/[œŒæÆß’‘«»–—]/g, (char) => LIGATURES[char] ?? "")
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .replace(/[^A-Za-z0-9 .,;:'"()&%/+-]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return plain.slice(0, CUSTOMS_DESCRIPTION_MAX).trim();
}
