import Decimal from "decimal.js";
import { BUDGET_BOUNDS, withinBudgetBounds } from "./bounds";

// What counts as a budget amount, in one place: the spend page's form, the calculator's field
// and its `budget=` link value all read amounts with this, so they accept the same values and
// say the same bounds (./bounds.ts).

export { BUDGET_BOUNDS };

export type BudgetAmountResult = { ok: true; amount: Decimal } | { ok: false; message: string };

/** Reads "250", "$1,000.50" or "1000000000"; a refusal says what is wrong and the real bounds. */
export function readBudgetAmount(input: string): BudgetAmountResult {
  const text = input.trim().replace(/^\$/, "").replace(/,/g, "").trim();
  if (text === "") return { ok: false, message: `Enter a budget ${BUDGET_BOUNDS}, like 100 or 250.50` };
  if (/^-\s*\$?\d/.test(text)) return { ok: false, message: `A budget cannot be negative: use an amount ${BUDGET_BOUNDS}` };
  if (!/^\d+(\.\d+)?$/.test(text)) return { ok: false, message: `“${input.trim()}” is not an amount: use one ${BUDGET_BOUNDS}, like 100 or 250.50` };
  if (/\.\d{3,}$/.test(text)) return { ok: false, message: `Use whole cents (at most 2 decimals): an amount ${BUDGET_BOUNDS}` };
  if (!withinBudgetBounds(text)) return { ok: false, message: `Over the limit: a budget goes ${BUDGET_BOUNDS}` };
  return { ok: true, amount: new Decimal(text) };
}
