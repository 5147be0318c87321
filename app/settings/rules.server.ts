/**
 * The shipping rules page's server side: simulate a draft of rules over the shop's recent orders (which rule each
 * order hits and what it picks), and check each rule's service against the carrier-service lookup for every country
 * it can match, before any order meets it.
 */
import { destinationZone } from "../shipping/customs";
import { auditRules, chooseService, type RuleConflict, type ShippingRule } from "../shipping/rules";
import { isOffered, type OfferedService } from "../shipping/services";
import type { ShippingSettings } from "../shipping/settings";
import type { AdminGraphqlClient } from "../shopify/admin-client";
import { fetchRecentOrderFacts, type RecentOrderFacts } from "../shopify/operations/recent-order-facts";

export interface SimulatedOrder {
  orderId: string;
  orderName: string;
  checkoutRate: string | null;
  country: string | null;
  weightGrams: number;
  /** "rule" with its position and name, or the zone default that applies. */
  source: "rule" | "zone_default" | "no_address";
  rulePosition?: number;
  ruleName?: string;
  zone?: "domestic" | "eu" | "world";
  carrierName?: string;
  serviceName?: string;
  /** The service's own name from the lookup for the order's country ("Express Worldwide (EU)"), when it answered. */
  serviceLabel?: string;
  box?: string;
}

export function simulateOnOrders(rules: readonly ShippingRule[], settings: ShippingSettings, orders: readonly RecentOrderFacts[]): SimulatedOrder[] {
  const origin = { country: settings.sender.countryCode, zip: settings.sender.zip };
  return orders.map((order) => {
    const country = order.shippingAddress?.countryCodeV2?.trim().toUpperCase() || null;
    const base = { orderId: order.id, orderName: order.name, checkoutRate: order.shippingLine?.title ?? null, country, weightGrams: order.currentTotalWeight };
    if (!country) return { ...base, source: "no_address" as const };
    const zip = order.shippingAddress?.zip?.trim() ?? "";
    const zone = destinationZone(origin, { country, zip });
    const choice = chooseService(
      rules,
      {
        checkoutRateTitle: order.shippingLine?.title,
        checkoutRateCode: order.shippingLine?.code,
        country,
        postcode: zip,
        weightGrams: order.currentTotalWeight,
        orderValue: order.currentSubtotalPriceSet?.shopMoney.amount,
        tags: order.tags,
      },
      { zone, carrier: settings.carriers[zone] },
    );
    return choice.source === "rule"
      ? { ...base, source: "rule" as const, rulePosition: choice.position, ruleName: choice.rule.name, ...choice.carrier, box: choice.box }
      : { ...base, source: "zone_default" as const, zone, ...choice.carrier };
  });
}

/** Simulates over the shop's last `count` orders (order-level fields only; no line items are read). */
export async function simulateRules(admin: AdminGraphqlClient, rules: readonly ShippingRule[], settings: ShippingSettings, count = 100) {
  return simulateOnOrders(rules, settings, await fetchRecentOrderFacts(admin, count));
}

/**
 * Names each simulated order's service as the label service does for its country (one lookup per country; a lookup
 * that fails, or a service it does not list, leaves the code shown).
 */
export async function nameSimulatedServices(
  orders: readonly SimulatedOrder[],
  lookup: (country: string) => Promise<OfferedService[]>,
): Promise<SimulatedOrder[]> {
  const countries = [...new Set(orders.flatMap((order) => (order.country && order.serviceName ? [order.country] : [])))];
  const offered = new Map<string, OfferedService[]>();
  await Promise.all(
    countries.map(async (country) => {
      const services = await lookup(country).catch(() => undefined);
      if (services) offered.set(country, services);
    }),
  );
  return orders.map((order) => {
    if (!order.country || !order.serviceName || !order.carrierName) return order;
    const choice = { carrierName: order.carrierName, serviceName: order.serviceName };
    const service = offered.get(order.country)?.find((candidate) => isOffered(choice, [candidate]));
    return service?.label ? { ...order, serviceLabel: service.label } : order;
  });
}

/**
 * The countries a rule without a country condition can meet: those of the recent orders, plus the sender's own.
 * Lookups that fail are left unjudged (they never block a save).
 */
export async function auditShopRules(
  rules: readonly ShippingRule[],
  shipsTo: readonly string[],
  lookup: (country: string) => Promise<OfferedService[]>,
): Promise<RuleConflict[]> {
  const countries = new Set<string>(shipsTo.map((code) => code.toUpperCase()));
  for (const rule of rules) for (const code of rule.when.countries ?? []) countries.add(code);
  const offered = new Map<string, OfferedService[] | undefined>();
  await Promise.all(
    [...countries].map(async (code) => {
      offered.set(code, await lookup(code).catch(() => undefined));
    }),
  );
  return auditRules(rules, [...new Set(shipsTo.map((code) => code.toUpperCase()))], (code) => offered.get(code));
}
