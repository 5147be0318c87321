/**
 * Reasons kept as data (a code plus parameters: a bulk job item's failure, a note on an attempt) and their text in
 * the merchant's language, produced where they are shown. Browser-safe: no server imports.
 */
export interface Reason {
  code: string;
  params?: Record<string, string>;
}

export type ReasonLocale = "en" | "fr";

type Text = { en: (params: Record<string, string>) => string; fr: (params: Record<string, string>) => string };

const TEXTS: Record<string, Text> = {
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
  fulfillment_failed: {
    en: (p) => `The label was bought, but Shopify refused the fulfillment: ${p.message ?? ""}. Retry the Shopify step from the order page.`,
    fr: (p) => `L'étiquette est achetée, mais Shopify a refusé l'expédition : ${p.messageFr ?? p.message ?? ""}. Relancez l'étape Shopify depuis la page de la commande.`,
  },
  test_label_not_fulfilled: {
    en: () => `Test label: the order was not marked as fulfilled in Shopify and the customer was not notified. To fulfil with test labels, turn it on in Settings (development stores only).`,
    fr: () => `Étiquette de test : la commande n'a pas été marquée comme expédiée dans Shopify et le client n'a pas été prévenu. Pour expédier avec des étiquettes de test, activez-le dans les Paramètres (boutiques de développement uniquement).`,
  },
};

/** The reason in the merchant's language; an unknown code (a newer version wrote it) gets a neutral sentence. */
export function reasonText(reason: Reason, locale: ReasonLocale): string {
  const text = TEXTS[reason.code];
  if (text) return text[locale](reason.params ?? {});
  return locale === "fr" ? `Impossible de traiter cette commande (${reason.code}). Ouvrez-la pour voir le détail.` : `This order could not be processed (${reason.code}). Open it to see why.`;
}
