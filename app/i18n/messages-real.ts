/**
 * UI strings for a real store (issue 16): test labels kept out of Shopify, the settings' save bar, the confirmation
 * of a charged purchase, loading and empty states. English and French; spread into messages.ts.
 */
export const realEn = {
  "real.fulfillment.skippedTest": "Test label: not sent to Shopify",
  "real.fulfillment.skippedTestHelp":
    "This is a free test label (staging). The order was not marked as fulfilled in Shopify and the customer was not notified. On a development store you can turn on \"Fulfil orders with test labels\" in Settings to try the whole flow.",
  "real.fulfillment.testFulfilled": "Test label sent to Shopify: this development store fulfils orders with test labels (Settings).",
  "real.testLabels.title": "Test labels in Shopify",
  "real.testLabels.help":
    "Off by default: a test label is stored and shown here, but the order is not fulfilled in Shopify and the customer gets no shipping notice. Turn it on only on a development store, to try the whole flow with test customers.",
  "real.testLabels.on": "Orders are fulfilled with test labels (development store).",
  "real.testLabels.off": "Test labels stay in Etiquette: orders are not fulfilled and customers are not notified.",
  "real.testLabels.turnOn": "Fulfil orders with test labels",
  "real.testLabels.turnOff": "Stop fulfilling orders with test labels",
  "real.testLabels.notDevelopment":
    "This store is not a development store, so test labels never fulfil its orders: its customers are real. Buy production labels to fulfil orders.",
  "real.testLabels.saved": "Saved: test labels setting updated.",
  "real.testLabels.error.not_development_store":
    "Not turned on: Shopify says this store is not a development store, and a test tracking number would reach real customers.",
  "real.confirm.title": "Buy a charged label?",
  "real.confirm.body":
    "This buys 1 production label for order {order} from your label-service account. It is charged and cannot be undone from Etiquette.",
  "real.confirm.buy": "Buy 1 charged label",
  "real.confirm.cancel": "Cancel",
  "real.settings.unsaved": "You have unsaved changes in the shipping settings. Save or discard them before leaving.",
  "real.settings.discard": "Discard",
  "real.services.loading": "Loading the services the label service sells…",
} as const;

export const realFr: Record<keyof typeof realEn, string> = {
  "real.fulfillment.skippedTest": "Étiquette de test : non envoyée à Shopify",
  "real.fulfillment.skippedTestHelp":
    "C'est une étiquette de test gratuite (staging). La commande n'a pas été marquée comme expédiée dans Shopify et le client n'a pas été prévenu. Sur une boutique de développement, vous pouvez activer « Expédier les commandes avec les étiquettes de test » dans les Paramètres pour essayer tout le parcours.",
  "real.fulfillment.testFulfilled": "Étiquette de test envoyée à Shopify : cette boutique de développement expédie les commandes avec les étiquettes de test (Paramètres).",
  "real.testLabels.title": "Étiquettes de test dans Shopify",
  "real.testLabels.help":
    "Désactivé par défaut : une étiquette de test est enregistrée et affichée ici, mais la commande n'est pas expédiée dans Shopify et le client ne reçoit aucun avis d'expédition. Activez-le uniquement sur une boutique de développement, pour essayer tout le parcours avec des clients de test.",
  "real.testLabels.on": "Les commandes sont expédiées avec les étiquettes de test (boutique de développement).",
  "real.testLabels.off": "Les étiquettes de test restent dans Etiquette : les commandes ne sont pas expédiées et les clients ne sont pas prévenus.",
  "real.testLabels.turnOn": "Expédier les commandes avec les étiquettes de test",
  "real.testLabels.turnOff": "Ne plus expédier les commandes avec les étiquettes de test",
  "real.testLabels.notDevelopment":
    "Cette boutique n'est pas une boutique de développement : les étiquettes de test n'expédient jamais ses commandes, car ses clients sont réels. Achetez des étiquettes de production pour expédier les commandes.",
  "real.testLabels.saved": "Enregistré : réglage des étiquettes de test mis à jour.",
  "real.testLabels.error.not_development_store":
    "Non activé : Shopify indique que cette boutique n'est pas une boutique de développement, et un numéro de suivi de test atteindrait de vrais clients.",
  "real.confirm.title": "Acheter une étiquette payante ?",
  "real.confirm.body":
    "Vous allez acheter 1 étiquette de production pour la commande {order} avec votre compte du service d'étiquettes. Elle est facturée et ne peut pas être annulée depuis Etiquette.",
  "real.confirm.buy": "Acheter 1 étiquette payante",
  "real.confirm.cancel": "Annuler",
  "real.settings.unsaved": "Les réglages d'expédition ont des modifications non enregistrées. Enregistrez-les ou annulez-les avant de quitter.",
  "real.settings.discard": "Annuler les modifications",
  "real.services.loading": "Chargement des services vendus par le service d'étiquettes…",
};
