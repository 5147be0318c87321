/**
 * UI strings of voiding a label (app/labels/void.server.ts, the order page's Void label), in English and French.
 * Spread into messages.ts.
 */
export const voidEn = {
  "void.button": "Void label",
  "void.confirm.title": "Void the label of order {order}?",
  "void.confirm.body":
    "The Shopify fulfillment with tracking number {tracking} is cancelled, so the order can be shipped again, and this label is never printed again. Nothing is bought.",
  "void.confirm.noRefund":
    "The label service has no way to cancel a label from the app. If the label was charged and a refund is due, ask the label service for it, quoting label {labelId} and reference {reference}.",
  "void.confirm.action": "Void label",
  "void.confirm.keep": "Keep the label",
  "void.badge": "Void",
  "void.badge.voiding": "Being voided",
  "void.card.voided": "Voided {date}. This label is kept in the history and is never printed again.",
  "void.card.refund":
    "The label service offers no cancellation: if a refund is due, ask the label service for it, quoting label {labelId} and reference {reference}.",
  "void.card.voiding": "The void of this label stopped before it was finished. Void it again to finish; nothing is cancelled twice.",
  "void.done":
    "The label {tracking} is void and its Shopify fulfillment is cancelled: order {order} can be labelled again. The label service offers no cancellation: if a refund is due, ask it, quoting label {labelId} and reference {reference}.",
  "void.done.notInShopify":
    "The label {tracking} is void (it was never sent to Shopify): order {order} can be labelled again. The label service offers no cancellation: if a refund is due, ask it, quoting label {labelId} and reference {reference}.",
  "void.done.trackingRemoved":
    "The label {tracking} is void and its tracking number was removed from the Shopify fulfillment it shared with another parcel. The label service offers no cancellation: if a refund is due, ask it, quoting label {labelId} and reference {reference}.",
  "void.already": "The label {tracking} was already void; nothing else was done. If a refund is due, ask the label service, quoting label {labelId} and reference {reference}.",
  "void.inProgress": "The label {tracking} is being voided right now. Reload the page in a moment to see the result.",
  "void.pushing": "The label {tracking} is being sent to Shopify right now. Void it again in a moment, once that step is done.",
  "void.busy": "Shopify is busy; the void of label {tracking} is not finished. Click Void label again in {seconds} s; nothing is cancelled twice.",
  "void.failed": "Shopify did not cancel the fulfillment of label {tracking} ({message}). The label is not void yet; click Void label again, or cancel the fulfillment in Shopify's order page and then void the label.",
  "void.summaryNotWritten": "The order's label summary in Shopify will be updated in the background.",
} as const;

export const voidFr: Record<keyof typeof voidEn, string> = {
  "void.button": "Annuler l'étiquette",
  "void.confirm.title": "Annuler l'étiquette de la commande {order} ?",
  "void.confirm.body":
    "Le traitement Shopify portant le numéro de suivi {tracking} est annulé, la commande peut donc être expédiée à nouveau, et cette étiquette ne sera plus jamais imprimée. Rien n'est acheté.",
  "void.confirm.noRefund":
    "Le service d'étiquettes ne permet pas d'annuler une étiquette depuis l'application. Si l'étiquette a été facturée et qu'un remboursement est dû, demandez-le au service d'étiquettes en citant l'étiquette {labelId} et la référence {reference}.",
  "void.confirm.action": "Annuler l'étiquette",
  "void.confirm.keep": "Garder l'étiquette",
  "void.badge": "Annulée",
  "void.badge.voiding": "Annulation en cours",
  "void.card.voided": "Annulée le {date}. Cette étiquette reste dans l'historique et ne sera plus jamais imprimée.",
  "void.card.refund":
    "Le service d'étiquettes ne propose pas d'annulation : si un remboursement est dû, demandez-le au service d'étiquettes en citant l'étiquette {labelId} et la référence {reference}.",
  "void.card.voiding": "L'annulation de cette étiquette s'est arrêtée avant la fin. Annulez-la à nouveau pour terminer ; rien n'est annulé deux fois.",
  "void.done":
    "L'étiquette {tracking} est annulée et son traitement Shopify aussi : la commande {order} peut recevoir une nouvelle étiquette. Le service d'étiquettes ne propose pas d'annulation : si un remboursement est dû, demandez-le en citant l'étiquette {labelId} et la référence {reference}.",
  "void.done.notInShopify":
    "L'étiquette {tracking} est annulée (elle n'avait jamais été envoyée à Shopify) : la commande {order} peut recevoir une nouvelle étiquette. Le service d'étiquettes ne propose pas d'annulation : si un remboursement est dû, demandez-le en citant l'étiquette {labelId} et la référence {reference}.",
  "void.done.trackingRemoved":
    "L'étiquette {tracking} est annulée et son numéro de suivi a été retiré du traitement Shopify qu'elle partageait avec un autre colis. Le service d'étiquettes ne propose pas d'annulation : si un remboursement est dû, demandez-le en citant l'étiquette {labelId} et la référence {reference}.",
  "void.already": "L'étiquette {tracking} était déjà annulée ; rien d'autre n'a été fait. Si un remboursement est dû, demandez-le au service d'étiquettes en citant l'étiquette {labelId} et la référence {reference}.",
  "void.inProgress": "L'étiquette {tracking} est en cours d'annulation. Rechargez la page dans un instant pour voir le résultat.",
  "void.pushing": "L'étiquette {tracking} est en cours d'envoi à Shopify. Annulez-la à nouveau dans un instant, une fois cette étape terminée.",
  "void.busy": "Shopify est occupé ; l'annulation de l'étiquette {tracking} n'est pas terminée. Cliquez à nouveau sur « Annuler l'étiquette » dans {seconds} s ; rien n'est annulé deux fois.",
  "void.failed": "Shopify n'a pas annulé le traitement de l'étiquette {tracking} ({message}). L'étiquette n'est pas encore annulée ; cliquez à nouveau sur « Annuler l'étiquette », ou annulez le traitement depuis la page de la commande dans Shopify, puis annulez l'étiquette.",
  "void.summaryNotWritten": "Le résumé des étiquettes de la commande dans Shopify sera mis à jour en arrière-plan.",
};
