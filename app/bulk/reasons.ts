/**
 * A bulk item's reason as data, and its text in the merchant's language. The label flow's own reasons
 * (app/labels/reasons.ts) are shown by `reasonText`; the bulk job adds the mapper's problems (kept with their own
 * bilingual message and fix, which name the order's field) and a few of its own. Browser-safe.
 */
import type { Problem } from "../shipping/problems";
import { reasonText, type Reason, type ReasonLocale } from "../labels/reasons";

export type { Reason, ReasonLocale };

/** The reason code of a mapper problem; the problem's own code is kept in `params.problem`. */
export const ORDER_PROBLEM = "order_problem";

/** A mapper problem as a reason: the problem's code, where it is, and its message and fix in both languages. */
export function problemReason(problem: Problem): Reason {
  return {
    code: ORDER_PROBLEM,
    params: {
      problem: problem.code,
      path: problem.path,
      orderName: problem.orderName,
      messageEn: problem.message.en,
      messageFr: problem.message.fr,
      fixEn: problem.fix.en,
      fixFr: problem.fix.fr,
      ...Object.fromEntries(Object.entries(problem.params ?? {}).map(([key, value]) => [`p_${key}`, String(value)])),
    },
  };
}

/** The order's first blocking problem as the item's reason; `more` counts the others. */
export function blockedReason(problems: readonly Problem[]): Reason {
  const blocking = problems.filter((problem) => problem.severity === "blocking");
  const first = blocking[0] ?? problems[0];
  if (!first) return { code: "order_blocked" };
  const reason = problemReason(first);
  if (blocking.length > 1) reason.params = { ...reason.params, more: String(blocking.length - 1) };
  return reason;
}

/**
 * A reason about one location of an order shipping from several (decision 0115): the same reason, naming the
 * location as the merchant named it in Shopify ("Entrepôt Lyon"), so the merchant knows which parcel to fix.
 */
export function locationReason(reason: Reason, locationName: string): Reason {
  return { ...reason, params: { ...reason.params, location: locationName } };
}

/**
 * What groups blocked orders by cause: the problem's code and where it is, with list indices dropped
 * ("cn23_data.products[*].hs_code"), plus the destination when the cause depends on it.
 */
export function causeKey(reason: Reason): string {
  const at = reason.params?.location ? `@${reason.params.location}` : "";
  if (reason.code !== ORDER_PROBLEM) return `${reason.code}${at}`;
  const path = (reason.params?.path ?? "").replace(/\[[0-9]+\]/g, "[*]");
  return `${reason.params?.problem ?? "?"}|${path}${at}`;
}

const SENDER_FIELDS: Record<string, { en: string; fr: string }> = {
  firstName: { en: "first name", fr: "prénom" },
  lastName: { en: "name", fr: "nom" },
  company: { en: "company", fr: "société" },
  address1: { en: "street address", fr: "adresse" },
  address2: { en: "address line 2", fr: "complément d'adresse" },
  city: { en: "city", fr: "ville" },
  zip: { en: "postcode", fr: "code postal" },
  countryCode: { en: "country", fr: "pays" },
  phone: { en: "phone", fr: "téléphone" },
  email: { en: "e-mail", fr: "e-mail" },
};

/** Sender field keys ("address1,zip") in the merchant's words. */
function senderFields(keys: string | undefined, locale: ReasonLocale): string {
  const names = (keys ?? "").split(",").filter(Boolean).map((key) => SENDER_FIELDS[key]?.[locale] ?? key);
  return names.length > 0 ? names.join(", ") : locale === "fr" ? "adresse" : "address";
}

type Text = { en: (params: Record<string, string>) => string; fr: (params: Record<string, string>) => string };

