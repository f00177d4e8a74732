import Decimal from "decimal.js";

// Money is decimal, never binary floating point.

/** A price as a decimal string with at least two decimals: "0.45", "2.20", "0.075". */
export function priceString(value: Decimal.Value | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const d = new Decimal(value);
  return d.decimalPlaces() < 2 ? d.toFixed(2) : d.toString();
}

/**
 * An exact amount of USD as a decimal string: every digit kept, at least two decimals, never an
 * exponent and never a negative zero ("0.0117", "12.50", "-0.001", "0.00").
 */
export function exactUsd(value: Decimal.Value): string {
  const d = new Decimal(value);
  if (d.isZero()) return "0.00";
  return d.decimalPlaces() < 2 ? d.toFixed(2) : d.toFixed();
}

/** An amount rounded to cents for display, never "-0.00". */
export function centsUsd(value: Decimal.Value): string {
  const rounded = new Decimal(value).toDecimalPlaces(2);
  return rounded.isZero() ? "0.00" : rounded.toFixed(2);
}
