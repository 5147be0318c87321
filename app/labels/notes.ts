/**
 * Notes stored with attempts (errorJson) and labels (fulfillmentError): JSON `{ message, messageFr? }`, read back as
 * English and French. A plain string (older rows, or text from Shopify) is shown as it is in both languages.
 */
export interface BilingualText {
  en: string;
  fr: string;
}

export function storedNote(message: string, messageFr: string): string {
  return JSON.stringify({ message, messageFr });
}

export function readNote(stored: string | null | undefined): BilingualText | null {
  if (!stored) return null;
  try {
    const parsed = JSON.parse(stored) as { message?: unknown; messageFr?: unknown };
    if (typeof parsed === "object" && parsed !== null && typeof parsed.message === "string") {
      return { en: parsed.message, fr: typeof parsed.messageFr === "string" ? parsed.messageFr : parsed.message };
    }
    return null;
  } catch {
    return { en: stored, fr: stored };
  }
}
