/**
 * Notes stored with attempts (errorJson) and labels (fulfillmentError). The app's own notes are data: JSON
 * `{ code, params, message, messageFr }`, translated at display from NOTE_TEXTS by code (the English and French
 * sentences are kept beside them for older readers and logs). A text that is not ours (the label service's words,
 * Shopify's error) stays a parameter (`detail`). A note without a code (`{ message, messageFr? }`, older rows, the
 * service's own error) or a plain string is shown as it is. Browser-safe: no server imports.
 */
export interface BilingualText {
  en: string;
  fr: string;
}

export type NoteParams = Record<string, string>;

/** A note of ours: its code and parameters, with the sentences they produce. */
export interface Note {
  code: NoteCode;
  params: NoteParams;
  message: string;
  messageFr: string;
}

type Say = (p: NoteParams) => string;

const NOTE_TEXTS = {
  // A purchase whose outcome is being settled (app/labels/settle.server.ts).
  attempt_stale: {
    en: () => "the app stopped before the label service's answer was recorded",
    fr: () => "l'application s'est arrêtée avant d'enregistrer la réponse du service d'étiquettes",
  },
  lookup_page_cap: {
    en: (p) => `the service's label list was read for ${p.pages ?? "many"} pages without reaching back to this purchase's time, so it cannot show that no label was bought`,
    fr: (p) => `la liste des étiquettes du service a été lue sur ${p.pages ?? "de nombreuses"} pages sans remonter jusqu'à l'heure de cet achat : elle ne peut pas montrer qu'aucune étiquette n'a été achetée`,
  },
  lookup_unreferenced: {
    en: () => "the service lists labels without a reference since this purchase, so its list cannot show that no label was bought",
    fr: () => "le service liste des étiquettes sans référence depuis cet achat : sa liste ne peut pas montrer qu'aucune étiquette n'a été achetée",
  },
  lookup_absent: {
    en: () => "the service's label list, read back to this purchase's time, holds no label with this reference",
    fr: () => "la liste des étiquettes du service, lue jusqu'à l'heure de cet achat, ne contient aucune étiquette avec cette référence",
  },
  lookup_not_yet: {
    en: (p) => `no label with this reference yet, but the service did not answer this purchase and may still process it until ${p.until}: the order can be released only after that`,
    fr: (p) => `aucune étiquette avec cette référence pour l'instant, mais le service n'a pas répondu à cet achat et peut encore le traiter jusqu'à ${p.until} : la commande ne pourra être libérée qu'après`,
  },
  lookup_failed: {
    en: (p) => p.detail ?? "",
    fr: (p) => p.detailFr ?? `recherche impossible : ${p.detail ?? ""}`,
  },
  lookup_label_incomplete: {
    en: () => "the service lists this reference but without a label id or tracking number",
    fr: () => "le service liste cette référence, mais sans identifiant d'étiquette ni numéro de suivi",
  },
  label_stored_for_order: {
    en: (p) => `the label ${p.label} is already stored for order ${p.order}`,
    fr: (p) => `l'étiquette ${p.label} est déjà enregistrée pour la commande ${p.order}`,
  },
  label_other_shop: {
    en: (p) => `the label ${p.label} already belongs to another shop`,
    fr: (p) => `l'étiquette ${p.label} appartient déjà à une autre boutique`,
  },
  reference_shared: {
    en: () => "another shop using the same label-service account used this reference, so the label found may be theirs",
    fr: () => "une autre boutique utilisant le même compte du service d'étiquettes a utilisé cette référence : l'étiquette trouvée est peut-être la sienne",
  },
  // "Attach this label" refused (app/labels/settle.server.ts).
  attach_not_waiting: {
    en: () => "this purchase is not waiting for review any more; reload the page",
    fr: () => "cet achat n'est plus en attente de vérification ; rechargez la page",
  },
  attach_unsupported: {
    en: () => "this label service cannot look labels up by id",
    fr: () => "ce service d'étiquettes ne permet pas de chercher une étiquette par identifiant",
  },
  attach_list_incomplete: {
    en: (p) => `the label service's list could not be read back to this purchase's time (${p.pages ?? "many"} pages read); try again later, or contact support to raise the lookup depth`,
    fr: (p) => `la liste du service d'étiquettes n'a pas pu être lue jusqu'à l'heure de cet achat (${p.pages ?? "de nombreuses"} pages lues) ; réessayez plus tard, ou demandez au support d'augmenter la profondeur de recherche`,
  },
  attach_absent: {
    en: (p) => `the label service does not list a label with id ${p.label} created since this purchase (its list was read back to the purchase's time); check the id`,
    fr: (p) => `le service d'étiquettes ne liste aucune étiquette d'identifiant ${p.label} créée depuis cet achat (sa liste a été lue jusqu'à l'heure de l'achat) ; vérifiez l'identifiant`,
  },
  attach_other_reference: {
    en: (p) => `the label ${p.label} carries the reference ${p.found}, not ${p.reference}: it belongs to another purchase`,
    fr: (p) => `l'étiquette ${p.label} porte la référence ${p.found}, pas ${p.reference} : elle appartient à un autre achat`,
  },
  attach_no_tracking: {
    en: (p) => `the service lists the label ${p.label} without a tracking number`,
    fr: (p) => `le service liste l'étiquette ${p.label} sans numéro de suivi`,
  },
  // A label's Shopify step (app/labels/fulfill.server.ts).
  fulfillment_order_gone: {
    en: (p) => `Shopify no longer has order ${p.order}`,
    fr: (p) => `Shopify n'a plus la commande ${p.order}`,
  },
  fulfillment_nothing_open: {
    en: (p) => `Order ${p.order} has no open fulfillment order to fulfil (already fulfilled, on hold or cancelled in Shopify)`,
    fr: (p) => `La commande ${p.order} n'a plus de demande de traitement ouverte (déjà traitée, en attente ou annulée dans Shopify)`,
  },
  fulfillment_shopify_busy: {
    en: (p) => `Shopify is busy; the label is saved. Use Retry in a moment to send it to Shopify (order ${p.order})`,
    fr: (p) => `Shopify est occupé ; l'étiquette est enregistrée. Utilisez « Réessayer » dans un instant pour l'envoyer à Shopify (commande ${p.order})`,
  },
  void_shopify_busy: {
    en: (p) => `Shopify was busy while voiding the label of order ${p.order}; void it again in a moment, nothing is cancelled twice`,
    fr: (p) => `Shopify était occupé pendant l'annulation de l'étiquette de la commande ${p.order} ; annulez-la à nouveau dans un instant, rien n'est annulé deux fois`,
  },
  /** Shopify's (or the runtime's) own words: kept as they are, in both languages. */
  fulfillment_error: {
    en: (p) => p.detail ?? "",
    fr: (p) => p.detail ?? "",
  },
} satisfies Record<string, { en: Say; fr: Say }>;

