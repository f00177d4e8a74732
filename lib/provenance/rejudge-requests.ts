import "server-only";
import { backoffMs } from "../backoff";
import type { Db, DbOrTx } from "../db/engines";
import { errorLine } from "../security/error-line";
import { rejudge, type RejudgeResult, type RejudgeScope } from "./rejudge";

// Re-judgements as durable requests. A fact that changes classes (a probe run's verdicts, a known
// quantization, a dataset's view) asks for a re-judgement of what it touches by writing a row
// ("ProvenanceRejudge") before or with the change; the writer then runs it at once, and the
// re-judgement job (lib/jobs/provenance-rejudge.ts) runs any row left behind: by a process that
// died mid-pass (ten million records take a minute or more), or by a pass that failed (tried again
// after a pause). A pass claims its row with a lease it renews after every batch, writes its
// progress there (the provenance page shows it), and deletes the row only if no request came
// after it started (the row's version); otherwise the row stays for another pass. A pass judges
// again only what changed (lib/provenance/rejudge.ts), so running a request twice costs a read.

/** What a request re-judges: the generations under a model's views, or those of one dataset. */
export type RejudgeRequestScope = { modelId: string } | { dataset: string };

/** A pass holds its row this long after its last batch; a process that died frees it then. */
const LEASE_MS = 120_000;
/** A failed pass is tried again after 1-2 minutes, doubling per failure up to half an hour (lib/backoff.ts). */
const RETRY = { baseMs: 120_000, capMs: 30 * 60_000 };
/** Passes in a row for one request that keeps being asked again while it runs. */
const MAX_PASSES = 3;

export function scopeKey(scope: RejudgeRequestScope): string {
  return "modelId" in scope ? `model:${scope.modelId}` : `dataset:${scope.dataset}`;
}

function scopeOf(key: string): RejudgeScope {
  if (key.startsWith("model:")) return { modelId: key.slice("model:".length) };
  if (key.startsWith("dataset:")) return { dataset: key.slice("dataset:".length) };
  throw new Error(`re-judgement request with an unknown scope "${key}"`);
}

/** Asks for a re-judgement (in the caller's transaction when given one); a pending one is asked again. */
export async function requestRejudge(db: DbOrTx, scope: RejudgeRequestScope, reason: string, now = new Date()): Promise<void> {
  await db.$executeRaw`
    INSERT INTO "ProvenanceRejudge" (scope, reason, "requestedAt")
    VALUES (${scopeKey(scope)}, ${reason}, ${now})
    ON CONFLICT (scope) DO UPDATE SET reason = EXCLUDED.reason, "requestedAt" = EXCLUDED."requestedAt",
           version = "ProvenanceRejudge".version + 1, "nextAt" = NULL`;
}

export type RejudgeRun =
  | { state: "done"; result: RejudgeResult }
  /** Another pass holds the request: it will see this request's version and go round again. */
  | { state: "busy" }
  /** No such request (done by another pass already), or it waits for its retry time. */
  | { state: "absent" };

/**
 * Runs one request now: claims it, re-judges its scope, and removes it unless it was asked again
 * meanwhile (then it runs again, up to MAX_PASSES, and leaves it to the job after that). A pass
 * that throws records the error and the time to try again, and rethrows.
 */
