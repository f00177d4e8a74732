import Decimal from "decimal.js";
import type { AlertDraft } from "./view-conditions";

// The global budget conditions, decided (pure). lib/alerts/detect-budget.ts calls these in the
// transaction that stores a spend snapshot (the budget steps and the run-out) or the pipeline
// key's usage (its limit_remaining), with what the spend page's own code computed from them.

export const SPEND_STEPS = [50, 80, 100] as const;

export interface BudgetAlertState {
  version: 1;
  /** The steps already said, per budget (its amount and start: a new budget starts over). */
  steps: Record<string, number[]>;
  /** Whether the budget is projected to run out before the plan is covered (said once when it
   * becomes so, again only after it stopped being so). */
  runOut: boolean | null;
  /** Whether the pipeline key's limit_remaining is below the amount. */
  keyLow: boolean | null;
}

export interface BudgetSettings {
  spendSteps: boolean;
  runOut: boolean;
  /** Decimal string; null: the key-limit condition is off. */
  keyLimitBelowUsd: string | null;
}

export interface SpendFigures {
  budget: { amountUsd: string; startAt: string };
  spent: string | null;
  remaining: string | null;
  burn: { usdPerHour: string } | null;
  runOut: { at: string; hoursLeft: string } | { at: "exhausted" } | null;
  /** The rest of the plan at the rate paid so far (lib/usage/queries.ts planCostToFinish); null before any usage is imported. */
  plan: { toFinishUsd: string; outputTokensLeft: string } | null;
  demo: boolean;
}

export const emptyBudgetState = (): BudgetAlertState => ({ version: 1, steps: {}, runOut: null, keyLow: null });

const budgetKey = (b: SpendFigures["budget"]) => `${new Decimal(b.amountUsd).toFixed(2)}@${b.startAt}`;

/**
 * The spend steps reached and the run-out projection, against what was already said. A state never
 * written (the conditions just saved) records what is true now and says nothing.
 */
export function evaluateSpend(previous: BudgetAlertState | null, figures: SpendFigures, settings: BudgetSettings): { state: BudgetAlertState; events: AlertDraft[] } {
  const first = previous === null || previous.runOut === null; // no spend evaluated yet
  const state: BudgetAlertState = { ...(previous ?? emptyBudgetState()), steps: { ...(previous?.steps ?? {}) } };
  const events: AlertDraft[] = [];
  const demo = figures.demo ? { demo: true } : {};
  const amount = new Decimal(figures.budget.amountUsd);
  if (figures.spent !== null && amount.gt(0)) {
    const key = budgetKey(figures.budget);
    const said = new Set(state.steps[key] ?? []);
    const percent = new Decimal(figures.spent).div(amount).times(100);
    for (const step of SPEND_STEPS) {
      if (percent.lt(step) || said.has(step)) continue;
      said.add(step);
      if (first || !settings.spendSteps) continue;
      events.push({
        kind: "budget-spend",
        summary: `Spend reached ${step}% of the $${amount.toFixed(2)} budget: $${figures.spent} spent since ${figures.budget.startAt.slice(0, 10)}`,
        data: { step, budgetUsd: amount.toFixed(2), budgetStartAt: figures.budget.startAt, spentUsd: figures.spent, remainingUsd: figures.remaining, percent: percent.toFixed(1), old: null, new: step, ...demo },
      });
    }
    state.steps[key] = [...said].sort((a, b) => a - b);
  }
  const projected = runsOutBeforePlan(figures);
  if (settings.runOut && !first && projected && state.runOut !== true && figures.runOut) {
    const hoursLeft = "hoursLeft" in figures.runOut ? figures.runOut.hoursLeft : "0";
    const when = figures.runOut.at === "exhausted" ? "is used up" : `runs out at ${figures.runOut.at} (in ${hoursLeft} h)`;
    const plan = figures.plan ? `: the rest of the plan costs about $${figures.plan.toFinishUsd} at the rate paid so far, and $${figures.remaining ?? "0.00"} is left` : "";
    events.push({
      kind: "budget-run-out",
      summary: `At the current burn rate the $${amount.toFixed(2)} budget ${when}, before the plan is covered${plan}`,
      data: {
        runOutAt: figures.runOut.at,
        hoursLeft,
        burnUsdPerHour: figures.burn?.usdPerHour ?? null,
        remainingUsd: figures.remaining,
        budgetUsd: amount.toFixed(2),
        planToFinishUsd: figures.plan?.toFinishUsd ?? null,
        planOutputTokensLeft: figures.plan?.outputTokensLeft ?? null,
        old: null,
        new: figures.runOut.at,
        ...demo,
      },
    });
  }
  state.runOut = projected;
  return { state, events };
}

/**
 * The budget runs out before the plan is covered when a run-out is projected (spending goes on)
 * and what is left of the budget is less than the rest of the plan costs at the rate paid so far;
 * a budget used up counts unless the plan is known to be done. Without imported usage there is no
 * rate paid, so only a used-up budget can be judged.
 */
export function runsOutBeforePlan(figures: SpendFigures): boolean {
  if (figures.runOut === null) return false;
  const planLeft = figures.plan === null ? null : new Decimal(figures.plan.toFinishUsd);
  if (figures.runOut.at === "exhausted") return planLeft === null || planLeft.gt(0);
  if (planLeft === null || figures.remaining === null) return false;
  return new Decimal(figures.remaining).lt(planLeft);
}

/** The pipeline key's limit_remaining below the amount: said once when it falls below, again after it rose above. */
export function evaluateKeyLimit(
  previous: BudgetAlertState | null,
  key: { name: string; limitRemaining: string | null; demo: boolean },
  settings: BudgetSettings,
): { state: BudgetAlertState; events: AlertDraft[] } {
  const state: BudgetAlertState = { ...(previous ?? emptyBudgetState()) };
  const events: AlertDraft[] = [];
  if (settings.keyLimitBelowUsd === null || key.limitRemaining === null) {
    state.keyLow = null;
    return { state, events };
  }
  const below = new Decimal(key.limitRemaining).lt(settings.keyLimitBelowUsd);
  if (below && previous !== null && previous.keyLow === false) {
    events.push({
      kind: "key-limit",
      summary: `The pipeline key “${key.name}” has $${new Decimal(key.limitRemaining).toFixed(2)} of its limit left, below $${new Decimal(settings.keyLimitBelowUsd).toFixed(2)}`,
      data: { key: key.name, limitRemainingUsd: new Decimal(key.limitRemaining).toString(), belowUsd: new Decimal(settings.keyLimitBelowUsd).toFixed(2), old: "above", new: "below", ...(key.demo ? { demo: true } : {}) },
    });
  }
  state.keyLow = below;
  return { state, events };
}
