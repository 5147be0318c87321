/**
 * The shipping rules page's form: rows of text fields (`rules.<row>.<field>`), each field named in the merchant's
 * words, in English and French. The rows are the draft: adding, removing, moving and simulating work on the posted
 * rows, and only Save stores them (read into rules on the server: rules-form.server.ts, which keeps the rules' schema
 * out of the page's bundle).
 */
import type { ShippingRule } from "../shipping/rules";

export const RULE_FIELDS = [
  "id",
  "name",
  "checkoutRate",
  "countries",
  "postcodePrefixes",
  "minWeightGrams",
  "maxWeightGrams",
  "minOrderValue",
  "maxOrderValue",
  "tags",
  "carrierName",
  "serviceName",
  "box",
  "insuredValue",
] as const;
export type RuleField = (typeof RULE_FIELDS)[number];
export type RuleRow = Record<RuleField, string>;

export interface RuleFieldError {
  en: string;
  fr: string;
}

const FIELD_NAMES: Record<RuleField, { en: string; fr: string }> = {
  id: { en: "Rule", fr: "Règle" },
  name: { en: "Rule name", fr: "Nom de la règle" },
  checkoutRate: { en: "Checkout rate", fr: "Tarif choisi au paiement" },
  countries: { en: "Countries", fr: "Pays" },
  postcodePrefixes: { en: "Postcodes starting with", fr: "Codes postaux commençant par" },
  minWeightGrams: { en: "Minimum weight (g)", fr: "Poids minimum (g)" },
  maxWeightGrams: { en: "Maximum weight (g)", fr: "Poids maximum (g)" },
  minOrderValue: { en: "Minimum order value", fr: "Montant minimum de la commande" },
  maxOrderValue: { en: "Maximum order value", fr: "Montant maximum de la commande" },
  tags: { en: "Order tags", fr: "Étiquettes (tags) de la commande" },
  carrierName: { en: "Carrier", fr: "Transporteur" },
  serviceName: { en: "Service", fr: "Service" },
  box: { en: "Box", fr: "Carton" },
  insuredValue: { en: "Insured value (€)", fr: "Valeur assurée (€)" },
};

export function ruleFieldName(field: RuleField, locale: "en" | "fr"): string {
  return FIELD_NAMES[field][locale];
}

export function emptyRuleRow(id: string): RuleRow {
  const row = Object.fromEntries(RULE_FIELDS.map((field) => [field, ""])) as RuleRow;
  row.id = id;
  return row;
}

/** Rows as posted, in their order (the row numbers may have gaps after a removal). */
export function rowsFromForm(fields: Record<string, string>): RuleRow[] {
  const byRow = new Map<number, RuleRow>();
  for (const [key, value] of Object.entries(fields)) {
    const match = /^rules\.([0-9]{1,2})\.([a-zA-Z]+)$/.exec(key);
    if (!match || !(RULE_FIELDS as readonly string[]).includes(match[2]!)) continue;
    const index = Number(match[1]);
    const row = byRow.get(index) ?? emptyRuleRow("");
    row[match[2] as RuleField] = value.slice(0, 200);
    byRow.set(index, row);
  }
  return [...byRow.entries()].sort(([a], [b]) => a - b).map(([, row]) => row);
}

export function rowFromRule(rule: ShippingRule): RuleRow {
  const when = rule.when;
  return {
    id: rule.id,
    name: rule.name,
    checkoutRate: when.checkoutRate ?? "",
    countries: (when.countries ?? []).join(", "),
    postcodePrefixes: (when.postcodePrefixes ?? []).join(", "),
    minWeightGrams: when.minWeightGrams?.toString() ?? "",
    maxWeightGrams: when.maxWeightGrams?.toString() ?? "",
    minOrderValue: when.minOrderValue ?? "",
    maxOrderValue: when.maxOrderValue ?? "",
    tags: (when.tags ?? []).join(", "),
    carrierName: rule.then.carrier.carrierName,
    serviceName: rule.then.carrier.serviceName,
    box: rule.then.box ?? "",
    insuredValue: rule.then.insuredValueCents === undefined ? "" : (rule.then.insuredValueCents / 100).toFixed(2),
  };
}
