import type { AfterCycleStep } from "../poller/after-cycle";
import { runSchedules } from "./schedule";

// The scheduled re-probe as a step after each poll cycle: the cycle has just logged the changes
// that may make a run due. A queued run is picked up by the probe worker (lib/probe/service.ts)
// on its next tick.
export const probeScheduleStep: AfterCycleStep = {
  name: "probe schedule",
  async run(db) {
    for (const o of await runSchedules(db)) {
      if (o.action === "queued") console.log(`[probe] scheduled run ${o.runId} of ${o.modelId} queued (${o.because})`);
      if (o.action === "skipped") console.log(`[probe] scheduled run of ${o.modelId} skipped: ${o.reason}`);
    }
  },
};