const BULK_TEXTS: Record<string, Text> = {
  order_problem: {
    en: (p) => `${p.messageEn ?? ""} ${p.fixEn ?? ""}${p.more ? ` (and ${p.more} more problem(s): open the order to see them)` : ""}`.trim(),
    fr: (p) => `${p.messageFr ?? ""} ${p.fixFr ?? ""}${p.more ? ` (et ${p.more} autre(s) problème(s) : ouvrez la commande pour les voir)` : ""}`.trim(),
  },
  order_blocked: {
    en: () => "This order cannot be labelled as it is. Open it to see why, fix it in Shopify, then retry.",
    fr: () => "Cette commande ne peut pas être étiquetée telle quelle. Ouvrez-la pour voir pourquoi, corrigez-la dans Shopify, puis relancez.",
  },
  order_not_found: {
    en: (p) => `Shopify does not know order ${p.orderId ?? ""} in this shop (deleted, or from another shop). Nothing was bought.`,
    fr: (p) => `Shopify ne connaît pas la commande ${p.orderId ?? ""} dans cette boutique (supprimée, ou d'une autre boutique). Rien n'a été acheté.`,
  },
  service_retries_exhausted: {
    en: (p) => `The label service kept asking the app to slow down (${p.tries ?? "several"} tries). Nothing was charged; use Retry failed in a few minutes.`,
    fr: (p) => `Le service d'étiquettes a demandé plusieurs fois de ralentir (${p.tries ?? "plusieurs"} essais). Rien n'a été facturé ; utilisez « Relancer les échecs » dans quelques minutes.`,
  },
  unexpected_error: {
    en: (p) => `The app could not finish this order (${p.message ?? "unexpected error"}). Nothing was bought twice; use Retry failed, and contact support if it happens again.`,
    fr: (p) => `L'application n'a pas pu terminer cette commande (${p.message ?? "erreur inattendue"}). Rien n'a été acheté deux fois ; utilisez « Relancer les échecs », et contactez le support si cela se reproduit.`,
  },
  purchase_needs_review: {
    en: (p) => `The app could not confirm whether the label was bought (reference ${p.reference ?? "?"}). Open the order and check the purchase; never buy it again by hand.`,
    fr: (p) => `L'application n'a pas pu confirmer l'achat de l'étiquette (référence ${p.reference ?? "?"}). Ouvrez la commande et vérifiez l'achat ; ne la rachetez pas à la main.`,
  },
  purchase_released: {
    en: () => "The label service showed this label was never bought; nothing was charged. Use Retry failed to buy it.",
    fr: () => "Le service d'étiquettes a montré que cette étiquette n'a jamais été achetée ; rien n'a été facturé. Utilisez « Relancer les échecs » pour l'acheter.",
  },
  item_swept: {
    en: () => "The app stopped while working on this order; it is queued again. Nothing was bought twice.",
    fr: () => "L'application s'est arrêtée pendant le traitement de cette commande ; elle est remise en file. Rien n'a été acheté deux fois.",
  },
  item_stalled: {
    en: (p) => `The app stopped ${p.sweeps ?? "several"} times while working on this order, so it was set aside. No label was bought for it; use Retry failed, and contact support if it happens again.`,
    fr: (p) => `L'application s'est arrêtée ${p.sweeps ?? "plusieurs"} fois pendant le traitement de cette commande, qui a donc été mise de côté. Aucune étiquette n'a été achetée pour elle ; utilisez « Relancer les échecs », et contactez le support si cela se reproduit.`,
  },
  // An order shipping from several locations (decision 0115): the sender one of its parcels would carry is incomplete.
  location_sender_incomplete: {
    en: (p) =>
      `The sender of parcels shipped from ${p.location ?? "one of its locations"} is incomplete (missing or invalid: ${senderFields(p.fields, "en")}). Complete it in Settings > Sender by location, or choose "Use the shop's sender" there, then retry.`,
    fr: (p) =>
      `L'expéditeur des colis expédiés depuis ${p.location ?? "l'un de ses emplacements"} est incomplet (manquant ou non valide : ${senderFields(p.fields, "fr")}). Complétez-le dans Paramètres > Expéditeur par emplacement, ou choisissez « Utiliser l'expéditeur de la boutique », puis relancez.`,
  },
  retry_waiting: {
    en: (p) => `Waiting to try again in about ${p.seconds ?? "a few"} seconds (${p.cause ?? "busy"}); nothing was charged.`,
    fr: (p) => `Nouvel essai dans ${p.seconds ?? "quelques"} secondes environ (${p.cause ?? "occupé"}) ; rien n'a été facturé.`,
  },
};

/** The reason in the merchant's language (the label flow's codes included). */
export function bulkReasonText(reason: Reason, locale: ReasonLocale): string {
  const text = BULK_TEXTS[reason.code];
  const said = text ? text[locale](reason.params ?? {}) : reasonText(reason, locale);
  const location = reason.params?.location;
  // A reason about one location of an order shipping from several says which one first.
  if (!location || reason.code === "location_sender_incomplete") return said;
  return locale === "fr" ? `Colis expédié depuis ${location} : ${said}` : `Parcel shipped from ${location}: ${said}`;
}

/** One line per cause for a preflight's groups: "2 orders: Product … has no HS code …". */
export function groupText(group: { reason: Reason; orderCount: number }, locale: ReasonLocale): string {
  const count = locale === "fr" ? `${group.orderCount} commande${group.orderCount > 1 ? "s" : ""}` : `${group.orderCount} order${group.orderCount > 1 ? "s" : ""}`;
  return `${count}${locale === "fr" ? " :" : ":"} ${bulkReasonText({ ...group.reason, params: { ...group.reason.params, more: "" } }, locale)}`;
}
