import "server-only";
import { getDb } from "../db/client";
import { env } from "../env";
import { wakeAlertSender } from "../alerts/service";
import { openRouter } from "../openrouter/configured";
import { clearMemo } from "../queries/memo";
import { runAfterCycleSteps } from "./after-cycle";
import { runPollCycle, type CycleResult } from "./cycle";
import { nextScheduledPoll, startSchedule, type Schedule } from "./schedule";

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
    wakeAlertSender(); // alerts the cycle wrote go out now, not at the sender's next tick
  }
}

const holder = globalThis as unknown as { __routeboardScheduler?: NodeJS.Timeout; __routeboardSchedule?: Schedule };
const FIRST_POLL_DELAY_MS = 2_000;

export function startScheduler(): boolean {
  const seconds = env.POLL_INTERVAL_SECONDS;
  if (seconds === 0 || holder.__routeboardScheduler) return Boolean(holder.__routeboardScheduler);
  const tick = () =>
    pollNow("scheduler").catch((err) => console.error("[scheduler] poll cycle failed:", (err as Error).message));
  // First cycle shortly after start, then on the interval.
  setTimeout(tick, FIRST_POLL_DELAY_MS).unref();
  holder.__routeboardScheduler = setInterval(tick, seconds * 1000);
  holder.__routeboardSchedule = startSchedule(Date.now(), seconds, FIRST_POLL_DELAY_MS);
  holder.__routeboardScheduler.unref();
  return true;
}

/** This process's scheduler as health judges it: its interval and start, or null when it does not run. */
export function schedulerFacts(): { intervalSeconds: number; startedAt: Date } | null {
  const schedule = holder.__routeboardSchedule;
  if (!schedule || !holder.__routeboardScheduler) return null;
  return { intervalSeconds: schedule.intervalMs / 1000, startedAt: new Date(schedule.startedAt) };
}

/** This process's scheduler: its interval and when it polls next (null when it is off). */
export function schedulerState(now = Date.now()): { intervalSeconds: number; nextPollAt: string | null } {
  const schedule = holder.__routeboardSchedule;
  return {
    intervalSeconds: env.POLL_INTERVAL_SECONDS,
    nextPollAt: schedule && holder.__routeboardScheduler ? new Date(nextScheduledPoll(schedule, now)).toISOString() : null,
  };
}
