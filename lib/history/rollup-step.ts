import "server-only";
import type { AfterCycleStep } from "../poller/after-cycle";
import { env } from "../env";
import { rollupHistory } from "./rollup";

/** The retention roll-up, run after every poll cycle in small batches. */
export const rollupStep: AfterCycleStep = {
  name: "rollup",
  async run(db) {
    const result = await rollupHistory(db, { retentionDays: env.RETENTION_DAYS });
    if (result.hoursInserted || result.rawDeleted) {
      console.log(`[poll] rollup: ${result.hoursInserted} hours rolled up, ${result.rawDeleted} raw rows deleted${result.complete ? "" : " (more next cycle)"}`);
    }
  },
};
