import Decimal from "decimal.js";

// Money is decimal, never binary floating point.

/** A price as a decimal string with at least two decimals: "0.45", "2.20", "0.075". */
export function priceString(value: Decimal.Value | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const d = new Decimal(value);
  return d.decimalPlaces() < 2 ? d.toFixed(2) : d.toString();
}
