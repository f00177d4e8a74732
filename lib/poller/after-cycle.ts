import "server-only";
import type { Db } from "../db/engines";
import type { OpenRouterClient } from "../openrouter/client";
import { activityStep } from "../activity/step";
import { rollupStep } from "../history/rollup-step";
import { probeScheduleStep } from "../probe/schedule-step";
import { spendSnapshotStep } from "../spend/snapshot";

// Work that runs once per poll cycle after the models are polled (spend snapshots, roll-ups of
// old rows, ...). Each step fails on its own: an error is logged and the next step still runs.

export interface AfterCycleStep {
  name: string;
  run(db: Db, client: OpenRouterClient, cycleId: number): Promise<void>;
}

export const afterCycleSteps: AfterCycleStep[] = [spendSnapshotStep, activityStep, rollupStep, probeScheduleStep];

export async function runAfterCycleSteps(db: Db, client: OpenRouterClient, cycleId: number): Promise<void> {
  for (const step of afterCycleSteps) {
    try {
      await step.run(db, client, cycleId);
    } catch (err) {
      console.error(`[poll] after-cycle step "${step.name}" failed:`, (err as Error).message);
    }
  }
}
