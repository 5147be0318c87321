/**
 * Messages of the bulk jobs' JSON API (app/routes/api.bulk-jobs*.ts), in English and French. Kept apart from
 * messages.ts (spread into it) so that parallel work on the two files merges cleanly.
 */
export const bulkApiEn = {
  "bulkApi.badJson": "The request body must be JSON, like {\"orderIds\": [\"gid://shopify/Order/1001\"]}.",
  "bulkApi.tooLarge": "The request body is larger than {max} KB. Send at most {orders} order ids per job.",
  "bulkApi.invalid": "The request is not valid: {details}. Send {\"orderIds\": [\"gid://shopify/Order/…\"]}, and \"confirmChargedLabels\" as a whole number for a production job.",
  "bulkApi.orderIdShape": "order ids look like gid://shopify/Order/1001 (or 1001); these are not: {ids}",
  "bulkApi.notFound": "No bulk job {id} in this shop. Check the id, or list the shop's jobs with GET /api/bulk-jobs.",
  "bulkApi.methodNotAllowed": "This address answers {methods} only.",
  "bulkApi.queueDown": "The app's background queue is not running, so no job was started and nothing was bought. Try again in a minute.",
} as const;

export const bulkApiFr: Record<keyof typeof bulkApiEn, string> = {
  "bulkApi.badJson": "Le corps de la requête doit être du JSON, comme {\"orderIds\": [\"gid://shopify/Order/1001\"]}.",
  "bulkApi.tooLarge": "Le corps de la requête dépasse {max} Ko. Envoyez au plus {orders} identifiants de commande par tâche.",
  "bulkApi.invalid": "La requête n'est pas valide : {details}. Envoyez {\"orderIds\": [\"gid://shopify/Order/…\"]}, et « confirmChargedLabels » en nombre entier pour une tâche en production.",
  "bulkApi.orderIdShape": "les identifiants de commande ont la forme gid://shopify/Order/1001 (ou 1001) ; ceux-ci non : {ids}",
  "bulkApi.notFound": "Aucune tâche {id} dans cette boutique. Vérifiez l'identifiant, ou listez les tâches de la boutique avec GET /api/bulk-jobs.",
  "bulkApi.methodNotAllowed": "Cette adresse ne répond qu'à {methods}.",
  "bulkApi.queueDown": "La file de tâches de l'application ne tourne pas : aucune tâche n'a été lancée et rien n'a été acheté. Réessayez dans une minute.",
};