export type NoteCode = keyof typeof NOTE_TEXTS;
export const NOTE_CODES = Object.keys(NOTE_TEXTS) as NoteCode[];

export function isNoteCode(code: string): code is NoteCode {
  return Object.hasOwn(NOTE_TEXTS, code);
}

/** A note of ours, with its sentences. */
export function note(code: NoteCode, params: NoteParams = {}): Note {
  const text = NOTE_TEXTS[code];
  return { code, params, message: text.en(params), messageFr: text.fr(params) };
}

/** The text of a note code in one language; null for a code this version does not know. */
export function noteText(code: string, params: NoteParams, locale: "en" | "fr"): string | null {
  return isNoteCode(code) ? NOTE_TEXTS[code][locale](params) : null;
}

/** Several notes as one (e.g. "the app stopped…; the list cannot show…"), kept as the list of their codes. */
export function joinedNote(notes: readonly Note[]): { notes: { code: NoteCode; params: NoteParams }[]; message: string; messageFr: string } {
  return {
    notes: notes.map(({ code, params }) => ({ code, params })),
    message: notes.map((item) => item.message).join("; "),
    messageFr: notes.map((item) => item.messageFr).join(" ; "),
  };
}

/** A text that is not ours, stored as it is (the label service's or Shopify's words). */
export function storedNote(message: string, messageFr: string): string {
  return JSON.stringify({ message, messageFr });
}

/** A note of ours as stored. */
export function storedNoteOf(value: Note): string {
  return JSON.stringify(value);
}

function translated(parsed: { code?: unknown; params?: unknown; notes?: unknown }): BilingualText | null {
  const one = (code: unknown, params: unknown) => {
    if (typeof code !== "string" || !isNoteCode(code)) return null;
    const values = typeof params === "object" && params !== null ? (params as NoteParams) : {};
    return { en: NOTE_TEXTS[code].en(values), fr: NOTE_TEXTS[code].fr(values) };
  };
  if (Array.isArray(parsed.notes)) {
    const parts = parsed.notes.map((item: { code?: unknown; params?: unknown }) => one(item?.code, item?.params));
    if (parts.length > 0 && parts.every((part) => part !== null)) {
      return { en: parts.map((part) => part!.en).join("; "), fr: parts.map((part) => part!.fr).join(" ; ") };
    }
    return null;
  }
  return one(parsed.code, parsed.params);
}

export function readNote(stored: string | null | undefined): BilingualText | null {
  if (!stored) return null;
  try {
    const parsed = JSON.parse(stored) as { message?: unknown; messageFr?: unknown; code?: unknown; params?: unknown; notes?: unknown };
    if (typeof parsed !== "object" || parsed === null) return null;
    const ours = translated(parsed);
    if (ours) return ours;
    if (typeof parsed.message === "string") {
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
