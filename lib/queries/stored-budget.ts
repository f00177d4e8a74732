import "server-only";
import { getDb } from "../database";
import { currentBudget, DEFAULT_BUDGET_USD } from "../spend/budget";
import { memo, READ_REUSE_MS } from "./memo";

/** The budget in force as the model page's calculator starts from it, shared like the page's other reads (cached.ts). */
export function storedBudgetForView(): Promise<{ amountUsd: string; saved: boolean }> {
  return memo(
    "stored-budget",
    async () => {
      const setting = await currentBudget(await getDb());
      return setting ? { amountUsd: setting.amountUsd, saved: true } : { amountUsd: DEFAULT_BUDGET_USD, saved: false };
    },
    READ_REUSE_MS,
  );
}
