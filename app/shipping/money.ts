/**
 * Money as integer minor units (cents), never binary floats. Shopify sends decimal strings ("59.9", "13.95").
 * The label service wants a comma and two decimals ("59,90").
 */

/** "59.9" -> 5990n. Returns undefined for anything that is not a plain non-negative decimal. */
export function toCents(amount: string): bigint | undefined {
  const match = /^\s*([0-9]+)(?:\.([0-9]+))?\s*$/.exec(amount);
  if (!match) return undefined;
  const whole = BigInt(match[1]!);
  const fraction = match[2] ?? "";
  const firstTwo = BigInt((fraction + "00").slice(0, 2));
  // Round half up on the third decimal and beyond.
  const rest = fraction.slice(2);
  const roundUp = rest.length > 0 && rest[0]! >= "5";
  return whole * 100n + firstTwo + (roundUp ? 1n : 0n);
}

/** Divides a total by a quantity, rounding half up to the cent. */
export function divideHalfUp(totalCents: bigint, quantity: number): bigint {
  if (!Number.isInteger(quantity) || quantity <= 0) throw new RangeError("quantity must be a positive integer");
  const q = BigInt(quantity);
  return (totalCents * 2n + q) / (2n * q);
}

/** 5990n -> "59,90". */
export function formatComma(cents: bigint): string {
  const sign = cents < 0n ? "-" : "";
  const value = cents < 0n ? -cents : cents;
  return `${sign}${value / 100n},${String(value % 100n).padStart(2, "0")}`;
}
