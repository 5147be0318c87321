/**
 * Which carrier service an order can be bought with. The label service's carrier-service lookup lists, per
 * destination country, the services it sells; a service outside that list is refused at purchase. The check is
 * pure: the caller passes the lookup's answer for the order's destination country.
 */
import type { DestinationZone } from "./customs";
import { problem } from "./problem-texts";
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
  return problem("service_not_offered", {
    path: "carrier_service_name",
    orderName,
    params: {
      carrier: choice.carrierName,
      service: choice.serviceName,
      country,
      offered: offeredChoices(offered, choice.carrierName)
        .map((entry) => `${entry.carrierName}|${entry.serviceName}`)
        .join(","),
      titles: offered.map((service) => serviceTitle(service, choice.carrierName)).join(", "),
      ...(zone ? { zone } : {}),
    },
  });
}
