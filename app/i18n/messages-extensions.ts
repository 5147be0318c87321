/**
 * Strings of the JSON API the admin extensions call (app/http/api-auth.server.ts, app/routes/api.*), in English and
 * French. The extensions' own strings are in each extension's locales/ folder. Spread into messages.ts.
 */
export const extensionsEn = {
  "api.error.unauthorized": "This request did not come from your Shopify admin (no valid session). Open the app from the Shopify admin and try again.",
  "api.error.bad_order_id": "This order id is not one Shopify gives. Open the order from the admin's order list and try again.",
  "api.error.order_not_found": "This order was not found in this shop (it may have been deleted). Reload the admin's order page.",
  "api.error.bad_body": "The request could not be read. Reload the admin page and try again.",
  "api.error.method_not_allowed": "This address does not accept that request. Reload the admin page and try again.",
  "api.error.shopify_busy": "Shopify is busy: nothing was bought or changed. Try again in {seconds} s.",
  "api.error.extension_missing": "The extension {handle} is not built yet. Run npm run extensions:build, then reload this page.",
} as const;

export const extensionsFr: Record<keyof typeof extensionsEn, string> = {
  "api.error.unauthorized": "Cette requête ne vient pas de votre admin Shopify (pas de session valide). Ouvrez l'application depuis l'admin Shopify et réessayez.",
  "api.error.bad_order_id": "Cet identifiant de commande n'est pas un identifiant Shopify. Ouvrez la commande depuis la liste des commandes de l'admin et réessayez.",
  "api.error.order_not_found": "Cette commande est introuvable dans cette boutique (elle a peut-être été supprimée). Rechargez la page de la commande dans l'admin.",
  "api.error.bad_body": "La requête n'a pas pu être lue. Rechargez la page de l'admin et réessayez.",
  "api.error.method_not_allowed": "Cette adresse n'accepte pas cette requête. Rechargez la page de l'admin et réessayez.",
  "api.error.shopify_busy": "Shopify est occupé : rien n'a été acheté ni modifié. Réessayez dans {seconds} s.",
  "api.error.extension_missing": "L'extension {handle} n'est pas encore construite. Lancez npm run extensions:build, puis rechargez cette page.",
};
