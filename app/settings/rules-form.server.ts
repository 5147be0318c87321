/**
 * The rules page's rows read into rules, on the server only (the action): the rules' schema (zod) never ships to the
 * page. Each error is named by rule and field, in English and French.
 */
import { shippingRulesSchema, type ShippingRule } from "../shipping/rules";
import { ruleFieldName, type RuleField, type RuleFieldError, type RuleRow } from "./rules-form";

const list = (text: string) =>
  text
    .split(/[,;\s]+/)
    .map((part) => part.trim())
    .filter(Boolean);

export type RulesParse =
  | { ok: true; rules: ShippingRule[] }
  | { ok: false; errors: Record<string, RuleFieldError>; rules?: undefined };

/** Reads the rows into rules. Errors are keyed `rules.<position>.<field>` (position in the posted order). */
export function parseRuleRows(rows: readonly RuleRow[], boxNames: readonly string[]): RulesParse {
  const errors: Record<string, RuleFieldError> = {};
  const fail = (position: number, field: RuleField, en: string, fr: string) => {
    errors[`rules.${position}.${field}`] ??= { en: `Rule ${position + 1}, ${ruleFieldName(field, "en")}: ${en}`, fr: `Règle ${position + 1}, ${ruleFieldName(field, "fr")} : ${fr}` };
  };
  const whole = (position: number, field: RuleField, text: string): number | undefined => {
    if (!text.trim()) return undefined;
    if (!/^[0-9]{1,6}$/.test(text.trim())) {
      fail(position, field, "type a whole number of grams, like 500.", "saisissez un nombre entier de grammes, par exemple 500.");
      return undefined;
    }
    return Number(text.trim());
  };
  const amount = (position: number, field: RuleField, text: string): string | undefined => {
    const trimmed = text.trim().replace(/\s/g, "");
    if (!trimmed) return undefined;
    if (!/^[0-9]{1,7}([.,][0-9]{1,2})?$/.test(trimmed)) {
      fail(position, field, "type an amount like 49.90.", "saisissez un montant comme 49,90.");
      return undefined;
    }
    return trimmed;
  };
  const candidates = rows.map((row, position) => {
    if (!row.name.trim()) fail(position, "name", "give the rule a name, like \"Express\".", "donnez un nom à la règle, par exemple « Express ».");
    if (!row.carrierName.trim()) fail(position, "carrierName", "choose the carrier this rule ships with.", "choisissez le transporteur de cette règle.");
    if (!row.serviceName.trim()) fail(position, "serviceName", "type the carrier's service name, as the label service lists it.", "saisissez le nom du service du transporteur, tel que le service d'étiquettes le liste.");
    const countries = list(row.countries).map((code) => code.toUpperCase());
    const badCountry = countries.find((code) => !/^[A-Z]{2}$/.test(code));
    if (badCountry) fail(position, "countries", `"${badCountry}" is not a two-letter country code; use codes like FR, BE, CH.`, `« ${badCountry} » n'est pas un code pays à deux lettres ; utilisez des codes comme FR, BE, CH.`);
    const prefixes = list(row.postcodePrefixes);
    const badPrefix = prefixes.find((prefix) => !/^[0-9A-Za-z]{1,5}$/.test(prefix));
    if (badPrefix) fail(position, "postcodePrefixes", `"${badPrefix}" is not a postcode start; use up to 5 letters or digits, like 20 or 97.`, `« ${badPrefix} » n'est pas un début de code postal ; utilisez jusqu'à 5 chiffres ou lettres, comme 20 ou 97.`);
    const minWeight = whole(position, "minWeightGrams", row.minWeightGrams);
    const maxWeight = whole(position, "maxWeightGrams", row.maxWeightGrams);
    if (minWeight !== undefined && maxWeight !== undefined && minWeight > maxWeight) {
      fail(position, "maxWeightGrams", "it must be at least the minimum weight.", "il doit être au moins égal au poids minimum.");
    }
    const minValue = amount(position, "minOrderValue", row.minOrderValue);
    const maxValue = amount(position, "maxOrderValue", row.maxOrderValue);
    const box = row.box.trim();
    if (box && !boxNames.includes(box)) fail(position, "box", `"${box}" is not one of your boxes; pick one defined in Settings.`, `« ${box} » ne fait pas partie de vos cartons ; choisissez-en un défini dans les Paramètres.`);
    const insured = amount(position, "insuredValue", row.insuredValue);
    return {
      id: row.id.trim() || `rule-${position + 1}`,
      name: row.name.trim(),
      when: {
        ...(row.checkoutRate.trim() ? { checkoutRate: row.checkoutRate.trim() } : {}),
        ...(countries.length ? { countries } : {}),
        ...(prefixes.length ? { postcodePrefixes: prefixes } : {}),
        ...(minWeight !== undefined ? { minWeightGrams: minWeight } : {}),
        ...(maxWeight !== undefined && maxWeight > 0 ? { maxWeightGrams: maxWeight } : {}),
        ...(minValue ? { minOrderValue: minValue } : {}),
        ...(maxValue ? { maxOrderValue: maxValue } : {}),
        ...(list(row.tags).length ? { tags: list(row.tags) } : {}),
      },
      then: {
        carrier: { carrierName: row.carrierName.trim(), serviceName: row.serviceName.trim() },
        ...(box ? { box } : {}),
        ...(insured ? { insuredValueCents: Math.round(Number(insured.replace(",", ".")) * 100) } : {}),
      },
    };
  });
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const parsed = shippingRulesSchema.safeParse(candidates);
  if (!parsed.success) {
    // What the checks above let through (a list too long, an id repeated by hand): named by rule, never as a path.
    for (const issue of parsed.error.issues) {
      const position = typeof issue.path[0] === "number" ? issue.path[0] : 0;
      fail(position, "name", "this rule could not be read; check its fields, or remove it and add it again.", "cette règle n'a pas pu être lue ; vérifiez ses champs, ou supprimez-la et ajoutez-la à nouveau.");
    }
    return { ok: false, errors };
  }
  return { ok: true, rules: parsed.data };
}
