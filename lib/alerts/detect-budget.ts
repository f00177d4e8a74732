import "server-only";
import { z } from "zod";
import type { Db, DbOrTx } from "../db/engines";
import type { Prisma } from "../db/generated/client";
import { currentPipelineKey } from "../keys/pipeline-key";
import { currentBudget } from "../spend/budget";
import { spendOverview } from "../spend/queries";
import { planCostToFinish, usageByDataset } from "../usage/queries";
import { DEFAULT_PLAN } from "../view-state/budget";
import { evaluateKeyLimit, evaluateSpend, type BudgetAlertState, type BudgetSettings } from "./budget-conditions";
import { writeAlertEvent } from "./outbox";

// The global budget conditions (the BudgetAlert row, id 1). Detected in the transaction that
// stores what they are about, as reactions (lib/reactions/registry.ts) to a spend snapshot
// (lib/spend/snapshot.ts), with the spend page's own overview (spent, burn rate, run-out) and the
// plan's cost to finish at the rate paid so far, and to the pipeline key's usage
// (lib/keys/records.ts). The reads go through the transaction: they see the row just written.

function settingsOf(row: { spendSteps: boolean; runOut: boolean; keyLimitBelowUsd: { toString(): string } | null }): BudgetSettings {
  return { spendSteps: row.spendSteps, runOut: row.runOut, keyLimitBelowUsd: row.keyLimitBelowUsd?.toString() ?? null };
}

async function write(tx: DbOrTx, events: ReturnType<typeof evaluateSpend>["events"], observedAt: Date) {
  for (const e of events) await writeAlertEvent(tx, { kind: e.kind, summary: e.summary, data: e.data as Prisma.InputJsonValue, observedAt });
}

/** After a spend snapshot is stored (same transaction): the spend steps and the run-out. */
export async function detectSpendAlerts(tx: DbOrTx, observedAt: Date, demo: boolean): Promise<number> {
  const row = await tx.budgetAlert.findUnique({ where: { id: 1 } });
  if (!row) return 0;
  const overview = await spendOverview(tx, await currentBudget(tx), observedAt);
  // The plan is the seed's (B3–B8, as /spend shows it without a link's own plan): nothing stores another.
  const plan = planCostToFinish(await usageByDataset(tx, DEFAULT_PLAN));
  const { state, events } = evaluateSpend((row.state as unknown as BudgetAlertState | null) ?? null, { ...overview, plan, demo }, settingsOf(row));
  await write(tx, events, observedAt);
  await tx.budgetAlert.update({ where: { id: 1 }, data: { state: state as unknown as Prisma.InputJsonValue } });
  return events.length;
}

/** After a key's usage is stored (same transaction): the pipeline key's limit_remaining. */
export async function detectKeyLimitAlert(tx: DbOrTx, key: { hash: string; name: string; limitRemaining: string | null }, demo: boolean, observedAt: Date): Promise<number> {
  const row = await tx.budgetAlert.findUnique({ where: { id: 1 } });
  if (!row) return 0;
  const pipeline = await currentPipelineKey(tx);
  if (pipeline?.hash !== key.hash) return 0;
  const { state, events } = evaluateKeyLimit((row.state as unknown as BudgetAlertState | null) ?? null, { name: pipeline.name, limitRemaining: key.limitRemaining, demo }, settingsOf(row));
  await write(tx, events, observedAt);
  await tx.budgetAlert.update({ where: { id: 1 }, data: { state: state as unknown as Prisma.InputJsonValue } });
  return events.length;
}

// ---- The conditions, as GET/PUT /api/alerts/budget read and change them.

export const budgetAlertInput = z
  .object({
    spendSteps: z.boolean(),
    runOut: z.boolean(),
    keyLimitBelowUsd: z
      .string()
      .regex(/^\d{1,12}(\.\d{1,2})?$/, "must be an amount in USD with at most 2 decimals, e.g. \"10.00\"")
      .nullable(),
  })
  .partial()
  .strict();

export interface BudgetAlertSettings extends BudgetSettings {
  /** Whether the conditions were ever saved (until then nothing is evaluated). */
  saved: boolean;
}

export async function getBudgetAlert(db: Db): Promise<BudgetAlertSettings> {
  const row = await db.budgetAlert.findUnique({ where: { id: 1 } });
  return row ? { ...settingsOf(row), keyLimitBelowUsd: row.keyLimitBelowUsd?.toFixed(2) ?? null, saved: true } : { spendSteps: true, runOut: true, keyLimitBelowUsd: null, saved: false };
}

export async function putBudgetAlert(db: Db, input: z.infer<typeof budgetAlertInput>): Promise<BudgetAlertSettings> {
  await db.budgetAlert.upsert({ where: { id: 1 }, create: { id: 1, ...input }, update: input });
  return getBudgetAlert(db);
}
