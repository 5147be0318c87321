/** Small helpers shared by the emulator: global ids, money in cents, Shopify-style decimals, weights. */

export function gid(type: string, id: number | string): string {
  return `gid://shopify/${type}/${id}`;
}

export function parseGid(value: unknown): { type: string; id: number } | null {
  if (typeof value !== "string") return null;
  const match = /^gid:\/\/shopify\/([A-Za-z]+)\/(\d+)(?:\?.*)?$/.exec(value);
  if (!match?.[1] || !match[2]) return null;
  return { type: match[1], id: Number(match[2]) };
}

/** "12.50" -> 1250. The seed is validated before this is called. */
export function toCents(decimal: string): number {
  const negative = decimal.startsWith("-");
  const [whole = "0", fraction = ""] = decimal.replace(/^-/, "").split(".");
  const cents = Number(whole) * 100 + Number((fraction + "00").slice(0, 2));
  return negative ? -cents : cents;
}

/**
 * Shopify serialises Decimal like Ruby's BigDecimal: at least one fractional digit, no trailing zeros
 * (1000 cents -> "10.0", 1250 -> "12.5", 1999 -> "19.99").
 */
export function centsToDecimal(cents: number): string {
  const rounded = Math.round(cents);
  const sign = rounded < 0 ? "-" : "";
  const abs = Math.abs(rounded);
  const whole = Math.floor(abs / 100);
  const fraction = String(abs % 100).padStart(2, "0").replace(/0$/, "");
  return `${sign}${whole}.${fraction === "" ? "0" : fraction}`;
}

export type WeightUnit = "GRAMS" | "KILOGRAMS" | "OUNCES" | "POUNDS";

const GRAMS_PER_UNIT: Record<WeightUnit, number> = {
  GRAMS: 1,
  KILOGRAMS: 1000,
  OUNCES: 28.349523125,
  POUNDS: 453.59237,
};

export function toGrams(weight: { value: number; unit: WeightUnit }): number {
  return weight.value * GRAMS_PER_UNIT[weight.unit];
}

export function isoNow(now: () => number): string {
  return new Date(now()).toISOString().replace(/\.\d{3}Z$/, "Z");
}

const countryNames = new Intl.DisplayNames(["en"], { type: "region" });

export function countryName(code: string): string {
  try {
    return countryNames.of(code) ?? code;
  } catch {
    return code;
  }
}
