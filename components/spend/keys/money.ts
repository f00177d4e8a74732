import Decimal from "decimal.js";
import { formatUsd } from "@/lib/budget/cost";

/** A USD decimal string for people ("$1,234.50"), or a dash when there is none. */
export function usd(value: string | null | undefined, none = "—"): string {
  return value === null || value === undefined ? none : formatUsd(new Decimal(value));
}
