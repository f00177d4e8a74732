import "server-only";
import { getDb } from "../database";
import { openRouter } from "../openrouter/configured";
import { claimRun, processRun } from "../probe/runner";
import { clearMemo } from "../queries/memo";
import { startLoop } from "./loop";

// The probe worker as the running app uses it: every few seconds (and at once when a run is
// created) it claims a queued run, or a running one whose worker died, and works it to the end.
// One run at a time per process; several processes on one PostgreSQL server share the runs.

async function round(): Promise<void> {
  const db = await getDb();
  for (let claimed = await claimRun(db); claimed; claimed = await claimRun(db)) {
    const outcome = await processRun(db, openRouter(), claimed.id, claimed.lease);
    console.log(`[probe] run ${claimed.id} ${outcome}`);
    clearMemo(); // pages show the verdicts at once
  }
}

function worker(intervalMs = 3_000) {
  return startLoop({
    name: "probe worker",
    intervalMs,
    firstDelayMs: 500, // resume a run left by a restart soon after start
    round,
    onError: (err) => console.error("[probe] worker failed:", (err as Error).message),
  });
}

export function startProbeWorker(intervalMs = 3_000): boolean {
  worker(intervalMs);
  return true;
}

/** Starts work on a newly created run without waiting for the next tick. */
export function wakeProbeWorker(): void {
  worker().wake();
}
