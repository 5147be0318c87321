/**
 * The recipient's country and postcode, checked as a carrier would (./address), as problems in English and French.
 * Used by the mapper on Shopify's address; the same function can check a recipient edited on the order page.
 */
import { checkPostcode, isKnownCountry } from "./address";
import type { Problem } from "./problems";
import { countryName } from "./services";

export function recipientAddressProblems(input: { orderName: string; country: string; zip: string; city: string }): Problem[] {
  const { orderName: name, zip } = input;
  const country = input.country.trim().toUpperCase();
  const problem = (severity: Problem["severity"], code: string, path: string, params: Record<string, string>, message: Problem["message"], fix: Problem["fix"]): Problem => ({
    code,
    path,
    orderName: name,
    severity,
    params: { order: name, ...params },
    message,
    fix,
  });
  if (!isKnownCountry(country)) {
    return [
      problem("blocking", "country_unknown", "recipient.country", { value: country }, {
        en: `Order ${name}: "${country}" in the shipping address is not a country code carriers know.`,
        fr: `Commande ${name} : « ${country} » dans l'adresse de livraison n'est pas un code pays connu des transporteurs.`,
      }, {
        en: "Choose the country again in the order's shipping address in Shopify (Orders > the order > Shipping address > Edit).",
        fr: "Choisissez à nouveau le pays dans l'adresse de livraison de la commande dans Shopify (Commandes > la commande > Adresse de livraison > Modifier).",
      }),
    ];
  }
  switch (checkPostcode(zip, { country, city: input.city })) {
    case "missing":
      return [
        problem("blocking", "zip_missing", "recipient.zip", { country }, {
          en: `Order ${name}: the shipping address has no postcode.`,
          fr: `Commande ${name} : l'adresse de livraison n'a pas de code postal.`,
        }, {
          en: "Add the postcode to the shipping address in Shopify, or type it in the recipient form here.",
          fr: "Ajoutez le code postal à l'adresse de livraison dans Shopify, ou saisissez-le ici dans le formulaire destinataire.",
        }),
      ];
    case "malformed":
      return [
        problem("blocking", "zip_invalid", "recipient.zip", { value: zip, country }, {
          en: `Order ${name}: the postcode "${zip}" is not a postcode of ${countryName(country, "en")}; the carrier would refuse the label.`,
          fr: `Commande ${name} : le code postal « ${zip} » n'est pas un code postal de ${countryName(country, "fr")} ; le transporteur refuserait l'étiquette.`,
        }, {
          en: "Correct the postcode in the recipient form here, or in the order's shipping address in Shopify.",
          fr: "Corrigez le code postal ici dans le formulaire destinataire, ou dans l'adresse de livraison de la commande dans Shopify.",
        }),
      ];
    case "unknown":
      return [
        problem("warning", "zip_unknown", "recipient.zip", { value: zip, country }, {
          en: `Order ${name}: the postcode ${zip} is not in La Poste's list of French postcodes.`,
          fr: `Commande ${name} : le code postal ${zip} ne figure pas dans la liste des codes postaux de La Poste.`,
        }, {
          en: "Check it with the customer (a CEDEX code is fine), and correct it in the recipient form here if needed.",
          fr: "Vérifiez-le avec le client (un code CEDEX convient), et corrigez-le ici dans le formulaire destinataire si besoin.",
        }),
      ];
    case "ok":
      return [];
  }
}
