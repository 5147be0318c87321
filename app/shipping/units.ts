/** Weights to integer grams. Exact factors: 1 oz = 28.349523125 g, 1 lb = 453.59237 g. */
const GRAMS_PER_UNIT: Record<string, number> = {
  GRAMS: 1,
  KILOGRAMS: 1000,
  OUNCES: 28.349523125,
  POUNDS: 453.59237,
};

/** Grams for `quantity` units of an item, rounded to the nearest gram; undefined for an unknown unit or a bad value. */
export function toGrams(value: number, unit: string, quantity = 1): number | undefined {
  const factor = GRAMS_PER_UNIT[unit];
  if (factor === undefined || !Number.isFinite(value) || value < 0) return undefined;
  return Math.round(value * factor * quantity);
}
