import "server-only";
import { getDb } from "../database";
import { env } from "../env";
import { openRouter } from "../openrouter/configured";
import { runPollCycle, type CycleResult } from "../poller/cycle";
import { nextScheduledPoll, startSchedule } from "../poller/schedule";
import { clearMemo } from "../queries/memo";
import { runAfterCycleSteps } from "./after-cycle";
import { wakeAlertSender } from "./alert-sender";
import { runningLoop, startLoop } from "./loop";

// The poller as the running app uses it: the configured client and database, the after-cycle
// steps, and an in-process scheduler so a self-hosted dashboard polls without an external cron.

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

const SCHEDULER = "poll scheduler";
const FIRST_POLL_DELAY_MS = 2_000;

/** Starts the scheduler unless POLL_INTERVAL_SECONDS is 0; whether it runs. */
export function startScheduler(): boolean {
  const seconds = env.POLL_INTERVAL_SECONDS;
  if (seconds === 0) return runningLoop(SCHEDULER) !== null;
  // The first cycle shortly after start, then on the interval.
  startLoop({
    name: SCHEDULER,
    intervalMs: seconds * 1000,
    firstDelayMs: FIRST_POLL_DELAY_MS,
    round: async () => {
      await pollNow("scheduler");
    },
    onError: (err) => console.error("[scheduler] poll cycle failed:", (err as Error).message),
  });
  return true;
}

function schedule() {
  const loop = runningLoop(SCHEDULER);
  return loop ? startSchedule(loop.startedAt, loop.intervalMs / 1000, loop.firstDelayMs) : null;
}

/** This process's scheduler as health judges it: its interval and start, or null when it does not run. */
export function schedulerFacts(): { intervalSeconds: number; startedAt: Date } | null {
  const s = schedule();
  return s ? { intervalSeconds: s.intervalMs / 1000, startedAt: new Date(s.startedAt) } : null;
}

/** This process's scheduler: its interval and when it polls next (null when it is off). */
export function schedulerState(now = Date.now()): { intervalSeconds: number; nextPollAt: string | null } {
  const s = schedule();
  return { intervalSeconds: env.POLL_INTERVAL_SECONDS, nextPollAt: s ? new Date(nextScheduledPoll(s, now)).toISOString() : null };
}
