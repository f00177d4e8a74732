import { compareDecimals } from "../decimal-compare";

// The bounds of a budget amount, without decimal.js, so the calculator's link parser (which runs
// in the browser on the model page) can check them: $0 is allowed (a budget that says "spend
// nothing"); the top is a billion dollars, well inside the stored column (Decimal(14, 2)).

export const BUDGET_BOUNDS = "from $0 to $1,000,000,000";
const MAX_BUDGET_USD = "1000000000";

/** Whether a plain non-negative amount ("250", "1000.50") is within the bounds, exactly. */
export function withinBudgetBounds(amount: string): boolean {
  return compareDecimals(amount, "0") >= 0 && compareDecimals(amount, MAX_BUDGET_USD) <= 0;
}
