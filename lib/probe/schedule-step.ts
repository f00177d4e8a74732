import "server-only";
import type { Db } from "../db/engines";
import { runSchedules } from "./schedule";

// The scheduled re-probe as a step after each poll cycle (listed in lib/jobs/after-cycle.ts): the
// cycle has just logged the changes that may make a run due. A queued run is picked up by the
// probe worker (lib/jobs/probe-worker.ts) on its next tick.
export const probeScheduleStep = {
  name: "probe schedule",
  async run(db: Db): Promise<void> {
    for (const o of await runSchedules(db)) {
      if (o.action === "queued") console.log(`[probe] scheduled run ${o.runId} of ${o.modelId} queued (${o.because})`);
      if (o.action === "skipped") console.log(`[probe] scheduled run of ${o.modelId} skipped: ${o.reason}`);
    }
  },
};
