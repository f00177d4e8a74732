// When the in-process scheduler polls next. Pure, so the page and its tests can reason about it
// without timers: the scheduler polls once `firstDelayMs` after it starts, then every interval
// counted from its start (setInterval's own rhythm).

export interface Schedule {
  startedAt: number;
  firstAt: number;
  intervalMs: number;
}

export function startSchedule(now: number, intervalSeconds: number, firstDelayMs: number): Schedule {
  return { startedAt: now, firstAt: now + firstDelayMs, intervalMs: intervalSeconds * 1000 };
}

/** The next instant a scheduled poll is due after `now` (a poll due exactly now counts as due now). */
export function nextScheduledPoll(schedule: Schedule, now: number): number {
  if (now <= schedule.firstAt) return schedule.firstAt;
  const elapsed = now - schedule.startedAt;
  return schedule.startedAt + Math.ceil(elapsed / schedule.intervalMs) * schedule.intervalMs;
}
