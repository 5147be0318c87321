/**
 * Reasons kept as data (a code plus parameters: a bulk job item's failure, a note on an attempt) and their text in
 * the merchant's language, produced where they are shown. Three kinds of codes are translated here: the labelling
 * unit's outcomes (below), the mapper's problems (app/shipping/problem-texts.ts: a blocked order's reason carries the
 * problem's `path` and `order` in its params, see problemReason) and the notes stored on attempts and labels
 * (./notes.ts). Browser-safe: no server imports.
 */
import { problemSentence, type StoredProblem } from "../shipping/problem-texts";
import { noteText } from "./notes";

export interface Reason {
  code: string;
  params?: Record<string, string>;
}

export type ReasonLocale = "en" | "fr";

type Text = { en: (params: Record<string, string>) => string; fr: (params: Record<string, string>) => string };

/** The labelling unit's own reason codes (labelOrder's outcomes). */
export const REASON_TEXTS: Record<string, Text> = {
  service_unavailable: {
    en: (p) => `No ${p.environment ?? ""} label-service account is set up, so nothing was bought. Save the account in Settings, then retry.`,
    fr: (p) => `Aucun compte du service d'étiquettes (${p.environment ?? ""}) n'est configuré : rien n'a été acheté. Enregistrez le compte dans les Paramètres, puis relancez.`,
  },
  purchase_in_progress: {
    en: (p) => `A purchase for this order is already under way (reference ${p.reference ?? "?"}). Wait for it to finish.`,
    fr: (p) => `Un achat est déjà en cours pour cette commande (référence ${p.reference ?? "?"}). Attendez qu'il se termine.`,
  },
  purchase_unknown: {
    en: (p) => `The label service did not answer (reference ${p.reference ?? "?"}). The app is checking whether the label was bought; never buy it again by hand.`,
    fr: (p) => `Le service d'étiquettes n'a pas répondu (référence ${p.reference ?? "?"}). L'application vérifie si l'étiquette a été achetée ; ne la rachetez pas à la main.`,
  },
  service_refused: {
    en: (p) => `The label service refused the label: ${p.message ?? ""}. Nothing was charged; fix the order, then retry.`,
    fr: (p) => `Le service d'étiquettes a refusé l'étiquette : ${p.messageFr ?? p.message ?? ""}. Rien n'a été facturé ; corrigez la commande, puis relancez.`,
  },
  shopify_busy: {
    en: (p) => `Shopify asked the app to slow down. Nothing was lost; retry in about ${p.seconds ?? "a few"} seconds.`,
    fr: (p) => `Shopify a demandé à l'application de ralentir. Rien n'est perdu ; relancez dans ${p.seconds ?? "quelques"} secondes environ.`,
  },
  service_rate_limited: {
    en: () => `The label service asked the app to slow down; nothing was charged. Retry in a moment.`,
    fr: () => `Le service d'étiquettes a demandé à l'application de ralentir ; rien n'a été facturé. Relancez dans un instant.`,
  },
  shopify_busy_fulfillment: {
    en: (p) => `The label is bought and saved. Shopify asked the app to slow down, so the fulfillment is sent in the background; retry the Shopify step from the order page if it is still pending in ${p.seconds ?? "a few"} seconds.`,
    fr: (p) => `L'étiquette est achetée et enregistrée. Shopify a demandé à l'application de ralentir : l'expédition est envoyée en arrière-plan ; relancez l'étape Shopify depuis la page de la commande si elle est toujours en attente dans ${p.seconds ?? "quelques"} secondes.`,
  },
  fulfillment_interrupted: {
    en: () => `The label is bought and saved, but sending it to Shopify was interrupted. The app sends it again in the background; nothing will be bought twice.`,
    fr: () => `L'étiquette est achetée et enregistrée, mais son envoi à Shopify a été interrompu. L'application le renvoie en arrière-plan ; rien ne sera acheté deux fois.`,
  },
  fulfillment_failed: {
    en: (p) => `The label was bought, but Shopify refused the fulfillment: ${p.message ?? ""}. Retry the Shopify step from the order page.`,
    fr: (p) => `L'étiquette est achetée, mais Shopify a refusé l'expédition : ${p.messageFr ?? p.message ?? ""}. Relancez l'étape Shopify depuis la page de la commande.`,
  },
  test_label_not_fulfilled: {
    en: () => `Test label: the order was not marked as fulfilled in Shopify and the customer was not notified. To fulfil with test labels, turn it on in Settings (development stores only).`,
    fr: () => `Étiquette de test : la commande n'a pas été marquée comme expédiée dans Shopify et le client n'a pas été prévenu. Pour expédier avec des étiquettes de test, activez-le dans les Paramètres (boutiques de développement uniquement).`,
  },
};

/** A blocked order's problem as a reason: its code, its params, and where (`path`) and which order (`order`). */
export function problemReason(problem: StoredProblem): Reason {
  return { code: problem.code, params: { ...problem.params, path: problem.path, order: problem.orderName } };
}

/** The problem a reason made by problemReason stands for. */
export function reasonProblem(reason: Reason): StoredProblem {
  const { path = "", order = "", ...params } = reason.params ?? {};
  return { code: reason.code, path, orderName: order, params: { ...params, order } };
}

/** The reason in the merchant's language; an unknown code (a newer version wrote it) gets a neutral sentence. */
export function reasonText(reason: Reason, locale: ReasonLocale): string {
  const text = Object.hasOwn(REASON_TEXTS, reason.code) ? REASON_TEXTS[reason.code] : undefined;
  if (text) return text[locale](reason.params ?? {});
  const problem = problemSentence(reasonProblem(reason), locale);
  if (problem) return problem;
  const noted = noteText(reason.code, reason.params ?? {}, locale);
  if (noted) return noted;
  return locale === "fr" ? `Impossible de traiter cette commande (${reason.code}). Ouvrez-la pour voir le détail.` : `This order could not be processed (${reason.code}). Open it to see why.`;
}
