import "server-only";
import type { Db } from "../db/engines";
import { env } from "../env";
import { rollupHistory } from "./rollup";

/** The retention roll-up, run after every poll cycle in small batches (listed in lib/jobs/after-cycle.ts). */
export const rollupStep = {
  name: "rollup",
  async run(db: Db): Promise<void> {
    const result = await rollupHistory(db, { retentionDays: env.RETENTION_DAYS });
    if (result.hoursInserted || result.rawDeleted) {
      console.log(`[poll] rollup: ${result.hoursInserted} hours rolled up, ${result.rawDeleted} raw rows deleted${result.complete ? "" : " (more next cycle)"}`);
    }
  },
};
