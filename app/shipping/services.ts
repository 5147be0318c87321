/**
 * Which carrier service an order can be bought with. The label service's carrier-service lookup lists, per
 * destination country, the services it sells; a service outside that list is refused at purchase. The check is
 * pure: the caller passes the lookup's answer for the order's destination country.
 */
import type { DestinationZone } from "./customs";
import type { Problem } from "./problems";
import type { CarrierChoice } from "./settings";

/** One entry of the carrier-service lookup (as parsed by the label-service client). */
export interface OfferedService {
  /** The value to send as carrier_service_name. */
  name: string;
  /** The carrier, when the lookup says so; an entry without one is taken to be any carrier's. */
  carrier?: string;
  label?: string;
}

const sameText = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export function isOffered(choice: CarrierChoice, offered: readonly OfferedService[]): boolean {
  return offered.some((service) => service.name === choice.serviceName && (!service.carrier || sameText(service.carrier, choice.carrierName)));
}

/** The choices the lookup allows, as carrier + service (entries without a carrier keep the chosen carrier). */
export function offeredChoices(offered: readonly OfferedService[], fallbackCarrier: string): CarrierChoice[] {
  return offered.map((service) => ({ carrierName: service.carrier || fallbackCarrier, serviceName: service.name }));
}

/** "Dhl · DHL Express Worldwide (EU)": the service's own name, never its bare code when the lookup gives a name. */
export function serviceTitle(service: OfferedService, fallbackCarrier: string): string {
  return `${service.carrier || fallbackCarrier} · ${service.label || service.name}`;
}

/** A country's name in the merchant's language ("Espagne"), or its code when the runtime does not know it. */
export function countryName(code: string, locale: "en" | "fr"): string {
  try {
    const name = new Intl.DisplayNames([locale], { type: "region" }).of(code);
    return name && name !== code && !/unknown/i.test(name) ? name : code;
  } catch {
    return code;
  }
}

const ZONE_NAMES: Record<DestinationZone, { en: string; fr: string }> = {
  domestic: { en: "Domestic", fr: "National" },
  eu: { en: "European Union", fr: "Union européenne" },
  world: { en: "Rest of the world", fr: "Reste du monde" },
};

/**
 * The blocking problem for a service the lookup does not list for the destination country: it names the order,
 * the service, the country and the services that can be chosen instead.
 */
export function serviceNotOfferedProblem(input: {
  orderName: string;
  choice: CarrierChoice;
  country: string;
  offered: readonly OfferedService[];
  /** The zone whose default proposed this service; absent when the merchant chose it. */
  zone?: DestinationZone;
}): Problem {
  const { orderName, choice, country, offered, zone } = input;
  const en = countryName(country, "en");
  const fr = countryName(country, "fr");
  const titles = offered.map((service) => serviceTitle(service, choice.carrierName));
  const list = titles.join(", ");
  const settings = zone
    ? {
        en: ` Or change the default service for "${ZONE_NAMES[zone].en}" in Settings > Shipping.`,
        fr: ` Ou changez le service par défaut « ${ZONE_NAMES[zone].fr} » dans Paramètres > Expédition.`,
      }
    : { en: "", fr: "" };
  return {
    code: "service_not_offered",
    path: "carrier_service_name",
    orderName,
    severity: "blocking",
    params: {
      order: orderName,
      carrier: choice.carrierName,
      service: choice.serviceName,
      country,
      offered: offeredChoices(offered, choice.carrierName)
        .map((entry) => `${entry.carrierName}|${entry.serviceName}`)
        .join(","),
    },
    message: {
      en: `Order ${orderName}: the label service does not sell ${choice.carrierName} service "${choice.serviceName}" to ${en} (${country}), so this label cannot be bought.`,
      fr: `Commande ${orderName} : le service d'étiquettes ne vend pas le service « ${choice.serviceName} » de ${choice.carrierName} pour la destination ${fr} (${country}) : cette étiquette ne peut pas être achetée.`,
    },
    fix:
      titles.length > 0
        ? {
            en: `Choose a service offered to ${en} in "Service" on this page: ${list}.${settings.en}`,
            fr: `Choisissez dans « Service », sur cette page, un service proposé pour ${fr} : ${list}.${settings.fr}`,
          }
        : {
            en: `The label service offers no service to ${en}: ship this order another way, or ask the label service.`,
            fr: `Le service d'étiquettes ne propose aucun service pour ${fr} : expédiez cette commande autrement, ou interrogez le service d'étiquettes.`,
          },
  };
}
