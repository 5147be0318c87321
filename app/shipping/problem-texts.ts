/**
 * The one catalogue of problem texts, keyed by code. A problem is stored as data (`{ code, path, orderName, params }`:
 * a bulk job's item, a refusal kept for later) and its English and French sentences are produced from this catalogue,
 * so the same stored problem reads in the merchant's language wherever it is shown. The mapper (./map.ts,
 * ./address-problems.ts, ./services.ts) and the labelling unit (app/labels) build their problems here.
 *
 * Params are strings only (JSON-safe). `order` is always the order's name; a field named on the order page is
 * `field` (a UI message key), with `item` (1-based) and `itemDescription` for a CN23 line. Browser-safe: no server
 * imports.
 */
import { en as enMessages, fr as frMessages, type MessageKey } from "../i18n/messages";
import type { Problem } from "./problems";

export type ProblemParams = Record<string, string>;
type Lang = "en" | "fr";
type Say = (p: ProblemParams, path: string) => string;

interface ProblemText {
  severity: Problem["severity"] | ((p: ProblemParams) => Problem["severity"]);
  message: Record<Lang, Say>;
  fix: Record<Lang, Say>;
}

/** A country's name in the merchant's language ("Espagne"), or its code when the runtime does not know it. */
export function countryName(code: string, locale: Lang): string {
  try {
    const name = new Intl.DisplayNames([locale], { type: "region" }).of(code);
    return name && name !== code && !/unknown/i.test(name) ? name : code;
  } catch {
    return code;
  }
}

/** The shipping zones as Settings > Shipping names them. */
export const ZONE_NAMES: Record<string, Record<Lang, string>> = {
  domestic: { en: "Domestic", fr: "National" },
  eu: { en: "European Union", fr: "Union européenne" },
  world: { en: "Rest of the world", fr: "Reste du monde" },
};

function isMessageKey(key: string | undefined): key is MessageKey {
  return key !== undefined && key in enMessages;
}

/** A field as the order page labels it, from `field`/`item`/`itemDescription`/`part` (see the header). */
function fieldName(p: ProblemParams, lang: Lang): string {
  const label = isMessageKey(p.field) ? (lang === "en" ? enMessages : frMessages)[p.field] : undefined;
  if (label && p.item) {
    return lang === "en" ? `Item ${p.item} ("${p.itemDescription ?? ""}"): ${label}` : `Article ${p.item} (« ${p.itemDescription ?? ""} ») : ${label}`;
  }
  if (label) return label;
  if (p.item) return lang === "en" ? `CN23 item ${p.item}` : `L'article ${p.item} de la CN23`;
  if (p.part === "sender") return lang === "en" ? "The sender address" : "L'adresse de l'expéditeur";
  return lang === "en" ? "A field of the label" : "Un champ de l'étiquette";
}

const same = (en: string, fr: string): Record<Lang, Say> => ({ en: () => en, fr: () => fr });

/** "X is not valid (... was entered)": the message of every edit_*_invalid code; each has its own fix. */
const invalidEdit = (fix: Record<Lang, Say>): ProblemText => ({
  severity: "blocking",
  message: {
    en: (p) => `${fieldName(p, "en")} is not valid ("${p.value}" was entered).`,
    fr: (p) => `${fieldName(p, "fr")} n'est pas valide (« ${p.value} » a été saisi).`,
  },
  fix,
});

