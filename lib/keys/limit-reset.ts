import Decimal from "decimal.js";

// What a key limit that resets means in money. OpenRouter's limit_reset ("daily", "weekly",
// "monthly") applies the limit to each such UTC window, so a budget set as such a limit could be
// spent again every window. Used by the confirmation before enforcing the budget (client side too:
// no server-only import here).

/** A month here is 30 days: the figure is "about", for a person deciding, not an accounting. */
export const MONTH_DAYS = 30;

const DAYS_PER_WINDOW: Record<string, number> = { daily: 1, weekly: 7 };

/** The window a reset names, for a sentence: "day", "week", "month"; null for a value OpenRouter does not document. */
export function resetWindow(reset: string): string | null {
  return ({ daily: "day", weekly: "week", monthly: "month" } as Record<string, string>)[reset] ?? null;
}

/**
 * How much a limit of `limitUsd` that resets every window lets a key spend in a 30-day month, to the
 * cent: daily × 30, weekly × 30/7, monthly × 1. Null for an unknown reset.
 */
export function perMonthUsd(limitUsd: Decimal.Value, reset: string): string | null {
  if (reset === "monthly") return new Decimal(limitUsd).toFixed(2);
  const days = DAYS_PER_WINDOW[reset];
  if (days === undefined) return null;
  return new Decimal(limitUsd).times(MONTH_DAYS).div(days).toFixed(2);
}
