import "server-only";
import { EMBEDDED_DB_IN_USE } from "../db/embedded-lock";
import type { Db } from "../db/engines";
import { errorLine } from "../security/error-line";
import { listWatchedModels, type WatchedModelSummary } from "./models";

// What GET /api/health answers: can the database be reached, when did each model last poll
// successfully, does the in-process scheduler run, and is polling keeping up. "degraded" (503)
// when the scheduler runs but a model has had no successful poll for three intervals, or none at
// all since the first interval after start; a server that does not poll by itself
// (POLL_INTERVAL_SECONDS=0: a cron calls POST /api/poll, or nobody) is never called degraded for
// that, since it cannot know when polls are due.

export const STALE_AFTER_INTERVALS = 3;

export type HealthStatus = "ok" | "degraded" | "unavailable";

export interface HealthReport {
  ok: boolean;
  status: HealthStatus;
  /** Why the status is not "ok", in words; null when it is. */
  reason: string | null;
  database: { reachable: boolean; engine: string | null; error?: string };
  scheduler: { running: boolean; intervalSeconds: number | null; startedAt: string | null };
  models: Array<{ id: string; lastSuccessAt: string | null; lastPollAt: string | null; lastPollOk: boolean | null; stale: boolean }>;
  checkedAt: string;
}

/** This process's scheduler: null when it does not poll by itself. */
export interface SchedulerFacts {
  intervalSeconds: number;
  startedAt: Date;
}

export interface HealthInputs {
  openDb: () => Promise<{ db: Db; engine: string }>;
  scheduler: SchedulerFacts | null;
  now?: Date;
  /** A database that does not answer within this is reported unreachable. */
  timeoutMs?: number;
}

export async function healthReport({ openDb, scheduler, now = new Date(), timeoutMs = 3_000 }: HealthInputs): Promise<HealthReport> {
  const checkedAt = now.toISOString();
  const schedulerShown = {
    running: scheduler !== null,
    intervalSeconds: scheduler?.intervalSeconds ?? null,
    startedAt: scheduler?.startedAt.toISOString() ?? null,
  };
  let models: WatchedModelSummary[];
  let engineName: string;
  try {
    const { db, engine } = await withTimeout(openDb(), timeoutMs);
    engineName = engine;
    models = await withTimeout(listWatchedModels(db), timeoutMs);
  } catch (err) {
    const error = oneLine(err);
    return {
      ok: false,
      status: "unavailable",
      reason: `The database cannot be reached: ${error}`,
      database: { reachable: false, engine: null, error },
      scheduler: schedulerShown,
      models: [],
      checkedAt,
    };
  }
  const judged = models.map((m) => ({ model: m, staleFor: scheduler ? stalePolling(m, scheduler, now) : null }));
  const stale = judged.filter((j) => j.staleFor !== null);
  return {
    ok: stale.length === 0,
    status: stale.length === 0 ? "ok" : "degraded",
    reason: stale.length === 0 ? null : stale.map((j) => j.staleFor).join(" "),
    database: { reachable: true, engine: engineName },
    scheduler: schedulerShown,
    models: judged.map(({ model: m, staleFor }) => ({
      id: m.id,
      lastSuccessAt: m.lastSuccessAt,
      lastPollAt: m.lastPoll?.at ?? null,
      lastPollOk: m.lastPoll?.ok ?? null,
      stale: staleFor !== null,
    })),
    checkedAt,
  };
}

/**
 * Why a model's polling is behind, or null when it is not. A model is behind when its last
 * successful poll is older than three intervals, with the scheduler given its first interval after
 * start before it is blamed (a server restarted after a day off is not degraded at once, and one
 * whose polls have all failed is degraded from the end of its first interval).
 */
export function stalePolling(model: Pick<WatchedModelSummary, "id" | "lastSuccessAt" | "lastPoll">, scheduler: SchedulerFacts, now: Date): string | null {
  const intervalMs = scheduler.intervalSeconds * 1000;
  const graceEnd = scheduler.startedAt.getTime() + intervalMs;
  const lastSuccess = model.lastSuccessAt ? Date.parse(model.lastSuccessAt) : null;
  const due = Math.max(graceEnd, lastSuccess === null ? -Infinity : lastSuccess + STALE_AFTER_INTERVALS * intervalMs);
  if (now.getTime() <= due) return null;
  const every = `the scheduler polls every ${duration(intervalMs)}`;
  const last = model.lastPoll && !model.lastPoll.ok ? `; the last poll failed${model.lastPoll.errorKind ? ` (${model.lastPoll.errorKind})` : ""}` : "";
  if (lastSuccess === null) {
    return `No poll of ${model.id} has ever succeeded; the server started ${duration(now.getTime() - scheduler.startedAt.getTime())} ago (${every}${last}).`;
  }
  return `No poll of ${model.id} has succeeded for ${duration(now.getTime() - lastSuccess)} (since ${model.lastSuccessAt}), more than ${STALE_AFTER_INTERVALS} intervals (${every}${last}).`;
}

/** "45 s", "5 min", "2 h 5 min": whole units, rounded down. */
function duration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** An error as one line, without a stack or a connection string. */
function oneLine(err: unknown): string {
  // The health route is open to monitors without credentials: no folder paths from here. Told by
  // its code, not instanceof: the open is shared by the whole process (lib/database.ts keeps it on
  // globalThis), so the error may come from another bundle chunk's copy of the class (a job's
  // round opening the database when the health check asked: a CI run caught the folder named).
  if ((err as { code?: unknown } | null)?.code === EMBEDDED_DB_IN_USE) return "The embedded database is in use by another process";
  return errorLine(err, 200);
}
