import "server-only";
import type { Db } from "../db/engines";
import type { OpenRouterClient } from "../openrouter/client";
import { activityStep } from "../activity/step";
import { rollupStep } from "../history/rollup-step";
import { probeScheduleStep } from "../probe/schedule-step";
import { spendSnapshotStep } from "../spend/snapshot";

// The registry of work that runs once per poll cycle after the models are polled. Each step lives
// in the folder that owns its work and imports nothing from here (this list checks its shape), so
// no step and this registry import each other. They run in this order, each failing on its own:
// an error is logged and the next step still runs.

export interface AfterCycleStep {
  name: string;
  run(db: Db, client: OpenRouterClient, cycleId: number): Promise<void>;
}

export const afterCycleSteps: readonly AfterCycleStep[] = [spendSnapshotStep, activityStep, rollupStep, probeScheduleStep];

export async function runAfterCycleSteps(db: Db, client: OpenRouterClient, cycleId: number): Promise<void> {
  for (const step of afterCycleSteps) {
    try {
      await step.run(db, client, cycleId);
    } catch (err) {
      console.error(`[poll] after-cycle step "${step.name}" failed:`, (err as Error).message);
    }
  }
}
