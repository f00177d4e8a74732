import "server-only";
import Decimal from "decimal.js";
import type { Db } from "../db/engines";
import { exactUsd } from "../money";
import type { ManagementClient } from "../openrouter/management";
import { currentBudget } from "../spend/budget";
import { spendOverview } from "../spend/queries";
import { currentPipelineKey } from "./pipeline-key";
import { describeLimit } from "./records";

// The answer a pipeline asks for before each batch (GET /api/budget): may it spend, and if not, why.
// OpenRouter enforces the key's limit itself; this adds the budget's own view and the emergency stop,
// so that a pipeline stops cleanly between batches instead of failing mid-batch. Money is exact
// (decimal strings with every digit). When OpenRouter's key API cannot be read, the pipeline key's
// last stored reading is given instead, marked stale with its time and age, and the failure is said.

export interface GuardPipelineKey {
  hash: string;
  limit: string | null;
  limitRemaining: string | null;
  /** "daily", "weekly" or "monthly": the limit applies to each such window; null: it never resets. */
  limitReset: string | null;
  disabled: boolean;
  /** When OpenRouter reported these figures. */
  readAt: string;
  /** Seconds between `readAt` and this answer. */
  ageSeconds: number;
  /** True when this is the last stored reading because the key could not be read just now. */
  stale: boolean;
}

export interface BudgetGuard {
  budgetUsd: string;
  spentUsd: string | null;
  remainingUsd: string | null;
  runOutAt: string | null;
  pipelineKey: GuardPipelineKey | null;
  /** Why OpenRouter's key API could not be read just now, or null. */
  keyReadError: string | null;
  ok: boolean;
  reason: string;
}

const text = (v: { toString(): string } | string | null | undefined) => (v === null || v === undefined ? null : new Decimal(v.toString()).toFixed());

export async function budgetGuard(db: Db, client: ManagementClient | null, now = new Date()): Promise<BudgetGuard> {
  const [setting, choice] = await Promise.all([currentBudget(db), currentPipelineKey(db)]);
  const overview = await spendOverview(db, setting, now);
  const age = (at: Date) => Math.max(0, Math.floor((now.getTime() - at.getTime()) / 1000));
  let pipelineKey: GuardPipelineKey | null = null;
  let keyReadError: string | null = null;
  if (choice && client) {
    try {
      const key = (await client.getKey(choice.hash)).data;
      pipelineKey = {
        hash: key.hash,
        limit: text(key.limit),
        limitRemaining: text(key.limit_remaining),
        limitReset: key.limit_reset ?? null,
        disabled: key.disabled,
        readAt: now.toISOString(),
        ageSeconds: 0,
        stale: false,
      };
    } catch (err) {
      keyReadError = (err as Error).message;
      const last = await db.keyUsageSnapshot.findFirst({ where: { keyHash: choice.hash }, orderBy: [{ observedAt: "desc" }, { id: "desc" }] });
      if (last) {
        pipelineKey = {
          hash: last.keyHash,
          limit: text(last.limit),
          limitRemaining: text(last.limitRemaining),
          limitReset: last.limitReset,
          disabled: last.disabled,
          readAt: last.observedAt.toISOString(),
          ageSeconds: age(last.observedAt),
          stale: true,
        };
      }
    }
  }
  const base = {
    budgetUsd: overview.budget.amountUsd,
    spentUsd: overview.spentExact,
    remainingUsd: overview.remainingExact,
    runOutAt: overview.runOut === null ? null : overview.runOut.at === "exhausted" ? now.toISOString() : overview.runOut.at,
    pipelineKey,
    keyReadError,
  };
  const asOf = pipelineKey?.stale ? ` (as last read, ${pipelineKey.readAt.slice(0, 16).replace("T", " ")} UTC; the key could not be read now: ${keyReadError})` : "";
  const stop = (reason: string): BudgetGuard => ({ ...base, ok: false, reason });
  if (pipelineKey?.disabled) return stop(`The pipeline key is disabled (emergency stop on the spend page)${asOf}.`);
  if (pipelineKey?.limitRemaining !== null && pipelineKey?.limitRemaining !== undefined && new Decimal(pipelineKey.limitRemaining).lte(0)) {
    return stop(`The pipeline key has reached its limit of ${describeLimit(pipelineKey.limit)}${pipelineKey.limitReset ? ` (resets ${pipelineKey.limitReset})` : ""}${asOf}.`);
  }
  if (overview.remainingExact !== null && new Decimal(overview.remainingExact).lte(0)) {
    return stop(`The budget of $${overview.budget.amountUsd} is spent ($${overview.spent} since ${overview.budget.startAt.slice(0, 16).replace("T", " ")} UTC).`);
  }
  const parts: string[] = [];
  parts.push(overview.remainingExact !== null ? `$${overview.remaining} of $${overview.budget.amountUsd} left` : "no spend snapshot yet, so the budget's remainder is unknown");
  if (pipelineKey) {
    const left = pipelineKey.limitRemaining === null ? "no limit" : `$${exactUsd(new Decimal(pipelineKey.limitRemaining).toDecimalPlaces(2))} left under its limit`;
    parts.push(`the pipeline key has ${left}${asOf}${pipelineKey.stale ? "; OpenRouter still enforces its limit" : ""}`);
  } else if (keyReadError) parts.push(`the pipeline key could not be read (${keyReadError}) and has no stored reading; OpenRouter still enforces its limit`);
  else if (!choice) parts.push("no pipeline key is chosen");
  return { ...base, ok: true, reason: `Within budget: ${parts.join("; ")}.` };
}