const TEXTS = {
  // The order itself (map.ts).
  order_cancelled: {
    severity: "blocking",
    message: { en: (p) => `Order ${p.order} is cancelled.`, fr: (p) => `La commande ${p.order} est annulée.` },
    fix: same("Cancelled orders are not shipped. Pick another order.", "Les commandes annulées ne sont pas expédiées. Choisissez une autre commande."),
  },
  nothing_to_ship: {
    severity: "blocking",
    message: { en: (p) => `Order ${p.order} has nothing left to ship.`, fr: (p) => `La commande ${p.order} n'a plus rien à expédier.` },
    fix: same(
      "Check the order in Shopify: it may be fulfilled already, on hold or handled by another location or app.",
      "Vérifiez la commande dans Shopify : elle est peut-être déjà traitée, en attente ou gérée par un autre lieu ou une autre application.",
    ),
  },
  // The recipient (map.ts, address-problems.ts).
  no_shipping_address: {
    severity: "blocking",
    message: { en: (p) => `Order ${p.order} has no shipping address.`, fr: (p) => `La commande ${p.order} n'a pas d'adresse de livraison.` },
    fix: same(
      "Add a shipping address to the order in Shopify (Orders > the order > Shipping address > Edit).",
      "Ajoutez une adresse de livraison à la commande dans Shopify (Commandes > la commande > Adresse de livraison > Modifier).",
    ),
  },
  recipient_name_missing: {
    severity: "blocking",
    message: { en: (p) => `Order ${p.order}: the shipping address has no name or company.`, fr: (p) => `Commande ${p.order} : l'adresse de livraison n'a ni nom ni société.` },
    fix: same(
      "Add the recipient's name to the shipping address in Shopify, or type it in the recipient form here.",
      "Ajoutez le nom du destinataire à l'adresse de livraison dans Shopify, ou saisissez-le ici dans le formulaire destinataire.",
    ),
  },
  address_line1_missing: {
    severity: "blocking",
    message: { en: (p) => `Order ${p.order}: the shipping address has no street line.`, fr: (p) => `Commande ${p.order} : l'adresse de livraison n'a pas de rue.` },
    fix: same(
      "Complete the shipping address in Shopify (Orders > the order > Shipping address > Edit).",
      "Complétez l'adresse de livraison dans Shopify (Commandes > la commande > Adresse de livraison > Modifier).",
    ),
  },
  address_line_long: {
    severity: "warning",
    message: {
      en: (p) => `Order ${p.order}: address line 1 is ${p.length} characters long; some carriers print only 35.`,
      fr: (p) => `Commande ${p.order} : la ligne d'adresse 1 compte ${p.length} caractères ; certains transporteurs n'en impriment que 35.`,
    },
    fix: same("Check the printed label, or shorten the line in the recipient form.", "Vérifiez l'étiquette imprimée, ou raccourcissez la ligne dans le formulaire destinataire."),
  },
  city_missing: {
    severity: "blocking",
    message: { en: (p) => `Order ${p.order}: the shipping address has no city.`, fr: (p) => `Commande ${p.order} : l'adresse de livraison n'a pas de ville.` },
    fix: same("Add the city to the shipping address in Shopify.", "Ajoutez la ville à l'adresse de livraison dans Shopify."),
  },
  country_unknown: {
    severity: "blocking",
    message: {
      en: (p) => `Order ${p.order}: "${p.value}" in the shipping address is not a country code carriers know.`,
      fr: (p) => `Commande ${p.order} : « ${p.value} » dans l'adresse de livraison n'est pas un code pays connu des transporteurs.`,
    },
    fix: same(
      "Choose the country again in the order's shipping address in Shopify (Orders > the order > Shipping address > Edit).",
      "Choisissez à nouveau le pays dans l'adresse de livraison de la commande dans Shopify (Commandes > la commande > Adresse de livraison > Modifier).",
    ),
  },
  zip_missing: {
    severity: "blocking",
    message: { en: (p) => `Order ${p.order}: the shipping address has no postcode.`, fr: (p) => `Commande ${p.order} : l'adresse de livraison n'a pas de code postal.` },
    fix: same(
      "Add the postcode to the shipping address in Shopify, or type it in the recipient form here.",
      "Ajoutez le code postal à l'adresse de livraison dans Shopify, ou saisissez-le ici dans le formulaire destinataire.",
    ),
  },
  zip_invalid: {
    severity: "blocking",
    message: {
      en: (p) => `Order ${p.order}: the postcode "${p.value}" is not a postcode of ${countryName(p.country ?? "", "en")}; the carrier would refuse the label.`,
      fr: (p) => `Commande ${p.order} : le code postal « ${p.value} » n'est pas un code postal de ${countryName(p.country ?? "", "fr")} ; le transporteur refuserait l'étiquette.`,
    },
    fix: same(
      "Correct the postcode in the recipient form here, or in the order's shipping address in Shopify.",
      "Corrigez le code postal ici dans le formulaire destinataire, ou dans l'adresse de livraison de la commande dans Shopify.",
    ),
  },
  zip_unknown: {
    severity: "warning",
    message: {
      en: (p) => `Order ${p.order}: the postcode ${p.value} is not in La Poste's list of French postcodes.`,
      fr: (p) => `Commande ${p.order} : le code postal ${p.value} ne figure pas dans la liste des codes postaux de La Poste.`,
    },
    fix: same(
      "Check it with the customer (a CEDEX code is fine), and correct it in the recipient form here if needed.",
      "Vérifiez-le avec le client (un code CEDEX convient), et corrigez-le ici dans le formulaire destinataire si besoin.",
    ),
  },
  email_missing: {
    severity: "blocking",
    message: { en: (p) => `Order ${p.order} has no customer e-mail.`, fr: (p) => `La commande ${p.order} n'a pas d'e-mail client.` },
    fix: same(
      "Add the customer's e-mail to the order in Shopify, or type it in the recipient form here.",
      "Ajoutez l'e-mail du client à la commande dans Shopify, ou saisissez-le ici dans le formulaire destinataire.",
    ),
  },
  email_invalid: {
    severity: "blocking",
    message: {
      en: (p) => `Order ${p.order}: the customer e-mail "${p.value}" is not a valid address.`,
      fr: (p) => `Commande ${p.order} : l'e-mail client « ${p.value} » n'est pas une adresse valide.`,
    },
    fix: same(
      "Correct the customer's e-mail on the order in Shopify, or type a valid one in the recipient form here.",
      "Corrigez l'e-mail du client sur la commande dans Shopify, ou saisissez-en un valide ici dans le formulaire destinataire.",
    ),
  },
  recipient_phone_invalid: {
    severity: "warning",
    message: {
      en: (p) => `Order ${p.order}: the phone number "${p.value}" is not a valid number for ${p.country}; it is not sent.`,
      fr: (p) => `Commande ${p.order} : le numéro « ${p.value} » n'est pas valide pour ${p.country} ; il n'est pas envoyé.`,
    },
    fix: same(
      "Correct the phone in the shipping address, or type it in international form (+41...) here.",
      "Corrigez le téléphone de l'adresse de livraison, ou saisissez-le au format international (+41...) ici.",
    ),
  },
  // The sender, from Settings (map.ts).
  sender_country_unknown: {
    severity: "blocking",
    message: {
      en: (p) => `The sender country "${p.value}" is not a country code carriers know.`,
      fr: (p) => `Le pays de l'expéditeur « ${p.value} » n'est pas un code pays connu des transporteurs.`,
    },
    fix: same(
      "Correct the sender's country code in Etiquette's Settings > Shipping (two letters, like FR).",
      "Corrigez le code pays de l'expéditeur dans Paramètres > Expédition d'Etiquette (deux lettres, par exemple FR).",
    ),
  },
  sender_zip_invalid: {
    severity: "blocking",
    message: {
      en: (p) => `The sender postcode "${p.value}" is not a valid postcode of ${countryName(p.country ?? "", "en")}.`,
      fr: (p) => `Le code postal de l'expéditeur « ${p.value} » n'est pas un code postal valide de ${countryName(p.country ?? "", "fr")}.`,
    },
    fix: same("Correct the sender's postcode in Etiquette's Settings > Shipping.", "Corrigez le code postal de l'expéditeur dans Paramètres > Expédition d'Etiquette."),
  },
  sender_phone_invalid: {
    severity: "blocking",
    message: {
      en: (p) => `The sender phone "${p.value}" is not a valid ${p.country} number.`,
      fr: (p) => `Le téléphone de l'expéditeur « ${p.value} » n'est pas un numéro ${p.country} valide.`,
    },
    fix: same(
      "Correct the sender phone in Etiquette's Settings (international form, like +33142000000).",
      "Corrigez le téléphone de l'expéditeur dans les Paramètres d'Etiquette (format international, par exemple +33142000000).",
    ),
  },
  // The box and the service.
  box_unknown: {
    // The mapper falls back to the default box (a warning naming it, `used`); a purchase naming an unknown box is
    // refused instead (no `used`).
    severity: (p) => (p.used ? "warning" : "blocking"),
    message: {
      en: (p) => (p.used ? `Box "${p.box}" does not exist; "${p.used}" is used.` : `The box "${p.box}" is not one of your boxes; nothing was bought.`),
      fr: (p) => (p.used ? `Le carton « ${p.box} » n'existe pas ; « ${p.used} » est utilisé.` : `Le carton « ${p.box} » ne fait pas partie de vos cartons ; rien n'a été acheté.`),
    },
    fix: {
      en: (p) => (p.used ? "Pick one of the boxes defined in Settings." : "Pick a box in the list (boxes are defined in Settings), then create the label again."),
      fr: (p) => (p.used ? "Choisissez un des cartons définis dans les Paramètres." : "Choisissez un carton dans la liste (les cartons se définissent dans les Paramètres), puis recréez l'étiquette."),
    },
  },
  service_not_offered: {
    severity: "blocking",
    message: {
      en: (p) => `Order ${p.order}: the label service does not sell ${p.carrier} service "${p.service}" to ${countryName(p.country ?? "", "en")} (${p.country}), so this label cannot be bought.`,
      fr: (p) => `Commande ${p.order} : le service d'étiquettes ne vend pas le service « ${p.service} » de ${p.carrier} pour la destination ${countryName(p.country ?? "", "fr")} (${p.country}) : cette étiquette ne peut pas être achetée.`,
    },
    fix: {
      en: (p) =>
        p.titles
          ? `Choose a service offered to ${countryName(p.country ?? "", "en")} in "Service" on this page: ${p.titles}.${p.zone && ZONE_NAMES[p.zone] ? ` Or change the default service for "${ZONE_NAMES[p.zone]!.en}" in Settings > Shipping.` : ""}`
          : `The label service offers no service to ${countryName(p.country ?? "", "en")}: ship this order another way, or ask the label service.`,
      fr: (p) =>
        p.titles
          ? `Choisissez dans « Service », sur cette page, un service proposé pour ${countryName(p.country ?? "", "fr")} : ${p.titles}.${p.zone && ZONE_NAMES[p.zone] ? ` Ou changez le service par défaut « ${ZONE_NAMES[p.zone]!.fr} » dans Paramètres > Expédition.` : ""}`
          : `Le service d'étiquettes ne propose aucun service pour ${countryName(p.country ?? "", "fr")} : expédiez cette commande autrement, ou interrogez le service d'étiquettes.`,
    },
  },
  // The items (map.ts).
  line_item_unreadable: {
    severity: "blocking",
    message: {
      en: (p) => `Order ${p.order}: an item to ship is not among the first 50 lines read.`,
      fr: (p) => `Commande ${p.order} : un article à expédier ne figure pas parmi les 50 premières lignes lues.`,
    },
    fix: same("Split this shipment in Shopify, or ship the order without Etiquette.", "Divisez cet envoi dans Shopify, ou expédiez la commande sans Etiquette."),
  },
  item_weight_unreadable: {
    severity: "warning",
    message: {
      en: (p) => `Order ${p.order}: "${p.title}" has no readable weight; counted as 0 g.`,
      fr: (p) => `Commande ${p.order} : « ${p.title} » n'a pas de poids lisible ; compté 0 g.`,
    },
    fix: {
      en: (p) => `Set the weight in Shopify (Products > ${p.title} > the variant > Shipping > Weight).`,
      fr: (p) => `Renseignez le poids dans Shopify (Produits > ${p.title} > la variante > Expédition > Poids).`,
    },
  },
  item_price_unreadable: {
    severity: "blocking",
    message: { en: (p) => `Order ${p.order}: the price of "${p.title}" cannot be read.`, fr: (p) => `Commande ${p.order} : le prix de « ${p.title} » est illisible.` },
    fix: same(
      "Reload the order; if it persists, contact support with the order name.",
      "Rechargez la commande ; si le problème persiste, contactez le support avec le numéro de commande.",
    ),
  },
  origin_invalid: {
    severity: "warning",
    message: {
      en: (p) => `Order ${p.order}: "${p.title}" has an unreadable country of origin "${p.value}".`,
      fr: (p) => `Commande ${p.order} : « ${p.title} » a un pays d'origine illisible « ${p.value} ».`,
    },
    fix: {
      en: (p) => `In Shopify, open Products > ${p.title} > the variant > Customs information, and choose the country/region of origin again.`,
      fr: (p) => `Dans Shopify, ouvrez Produits > ${p.title} > la variante > Informations douanières, et choisissez à nouveau le pays/la région d'origine.`,
    },
  },
  hs_code_missing: {
    severity: "blocking",
    message: {
      en: (p) => `Order ${p.order}: "${p.title}" has no HS code, which customs needs for ${p.country}.`,
      fr: (p) => `Commande ${p.order} : « ${p.title} » n'a pas de code SH, exigé par la douane pour ${p.country}.`,
    },
    fix: {
      en: (p) => `In Shopify, open Products > ${p.title} > the variant > Customs information, and enter the HS (harmonized system) code.`,
      fr: (p) => `Dans Shopify, ouvrez Produits > ${p.title} > la variante > Informations douanières, et saisissez le code SH (système harmonisé).`,
    },
  },
  customs_description_missing: {
    severity: "warning",
    message: {
      en: (p) => `Order ${p.order}: "${p.title}" has no English customs description, and ${p.carrier} wants the contents described in English. The product title is used as it is.`,
      fr: (p) => `Commande ${p.order} : « ${p.title} » n'a pas de description douanière en anglais, et ${p.carrier} demande le contenu décrit en anglais. Le titre du produit est utilisé tel quel.`,
    },
    fix: {
      en: (p) => `Write "${p.title}" in English in the customs line below and click "Save for this product", or on Customs descriptions. Every later order of this product uses it.`,
      fr: (p) => `Écrivez « ${p.title} » en anglais dans la ligne douanière ci-dessous et cliquez sur « Enregistrer pour ce produit », ou dans Descriptions douanières. Toutes les commandes suivantes de ce produit l'utiliseront.`,
    },
  },
  origin_missing: {
    severity: "blocking",
    message: {
      en: (p) => `Order ${p.order}: "${p.title}" has no country of origin, which customs needs for ${p.country}.`,
      fr: (p) => `Commande ${p.order} : « ${p.title} » n'a pas de pays d'origine, exigé par la douane pour ${p.country}.`,
    },
    fix: {
      en: (p) => `In Shopify, open Products > ${p.title} > the variant > Customs information, and choose the country/region of origin (or set a fallback origin in Etiquette's Settings).`,
      fr: (p) => `Dans Shopify, ouvrez Produits > ${p.title} > la variante > Informations douanières, et choisissez le pays/la région d'origine (ou définissez une origine par défaut dans les Paramètres d'Etiquette).`,
    },
  },
  no_physical_items: {
    severity: "blocking",
    message: {
      en: (p) => `Order ${p.order}: nothing in this shipment needs shipping (digital items or gift cards only).`,
      fr: (p) => `Commande ${p.order} : rien dans cet envoi n'est à expédier (articles numériques ou cartes cadeaux uniquement).`,
    },
    fix: same("Fulfil it in Shopify without a label.", "Traitez-la dans Shopify sans étiquette."),
  },
  weight_defaulted: {
    severity: "warning",
    message: {
      en: (p) => `Order ${p.order}: the items weigh 0 g; the default weight ${p.grams} g is used.`,
      fr: (p) => `Commande ${p.order} : les articles pèsent 0 g ; le poids par défaut de ${p.grams} g est utilisé.`,
    },
    fix: same(
      "Weigh the parcel and correct the weight here if needed; set product weights in Shopify.",
      "Pesez le colis et corrigez le poids ici si besoin ; renseignez les poids des produits dans Shopify.",
    ),
  },
  weight_zero: {
    severity: "blocking",
    message: { en: (p) => `Order ${p.order}: the items to ship weigh 0 g.`, fr: (p) => `Commande ${p.order} : les articles à expédier pèsent 0 g.` },
    fix: same(
      "Enter the parcel weight here, set the product weights in Shopify, or set a default weight in Settings.",
      "Saisissez le poids du colis ici, renseignez les poids des produits dans Shopify, ou définissez un poids par défaut dans les Paramètres.",
    ),
  },
  shipping_price_unreadable: {
    // Blocking only when customs needs the amount (`customs: "yes"`).
    severity: (p) => (p.customs === "yes" ? "blocking" : "warning"),
    message: { en: (p) => `Order ${p.order}: the shipping price paid cannot be read.`, fr: (p) => `Commande ${p.order} : les frais de port payés sont illisibles.` },
    fix: same("Type the shipping price the customer paid in the CN23 section here.", "Saisissez ici, dans la section CN23, les frais de port payés par le client."),
  },
  request_field_invalid: {
    severity: "blocking",
    message: {
      en: (p, path) => `Order ${p.order}: ${path} is not valid for the label service (${p.detail}).`,
      fr: (p, path) => `Commande ${p.order} : ${path} n'est pas valide pour le service d'étiquettes (${p.detail}).`,
    },
    fix: {
      en: (_p, path) => `Correct ${path} (in the form here, the order in Shopify, or Settings).`,
      fr: (_p, path) => `Corrigez ${path} (dans le formulaire ici, la commande dans Shopify ou les Paramètres).`,
    },
  },
  // The labelling unit (app/labels/label-order.server.ts).
  order_not_found: {
    severity: "blocking",
    message: same("Shopify does not know this order any more.", "Shopify ne connaît plus cette commande."),
    fix: same("Go back to the orders list and pick the order again.", "Revenez à la liste des commandes et choisissez-la à nouveau."),
  },
  // Sender per location (app/labels/location-label.server.ts).
  location_nothing_to_ship: {
    severity: "blocking",
    message: {
      en: (p) => (p.location ? `Nothing is left to ship from ${p.location} for this order.` : "Nothing is left to ship from this location for this order."),
      fr: (p) => (p.location ? `Il ne reste rien à expédier depuis ${p.location} pour cette commande.` : "Il ne reste rien à expédier depuis cet emplacement pour cette commande."),
    },
    fix: same(
      "Reload the page: the labels listed show what each location has shipped. In Shopify, check which location the items are assigned to.",
      "Rechargez la page : les étiquettes affichées montrent ce que chaque emplacement a expédié. Dans Shopify, vérifiez à quel emplacement les articles sont attribués.",
    ),
  },
  no_first_label: {
    severity: "blocking",
    message: same("This order has no label yet, so there is nothing to add to.", "Cette commande n'a pas encore d'étiquette : il n'y a rien à compléter."),
    fix: same("Reload the page and use Create label.", "Rechargez la page et utilisez « Créer l'étiquette »."),
  },
  page_out_of_date: {
    severity: "blocking",
    message: same(
      "Another label was created for this order since this page was opened; nothing was bought.",
      "Une autre étiquette a été créée pour cette commande depuis l'ouverture de la page ; rien n'a été acheté.",
    ),
    fix: same(
      "Reload the page, check the labels listed, then create another one only if it is still needed.",
      "Rechargez la page, vérifiez les étiquettes affichées, puis n'en créez une autre que si elle est encore nécessaire.",
    ),
  },
  // The merchant's edits on the order page (app/labels/order-edits.server.ts).
  edit_required: {
    severity: "blocking",
    message: { en: (p) => `${fieldName(p, "en")} is empty.`, fr: (p) => `${fieldName(p, "fr")} : le champ est vide.` },
    fix: {
      en: (p) => `Fill in "${fieldName(p, "en")}", then create the label again.`,
      fr: (p) => `Renseignez le champ « ${fieldName(p, "fr")} », puis recréez l'étiquette.`,
    },
  },
  edit_too_long: {
    severity: "blocking",
    message: {
      en: (p) => `${fieldName(p, "en")} has ${p.length} characters; carriers accept at most ${p.max}.`,
      fr: (p) => `${fieldName(p, "fr")} compte ${p.length} caractères ; les transporteurs en acceptent au plus ${p.max}.`,
    },
    fix: {
      en: (p, path) => `Shorten "${fieldName(p, "en")}" to ${p.max} characters or fewer${path === "recipient.address_line1" ? ` (move the rest to "${enMessages["order.field.address2"]}")` : ""}.`,
      fr: (p, path) => `Raccourcissez « ${fieldName(p, "fr")} » à ${p.max} caractères au plus${path === "recipient.address_line1" ? ` (mettez la suite dans « ${frMessages["order.field.address2"]} »)` : ""}.`,
    },
  },
  edit_out_of_range: {
    severity: "blocking",
    message: {
      en: (p) => `${fieldName(p, "en")} must be a whole number from ${p.min} to ${p.max} ${p.unit}${p.carrier ? ` for ${p.carrier}` : ""} ("${p.value}" was entered).`,
      fr: (p) => `${fieldName(p, "fr")} doit être un nombre entier de ${p.min} à ${p.max} ${p.unit}${p.carrier ? ` pour ${p.carrier}` : ""} (« ${p.value} » a été saisi).`,
    },
    fix: { en: (p) => `Enter a whole number from ${p.min} to ${p.max}.`, fr: (p) => `Saisissez un nombre entier de ${p.min} à ${p.max}.` },
  },
  edit_amount_invalid: {
    severity: "blocking",
    message: {
      en: (p) => `${fieldName(p, "en")} is not a valid amount ("${p.value}" was entered).`,
      fr: (p) => `${fieldName(p, "fr")} n'est pas un montant valide (« ${p.value} » a été saisi).`,
    },
    fix: {
      en: (p) => `Enter an amount like 12.50${p.allowZero === "yes" ? " (0 if nothing was paid)" : ", more than 0"}.`,
      fr: (p) => `Saisissez un montant comme 12,50${p.allowZero === "yes" ? " (0 si rien n'a été payé)" : ", supérieur à 0"}.`,
    },
  },
  edit_email_invalid: invalidEdit(same("Enter an e-mail address like name@example.com.", "Saisissez une adresse comme nom@exemple.fr.")),
  edit_zip_invalid: invalidEdit(same("Enter the postcode with letters, digits, spaces or hyphens only.", "Saisissez le code postal avec des lettres, chiffres, espaces ou tirets uniquement.")),
  edit_phone_invalid: invalidEdit({
    en: (p) => `Enter a phone number valid for ${p.country}, for example in international form (+…).`,
    fr: (p) => `Saisissez un numéro valide pour ${p.country}, par exemple au format international (+…).`,
  }),
  edit_category_invalid: invalidEdit(same("Pick a category in the list.", "Choisissez une catégorie dans la liste.")),
  edit_origin_invalid: invalidEdit(same("Enter the two-letter code of the country of origin, like FR or CN.", "Saisissez le code à deux lettres du pays d'origine, comme FR ou CN.")),
  edit_hs_invalid: invalidEdit(same("Enter the HS code with 6 to 13 digits (dots and spaces are allowed).", "Saisissez le code SH de 6 à 13 chiffres (points et espaces acceptés).")),
  edit_contract_invalid: {
    severity: "blocking",
    message: {
      en: (p) => `${fieldName(p, "en")} is not in a form the label service accepts.`,
      fr: (p) => `${fieldName(p, "fr")} n'est pas sous une forme acceptée par le service d'étiquettes.`,
    },
    fix: {
      en: (_p, path) => (path.startsWith("sender") ? "Correct the sender in Settings, then create the label again." : "Correct this field in the form, then create the label again."),
      fr: (_p, path) => (path.startsWith("sender") ? "Corrigez l'expéditeur dans les Paramètres, puis recréez l'étiquette." : "Corrigez ce champ dans le formulaire, puis recréez l'étiquette."),
    },
  },
  // The label service refused a field (its own words stay a detail shown under this sentence).
  service_refused_field: {
    severity: "blocking",
    message: {
      en: (p) => `${fieldName(p, "en")}: the label service refused this value.`,
      fr: (p) => `${fieldName(p, "fr")} : le service d'étiquettes a refusé cette valeur.`,
    },
    fix: {
      en: (_p, path) => (path === "carrier_name" || path === "carrier_service_name" ? "Pick another service in the list, then create the label again." : "Correct this field, then create the label again."),
      fr: (_p, path) => (path === "carrier_name" || path === "carrier_service_name" ? "Choisissez un autre service dans la liste, puis recréez l'étiquette." : "Corrigez ce champ, puis recréez l'étiquette."),
    },
  },
} satisfies Record<string, ProblemText>;

