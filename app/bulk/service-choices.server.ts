/**
 * The bulk preflight's "which rule chose each order's service": the orders grouped by the shipping rule (or the zone
 * default) that picked their carrier service, each group named as the order page names it.
 */
import type { Locale } from "../i18n/locale";
import { translator } from "../i18n/translate.server";
import type { ServiceChoice } from "../shipping/map";
import type { BulkPreflight } from "./types";

export interface ServiceChoiceGroup {
  text: string;
  orders: { orderId: string; orderName: string }[];
}

type AutomaticChoice = Exclude<ServiceChoice, { source: "merchant" }>;

function choiceKey(choice: AutomaticChoice): string {
  return choice.source === "rule" ? `rule:${choice.position}` : `zone:${choice.zone}`;
}

/** Rules first, in their order, then the zone defaults; ready and blocked orders alike, in the preflight's order. */
export function serviceChoiceGroups(preflight: Pick<BulkPreflight, "ready" | "blocked">, locale: Locale): ServiceChoiceGroup[] {
  const t = translator(locale);
  const groups = new Map<string, { choice: AutomaticChoice; orders: { orderId: string; orderName: string }[] }>();
  for (const order of [...preflight.ready, ...preflight.blocked]) {
    // A job never carries the merchant's own pick (that is the order page's): only rules and zone defaults are named.
    const choice = order.serviceChoice;
    if (!choice || choice.source === "merchant") continue;
    const key = choiceKey(choice);
    const group = groups.get(key) ?? { choice, orders: [] };
    group.orders.push({ orderId: order.orderId, orderName: order.orderName });
    groups.set(key, group);
  }
  const rank = (choice: AutomaticChoice) => (choice.source === "rule" ? choice.position : 1000 + ["domestic", "eu", "world"].indexOf(choice.zone));
  return [...groups.values()]
    .sort((a, b) => rank(a.choice) - rank(b.choice))
    .map(({ choice, orders }) => ({
      text:
        choice.source === "rule"
          ? t("rules.order.byRule", { position: choice.position, name: choice.name })
          : t("rules.order.byZone", { zone: t(`orders.zone.${choice.zone}`) }),
      orders,
    }));
}
