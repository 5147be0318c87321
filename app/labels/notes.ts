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

/** The note's code and parameters when it was stored as data (`{ code, params }`); null for a plain text note. */
export function readNoteReason(stored: string | null | undefined): { code: string; params?: Record<string, string> } | null {
  if (!stored) return null;
  try {
    const parsed = JSON.parse(stored) as { code?: unknown; params?: unknown };
    if (typeof parsed === "object" && parsed !== null && typeof parsed.code === "string") {
      const params = typeof parsed.params === "object" && parsed.params !== null ? (parsed.params as Record<string, string>) : undefined;
      return { code: parsed.code, ...(params ? { params } : {}) };
    }
    return null;
  } catch {
    return null;
  }
}
