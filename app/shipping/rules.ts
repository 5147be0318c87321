/**
 * Shipping rules: the buyer's checkout rate (and the destination, weight, value, tags) picks the carrier service, the
 * box and the insurance. Rules are evaluated in order and the first match wins; the per-zone defaults of the settings
 * stay as the last rule. Pure: no I/O, shared by the mapper, the Settings simulation and the bulk preflight.
 */
import { z } from "zod";
import type { CarrierChoice } from "./settings";
import { isOffered, type OfferedService } from "./services";

const country = z.string().trim().toUpperCase().regex(/^[A-Z]{2}$/);
const money = z.string().trim().regex(/^[0-9]+([.,][0-9]{1,2})?$/);

export const shippingRuleSchema = z.object({
  id: z.string().trim().min(1).max(40),
  name: z.string().trim().min(1).max(60),
  when: z
    .object({
      /** Matches the checkout rate's title (case and accents ignored, contained) or its code (equal). */
      checkoutRate: z.string().trim().min(1).max(80).optional(),
      countries: z.array(country).max(60).optional(),
      /** Destination postcode starts with one of these ("20" Corsica, "97" overseas France). */
      postcodePrefixes: z.array(z.string().trim().regex(/^[0-9A-Za-z]{1,5}$/)).max(40).optional(),
      minWeightGrams: z.number().int().nonnegative().max(100_000).optional(),
      maxWeightGrams: z.number().int().positive().max(100_000).optional(),
      minOrderValue: money.optional(),
      maxOrderValue: money.optional(),
      /** The order carries at least one of these tags (case ignored). */
      tags: z.array(z.string().trim().min(1).max(40)).max(20).optional(),
    })
    .default({}),
  then: z.object({
    carrier: z.object({ carrierName: z.string().trim().min(1), serviceName: z.string().trim().min(1) }),
    box: z.string().trim().min(1).max(40).optional(),
    /** Insured value in euro cents (sent as the service's insured value). */
    insuredValueCents: z.number().int().nonnegative().max(10_000_000).optional(),
  }),
});
export type ShippingRule = z.infer<typeof shippingRuleSchema>;

export const shippingRulesSchema = z
  .array(shippingRuleSchema)
  .max(50)
  .refine((rules) => new Set(rules.map((rule) => rule.id)).size === rules.length, "rule ids must be unique");

/** What a rule is matched against, read from the order (and the parcel weight once the lines are summed). */
export interface RuleFacts {
  checkoutRateTitle?: string | null;
  checkoutRateCode?: string | null;
  country: string;
  postcode: string;
  weightGrams: number;
  /** The order's value as a decimal string in the shop currency. */
  orderValue?: string | null;
  tags?: readonly string[];
}

function fold(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

function amount(text: string): number {
  return Number(text.replace(",", "."));
}

/** Why a rule does not match these facts: the first condition that fails, or null when it matches. */
export function failedCondition(rule: ShippingRule, facts: RuleFacts): keyof ShippingRule["when"] | null {
  const when = rule.when;
  if (when.checkoutRate) {
    const wanted = fold(when.checkoutRate);
    const title = facts.checkoutRateTitle ? fold(facts.checkoutRateTitle) : "";
    const code = facts.checkoutRateCode ? fold(facts.checkoutRateCode) : "";
    if (!(title.includes(wanted) || code === wanted)) return "checkoutRate";
  }
  if (when.countries?.length && !when.countries.includes(facts.country.toUpperCase())) return "countries";
  if (when.postcodePrefixes?.length) {
    const postcode = facts.postcode.replace(/\s+/g, "").toUpperCase();
    if (!when.postcodePrefixes.some((prefix) => postcode.startsWith(prefix.toUpperCase()))) return "postcodePrefixes";
  }
  if (when.minWeightGrams !== undefined && facts.weightGrams < when.minWeightGrams) return "minWeightGrams";
  if (when.maxWeightGrams !== undefined && facts.weightGrams > when.maxWeightGrams) return "maxWeightGrams";
  if (when.minOrderValue !== undefined || when.maxOrderValue !== undefined) {
    if (!facts.orderValue) return when.minOrderValue !== undefined ? "minOrderValue" : "maxOrderValue";
    const value = amount(facts.orderValue);
    if (when.minOrderValue !== undefined && value < amount(when.minOrderValue)) return "minOrderValue";
    if (when.maxOrderValue !== undefined && value > amount(when.maxOrderValue)) return "maxOrderValue";
  }
  if (when.tags?.length) {
    const tags = new Set((facts.tags ?? []).map((tag) => tag.trim().toLowerCase()));
    if (!when.tags.some((tag) => tags.has(tag.toLowerCase()))) return "tags";
  }
  return null;
}

export type RuleChoice =
  | { source: "rule"; rule: ShippingRule; position: number; carrier: CarrierChoice; box?: string; insuredValueCents?: number }
  | { source: "zone_default"; zone: "domestic" | "eu" | "world"; carrier: CarrierChoice };

/** The first rule that matches, or the zone's default (the implicit last rule). */
export function chooseService(
  rules: readonly ShippingRule[],
  facts: RuleFacts,
  fallback: { zone: "domestic" | "eu" | "world"; carrier: CarrierChoice },
): RuleChoice {
  for (const [position, rule] of rules.entries()) {
    if (failedCondition(rule, facts) === null) {
      return { source: "rule", rule, position: position + 1, carrier: rule.then.carrier, box: rule.then.box, insuredValueCents: rule.then.insuredValueCents };
    }
  }
  return { source: "zone_default", zone: fallback.zone, carrier: fallback.carrier };
}

/** A rule that picks a service some destination it can match does not offer (per the carrier-service lookup). */
export interface RuleConflict {
  ruleId: string;
  ruleName: string;
  country: string;
  carrier: CarrierChoice;
  offered: OfferedService[];
}

/**
 * Checks each rule's service for every country it can match: its own countries, or, for a rule without a country
 * condition, each country the shop ships to (`shipsTo`: the countries of recent orders and the zone defaults).
 * A country whose lookup is unknown (undefined) is not judged.
 */
export function auditRules(
  rules: readonly ShippingRule[],
  shipsTo: readonly string[],
  offeredIn: (country: string) => OfferedService[] | undefined,
): RuleConflict[] {
  const conflicts: RuleConflict[] = [];
  for (const rule of rules) {
    const countries = rule.when.countries?.length ? rule.when.countries : [...new Set(shipsTo.map((code) => code.toUpperCase()))];
    for (const code of countries) {
      const offered = offeredIn(code);
      if (offered && !isOffered(rule.then.carrier, offered)) {
        conflicts.push({ ruleId: rule.id, ruleName: rule.name, country: code, carrier: rule.then.carrier, offered });
      }
    }
  }
  return conflicts;
}
