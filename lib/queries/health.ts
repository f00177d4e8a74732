import { EmbeddedDatabaseInUse } from "../db/embedded-lock";
import type { Db } from "../db/engines";
import { listWatchedModels } from "./models";

// What GET /api/health answers: can the database be reached, when did each model last poll
// successfully, and does the in-process scheduler run.

export interface HealthReport {
  ok: boolean;
  database: { reachable: boolean; engine: string | null; error?: string };
  scheduler: { running: boolean };
  models: Array<{ id: string; lastSuccessAt: string | null; lastPollAt: string | null; lastPollOk: boolean | null }>;
  checkedAt: string;
}

export interface HealthInputs {
  openDb: () => Promise<{ db: Db; engine: string }>;
  schedulerRunning: boolean;
  /** A database that does not answer within this is reported unreachable. */
  timeoutMs?: number;
}

export async function healthReport({ openDb, schedulerRunning, timeoutMs = 3_000 }: HealthInputs): Promise<HealthReport> {
  const checkedAt = new Date().toISOString();
  const scheduler = { running: schedulerRunning };
  try {
    const { db, engine } = await withTimeout(openDb(), timeoutMs);
    const models = await withTimeout(listWatchedModels(db), timeoutMs);
    return {
      ok: true,
      database: { reachable: true, engine },
      scheduler,
      models: models.map((m) => ({
        id: m.id,
        lastSuccessAt: m.lastSuccessAt,
        lastPollAt: m.lastPoll?.at ?? null,
        lastPollOk: m.lastPoll?.ok ?? null,
      })),
      checkedAt,
    };
  } catch (err) {
    return {
      ok: false,
      database: { reachable: false, engine: null, error: oneLine(err) },
      scheduler,
      models: [],
      checkedAt,
    };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The first line of an error, without a stack or a connection string. */
function oneLine(err: unknown): string {
  // The health route is open to monitors without credentials: no folder paths from here.
  if (err instanceof EmbeddedDatabaseInUse) return "The embedded database is in use by another process";
  const message = err instanceof Error ? err.message : String(err);
  return message.split("\n")[0].replace(/postgres(ql)?:\/\/\S+/gi, "postgresql://…").slice(0, 200);
}