export type ProblemCode = keyof typeof TEXTS;
export const PROBLEM_CODES = Object.keys(TEXTS) as ProblemCode[];

export function isProblemCode(code: string): code is ProblemCode {
  return Object.hasOwn(TEXTS, code);
}

/** What is stored for a problem: enough to rebuild it (severity and texts come from the catalogue). */
export interface StoredProblem {
  code: string;
  path: string;
  orderName: string;
  params?: ProblemParams;
}

/**
 * A problem from the catalogue. `params` are stored with it (with `order`, the order's name); `message` and `fix` are
 * the catalogue's sentences for them, in English and French.
 */
export function problem(code: ProblemCode, input: { path: string; orderName: string; params?: ProblemParams }): Problem {
  const text: ProblemText = TEXTS[code];
  const params: ProblemParams = { order: input.orderName, ...input.params };
  const say = (lang: Lang) => ({ message: text.message[lang](params, input.path), fix: text.fix[lang](params, input.path) });
  const [en, fr] = [say("en"), say("fr")];
  return {
    code,
    path: input.path,
    orderName: input.orderName,
    severity: typeof text.severity === "function" ? text.severity(params) : text.severity,
    params,
    message: { en: en.message, fr: fr.message },
    fix: { en: en.fix, fr: fr.fix },
  };
}

/** A stored problem rebuilt; null for a code this version does not know (a newer one wrote it). */
export function rebuildProblem(stored: StoredProblem): Problem | null {
  return isProblemCode(stored.code) ? problem(stored.code, stored) : null;
}

/** The part of a problem worth storing (the rest is rebuilt from the catalogue). */
export function storedProblem(found: Problem): StoredProblem {
  return { code: found.code, path: found.path, orderName: found.orderName, ...(found.params ? { params: found.params } : {}) };
}

/** A problem's sentence in one language: what is wrong, then what to do. */
export function problemSentence(stored: StoredProblem, lang: Lang): string | null {
  const rebuilt = rebuildProblem(stored);
  return rebuilt ? `${rebuilt.message[lang]} ${rebuilt.fix[lang]}` : null;
}
