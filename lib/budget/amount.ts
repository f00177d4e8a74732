import Decimal from "decimal.js";

// What counts as a budget amount, in one place: the spend page's form, the calculator's field
// and its `budget=` link value all read amounts with this, so they accept the same values and
// say the same bounds. $0 is allowed (a budget that says "spend nothing"); the top is a billion
// dollars, well inside the stored column (Decimal(14, 2)).

export const MAX_BUDGET_USD = new Decimal(1_000_000_000);
export const BUDGET_BOUNDS = "from $0 to $1,000,000,000";

export type BudgetAmountResult = { ok: true; amount: Decimal } | { ok: false; message: string };

/** Reads "250", "$1,000.50" or "1000000000"; a refusal says what is wrong and the real bounds. */
export function readBudgetAmount(input: string): BudgetAmountResult {
  const text = input.trim().replace(/^\$/, "").replace(/,/g, "").trim();
  if (text === "") return { ok: false, message: `Enter a budget ${BUDGET_BOUNDS}, like 100 or 250.50` };
  if (/^-\s*\$?\d/.test(text)) return { ok: false, message: `A budget cannot be negative: use an amount ${BUDGET_BOUNDS}` };
  if (!/^\d+(\.\d+)?$/.test(text)) return { ok: false, message: `“${input.trim()}” is not an amount: use one ${BUDGET_BOUNDS}, like 100 or 250.50` };
  if (/\.\d{3,}$/.test(text)) return { ok: false, message: `Use whole cents (at most 2 decimals): an amount ${BUDGET_BOUNDS}` };
  const amount = new Decimal(text);
  if (amount.gt(MAX_BUDGET_USD)) return { ok: false, message: `Over the limit: a budget goes ${BUDGET_BOUNDS}` };
  return { ok: true, amount };
}
