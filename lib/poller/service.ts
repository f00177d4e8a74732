import "server-only";
import { getDb } from "../db/client";
import { env } from "../env";
import { openRouter } from "../openrouter/configured";
import { clearMemo } from "../queries/memo";
import { runAfterCycleSteps } from "./after-cycle";
import { runPollCycle, type CycleResult } from "./cycle";

// The poller as the running app uses it: the configured client and database, and an
// in-process scheduler so a self-hosted dashboard polls without an external cron.

export async function pollNow(trigger: string): Promise<CycleResult> {
  const db = await getDb();
  const client = openRouter();
  try {
    return await runPollCycle(db, client, {
      trigger,
      concurrency: env.POLL_CONCURRENCY,
      leaseSeconds: env.POLL_LEASE_SECONDS,
      uptimeThreshold: env.UPTIME_THRESHOLD,
      afterModels: (cycleId) => runAfterCycleSteps(db, client, cycleId),
    });
  } finally {
    clearMemo(); // the pages show the new snapshot (or failure) at once
  }
}

const holder = globalThis as unknown as { __routeboardScheduler?: NodeJS.Timeout };

export function startScheduler(): boolean {
  const seconds = env.POLL_INTERVAL_SECONDS;
  if (seconds === 0 || holder.__routeboardScheduler) return Boolean(holder.__routeboardScheduler);
  const tick = () =>
    pollNow("scheduler").catch((err) => console.error("[scheduler] poll cycle failed:", (err as Error).message));
  // First cycle shortly after start, then on the interval.
  setTimeout(tick, 2_000).unref();
  holder.__routeboardScheduler = setInterval(tick, seconds * 1000);
  holder.__routeboardScheduler.unref();
  return true;
}

export function schedulerRunning(): boolean {
  return Boolean(holder.__routeboardScheduler);
}
