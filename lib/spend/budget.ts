import "server-only";
import Decimal from "decimal.js";
import type { Db, DbOrTx } from "../db/engines";

// The budget the team spends against. Every change is a new row; the newest is in force.

export interface BudgetSetting {
  amountUsd: string;
  startAt: Date;
  /** False when no budget was ever saved: the seed's $100 from the first snapshot is assumed. */
  saved: boolean;
}

export const DEFAULT_BUDGET_USD = "100";

export async function currentBudget(db: DbOrTx): Promise<BudgetSetting | null> {
  const row = await db.budget.findFirst({ orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  return row ? { amountUsd: row.amountUsd.toFixed(2), startAt: row.startAt, saved: true } : null;
}

export async function saveBudget(db: Db, input: { amountUsd: string; startAt: Date }): Promise<BudgetSetting> {
  const row = await db.budget.create({ data: { amountUsd: new Decimal(input.amountUsd), startAt: input.startAt } });
  return { amountUsd: row.amountUsd.toFixed(2), startAt: row.startAt, saved: true };
}