export async function runRejudgeRequest(db: Db, scope: RejudgeRequestScope | string, now: () => Date = () => new Date()): Promise<RejudgeRun> {
  const key = typeof scope === "string" ? scope : scopeKey(scope);
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const start = now();
    const [claimed] = await db.$queryRaw<Array<{ version: number; attempts: number }>>`
      UPDATE "ProvenanceRejudge"
         SET "leaseUntil" = ${new Date(start.getTime() + LEASE_MS)}, "startedAt" = ${start}, judged = 0, total = NULL, attempts = attempts + 1
       WHERE scope = ${key} AND ("leaseUntil" IS NULL OR "leaseUntil" < ${start}) AND ("nextAt" IS NULL OR "nextAt" <= ${start})
   RETURNING version, attempts`;
    if (!claimed) {
      if (pass > 0) break;
      const [held] = await db.$queryRaw<Array<{ busy: boolean }>>`
        SELECT "leaseUntil" IS NOT NULL AND "leaseUntil" >= ${start} AS busy FROM "ProvenanceRejudge" WHERE scope = ${key}`;
      return held?.busy ? { state: "busy" } : { state: "absent" };
    }
    let result: RejudgeResult;
    try {
      result = await rejudge(db, scopeOf(key), {
        onProgress: async (judged, total) => {
          await db.$executeRaw`
            UPDATE "ProvenanceRejudge" SET judged = ${judged}, total = ${total}, "leaseUntil" = ${new Date(now().getTime() + LEASE_MS)}
             WHERE scope = ${key}`;
        },
      });
    } catch (err) {
      const message = errorLine(err, 300); // one line for the page, without a connection string
      const wait = backoffMs(claimed.attempts, RETRY);
      await db.$executeRaw`
        UPDATE "ProvenanceRejudge" SET "leaseUntil" = NULL, "lastError" = ${message}, "nextAt" = ${new Date(now().getTime() + wait)}
         WHERE scope = ${key}`;
      throw err;
    }
    const removed = await db.$executeRaw`DELETE FROM "ProvenanceRejudge" WHERE scope = ${key} AND version = ${claimed.version}`;
    if (removed > 0) return { state: "done", result };
    // Asked again while it ran: free the row, and go round for the newer request.
    await db.$executeRaw`UPDATE "ProvenanceRejudge" SET "leaseUntil" = NULL, attempts = 0, "lastError" = NULL WHERE scope = ${key}`;
  }
  return { state: "busy" };
}

/** Runs every request that is due (left by a dead process, or waiting to be tried again). Returns those done. */
export async function runPendingRejudges(db: Db, now: () => Date = () => new Date()): Promise<number> {
  const due = await db.$queryRaw<Array<{ scope: string }>>`
    SELECT scope FROM "ProvenanceRejudge"
     WHERE ("leaseUntil" IS NULL OR "leaseUntil" < ${now()}) AND ("nextAt" IS NULL OR "nextAt" <= ${now()})
     ORDER BY "requestedAt"`;
  let done = 0;
  for (const { scope } of due) {
    try {
      if ((await runRejudgeRequest(db, scope, now)).state === "done") done++;
    } catch (err) {
      console.error(`[provenance] re-judging ${scope} failed (tried again later): ${errorLine(err, 500)}`);
    }
  }
  return done;
}

export interface RejudgeRequestView {
  /** "the generations under moonshotai/kimi-k2.5's views", "dataset B4" */
  what: string;
  reason: string;
  requestedAt: string;
  /** running: a pass holds it; waiting: asked, not started (or its pass died); retrying: the last pass failed. */
  state: "running" | "waiting" | "retrying";
  startedAt: string | null;
  judged: number;
  total: number | null;
  lastError: string | null;
  nextAt: string | null;
}

/** The requests not done yet, oldest first, for the provenance page. */
export async function rejudgeRequests(db: Db, now = new Date()): Promise<RejudgeRequestView[]> {
  const rows = await db.provenanceRejudge.findMany({ orderBy: { requestedAt: "asc" } });
  return rows.map((r) => {
    const scope = scopeOf(r.scope);
    const running = r.leaseUntil !== null && r.leaseUntil >= now;
    return {
      what: "modelId" in scope ? `the generations under ${scope.modelId}’s saved views` : `dataset ${scope.dataset === "" ? "(no dataset)" : scope.dataset}`,
      reason: r.reason,
      requestedAt: r.requestedAt.toISOString(),
      state: running ? "running" : r.lastError !== null ? "retrying" : "waiting",
      startedAt: r.startedAt?.toISOString() ?? null,
      judged: running ? r.judged : 0,
      total: r.total,
      lastError: r.lastError,
      nextAt: r.nextAt?.toISOString() ?? null,
    };
  });
}
