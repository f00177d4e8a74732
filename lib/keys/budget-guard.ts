import "server-only";
import Decimal from "decimal.js";
import type { Db } from "../db/engines";
import type { ManagementClient } from "../openrouter/management";
import { currentBudget } from "../spend/budget";
import { spendOverview } from "../spend/queries";
import { currentPipelineKey, describeLimit } from "./records";

// The answer a pipeline asks for before each batch (GET /api/budget): may it spend, and if not, why.
// OpenRouter enforces the key's limit itself; this adds the budget's own view and the emergency stop,
// so that a pipeline stops cleanly between batches instead of failing mid-batch.

export interface BudgetGuard {
  budgetUsd: string;
  spentUsd: string | null;
  remainingUsd: string | null;
  runOutAt: string | null;
  pipelineKey: { hash: string; limit: string | null; limitRemaining: string | null; disabled: boolean } | null;
  ok: boolean;
  reason: string;
}

export async function budgetGuard(db: Db, client: ManagementClient | null, now = new Date()): Promise<BudgetGuard> {
  const [setting, choice] = await Promise.all([currentBudget(db), currentPipelineKey(db)]);
  const overview = await spendOverview(db, setting, now);
  let pipelineKey: BudgetGuard["pipelineKey"] = null;
  let keyProblem: string | null = null;
  if (choice && client) {
    try {
      const key = (await client.getKey(choice.hash)).data;
      pipelineKey = { hash: key.hash, limit: money(key.limit), limitRemaining: money(key.limit_remaining), disabled: key.disabled };
    } catch (err) {
      keyProblem = (err as Error).message;
    }
  }
  const base = {
    budgetUsd: overview.budget.amountUsd,
    spentUsd: overview.spent,
    remainingUsd: overview.remaining,
    runOutAt: overview.runOut === null ? null : overview.runOut.at === "exhausted" ? now.toISOString() : overview.runOut.at,
    pipelineKey,
  };
  const stop = (reason: string): BudgetGuard => ({ ...base, ok: false, reason });
  if (pipelineKey?.disabled) return stop("The pipeline key is disabled (emergency stop on the spend page).");
  if (pipelineKey?.limitRemaining !== null && pipelineKey?.limitRemaining !== undefined && new Decimal(pipelineKey.limitRemaining).lte(0)) {
    return stop(`The pipeline key has reached its limit of ${describeLimit(pipelineKey.limit)}.`);
  }
  if (overview.remaining !== null && new Decimal(overview.remaining).lte(0)) {
    return stop(`The budget of $${overview.budget.amountUsd} is spent ($${overview.spent} since ${overview.budget.startAt.slice(0, 16).replace("T", " ")} UTC).`);
  }
  const parts: string[] = [];
  parts.push(overview.remaining !== null ? `$${overview.remaining} of $${overview.budget.amountUsd} left` : "no spend snapshot yet, so the budget's remainder is unknown");
  if (pipelineKey) parts.push(`the pipeline key has ${pipelineKey.limitRemaining === null ? "no limit" : `$${new Decimal(pipelineKey.limitRemaining).toFixed(2)} left under its limit`}`);
  else if (keyProblem) parts.push(`the pipeline key could not be read (${keyProblem}); OpenRouter still enforces its limit`);
  else if (!choice) parts.push("no pipeline key is chosen");
  return { ...base, ok: true, reason: `Within budget: ${parts.join("; ")}.` };
}

function money(value: string | null): string | null {
  return value === null ? null : new Decimal(value).toString();
}
