/**
 * The problems the labelling unit itself finds (not the mapper's): an order Shopify no longer knows, a box that is not
 * one of the shop's, an additional label with no first one or from a page that is out of date.
 */
import type { Problem } from "../shipping/problems";

type LabelProblemCode = "order_not_found" | "box_unknown" | "no_first_label" | "page_out_of_date";

const TEXTS: Record<LabelProblemCode, { path: string; message: (p: Record<string, string>) => Problem["message"]; fix: Problem["fix"] }> = {
  order_not_found: {
    path: "order",
    message: () => ({ en: "Shopify does not know this order any more.", fr: "Shopify ne connaît plus cette commande." }),
    fix: { en: "Go back to the orders list and pick the order again.", fr: "Revenez à la liste des commandes et choisissez-la à nouveau." },
  },
  box_unknown: {
    path: "box",
    message: (p) => ({ en: `The box "${p.box}" is not one of your boxes; nothing was bought.`, fr: `Le carton « ${p.box} » ne fait pas partie de vos cartons ; rien n'a été acheté.` }),
    fix: { en: "Pick a box in the list (boxes are defined in Settings), then create the label again.", fr: "Choisissez un carton dans la liste (les cartons se définissent dans les Paramètres), puis recréez l'étiquette." },
  },
  no_first_label: {
    path: "order",
    message: () => ({ en: "This order has no label yet, so there is nothing to add to.", fr: "Cette commande n'a pas encore d'étiquette : il n'y a rien à compléter." }),
    fix: { en: "Reload the page and use Create label.", fr: "Rechargez la page et utilisez « Créer l'étiquette »." },
  },
  page_out_of_date: {
    path: "order",
    message: () => ({
      en: "Another label was created for this order since this page was opened; nothing was bought.",
      fr: "Une autre étiquette a été créée pour cette commande depuis l'ouverture de la page ; rien n'a été acheté.",
    }),
    fix: { en: "Reload the page, check the labels listed, then create another one only if it is still needed.", fr: "Rechargez la page, vérifiez les étiquettes affichées, puis n'en créez une autre que si elle est encore nécessaire." },
  },
};

export function labelProblem(code: LabelProblemCode, input: { orderName: string; params?: Record<string, string> }): Problem {
  const text = TEXTS[code];
  const params = input.params ?? {};
  return { code, path: text.path, orderName: input.orderName, severity: "blocking", ...(input.params ? { params } : {}), message: text.message(params), fix: text.fix };
}
