import "server-only";
import { getDb } from "../db/client";
import { openRouter } from "../openrouter/configured";
import { clearMemo } from "../queries/memo";
import { claimRun, processRun } from "./runner";

// The probe worker as the running app uses it: every few seconds (and at once when a run is
// created) it claims a queued run, or a running one whose worker died, and works it to the end.
// One run at a time per process; several processes on one PostgreSQL server share the runs.

const holder = globalThis as unknown as { __routeboardProbeWorker?: { timer: NodeJS.Timeout; busy: boolean } };

async function tick(): Promise<void> {
  const worker = holder.__routeboardProbeWorker;
  if (!worker || worker.busy) return;
  worker.busy = true;
  try {
    const db = await getDb();
    for (let claimed = await claimRun(db); claimed; claimed = await claimRun(db)) {
      const outcome = await processRun(db, openRouter(), claimed.id, claimed.lease);
      console.log(`[probe] run ${claimed.id} ${outcome}`);
      clearMemo(); // pages show the verdicts at once
    }
  } catch (err) {
    console.error("[probe] worker failed:", (err as Error).message);
  } finally {
    worker.busy = false;
  }
}

export function startProbeWorker(intervalMs = 3_000): boolean {
  if (holder.__routeboardProbeWorker) return true;
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  holder.__routeboardProbeWorker = { timer, busy: false };
  setTimeout(() => void tick(), 500).unref(); // resume a run left by a restart soon after start
  return true;
}

/** Starts work on a newly created run without waiting for the next tick. */
export function wakeProbeWorker(): void {
  if (!holder.__routeboardProbeWorker) startProbeWorker();
  void tick();
}
