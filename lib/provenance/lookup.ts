import "server-only";
import Decimal from "decimal.js";
import type { Db } from "../db/engines";
import { Prisma } from "../db/generated/client";
import type { OpenRouterClient } from "../openrouter/client";
import { OpenRouterError } from "../openrouter/errors";
import { rejudge } from "./rejudge";

// Enrichment (issue 21, item 4): a usage record imported with only its generation id gets its
// provider (and what else it lacked: model, tokens, cost, time) from OpenRouter's GET
// /generation?id=. The job's whole state is the GenerationLookup table, so it survives a restart:
//  - a round claims due rows with a lease (FOR UPDATE SKIP LOCKED), so two processes never look up
//    the same id at once, and a row claimed by a process that died is taken again when its lease ends;
//  - an answered row (found, not_found, failed) is never claimed again, so no id is asked twice
//    once it has an answer;
//  - a 404 (the endpoint lags behind the completion) is tried again later, spaced 30 s, 1, 2, 4 …
//    min, up to maxTries lookups, and then said (`not_found`);
//  - a 429 pushes every due row past its Retry-After (at least 1 s) and ends the round;
//  - 5xx, timeouts and network errors count as tries with the same spacing; a 401/403 (the key)
//    ends the round without counting, and says so in the progress;
//  - requests are paced to at most perSecond.
// Each answered record is judged again at the end of the round, like any other; one whose answer
// was stored by a process that died before that is judged at the start of the next round.

export type LookupState = "pending" | "found" | "not_found" | "failed";

export interface LookupOptions {
  /** At most this many lookups in one round. */
  batch?: number;
  perSecond?: number;
  maxTries?: number;
  /** The first retry after a 404 or a server error waits this long; each further one twice as long (capped at 30 min). */
  retryBaseMs?: number;
  leaseSeconds?: number;
  /** The time rows are due by (tests move it instead of waiting). */
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
}

export interface LookupRoundResult {
  claimed: number;
  found: number;
  /** 404s and errors that will be tried again. */
  later: number;
  notFound: number;
  failed: number;
  /** Set when a 429 (or the key) stopped the round: until when nothing is asked. */
  pausedUntil: string | null;
}

const MAX_SPACING_MS = 30 * 60_000;

export async function lookupRound(db: Db, client: OpenRouterClient, options: LookupOptions = {}): Promise<LookupRoundResult> {
  const { batch = 50, perSecond = 5, maxTries = 6, retryBaseMs = 30_000, leaseSeconds = 120 } = options;
  const now = options.now ?? (() => new Date());
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const result: LookupRoundResult = { claimed: 0, found: 0, later: 0, notFound: 0, failed: 0, pausedUntil: null };

  // Answers stored by a process that died before it judged them again: judge them now.
  const unjudged = await db.$queryRaw<Array<{ id: number }>>`
    SELECT l."recordId" AS id FROM "GenerationLookup" l JOIN "ProvenanceJudgement" j ON j."recordId" = l."recordId"
     WHERE l.state <> 'pending' AND j.class = 'awaiting' LIMIT 5000`;
  if (unjudged.length > 0) await rejudge(db, { recordIds: unjudged.map((r) => r.id) });

  const start = now();
  const claimed = await db.$queryRaw<Array<{ record_id: number; generation_id: string; attempts: number; missing: string[]; lease: Date }>>`
    UPDATE "GenerationLookup"
       SET "leaseUntil" = ${new Date(start.getTime() + leaseSeconds * 1000)}
     WHERE "recordId" IN (SELECT "recordId" FROM "GenerationLookup"
                           WHERE state = 'pending' AND "nextAt" <= ${start}
                             AND ("leaseUntil" IS NULL OR "leaseUntil" < ${start})
                           ORDER BY "nextAt", "recordId"
                           LIMIT ${batch}
                           FOR UPDATE SKIP LOCKED)
 RETURNING "recordId" AS record_id, "generationId" AS generation_id, attempts, missing, "leaseUntil" AS lease`;
  claimed.sort((a, b) => a.record_id - b.record_id);
  result.claimed = claimed.length;
  const touched: number[] = [];
  const spacing = 1000 / perSecond;
  let lastRequestAt = 0;

  for (const row of claimed) {
    const wait = lastRequestAt + spacing - Date.now();
    if (lastRequestAt > 0 && wait > 0) await sleep(wait);
    lastRequestAt = Date.now();
    const ours = { recordId: row.record_id, lease: row.lease };
    try {
      const answer = await client.generation(row.generation_id, { maxAttempts: 1 });
      await storeAnswer(db, ours, row.missing, answer.data.data, answer.raw, answer.demo, now());
      result.found++;
      touched.push(row.record_id);
    } catch (err) {
      const status = err instanceof OpenRouterError ? err.status : undefined;
      const message = describe(err);
      if (status === 429 || status === 401 || status === 403) {
        // Nothing more this round: wait out Retry-After (a 429), or a minute for the key to be fixed.
        const waitMs = status === 429 ? Math.max(1000, (err as OpenRouterError).retryAfterMs ?? 1000) : 60_000;
        const until = new Date(now().getTime() + waitMs);
        await db.$executeRaw`UPDATE "GenerationLookup" SET "lastError" = ${message} WHERE "recordId" = ${row.record_id}`;
        await db.$executeRaw`UPDATE "GenerationLookup" SET "nextAt" = ${until} WHERE state = 'pending' AND "nextAt" < ${until}`;
        result.pausedUntil = until.toISOString();
        break;
      }
      const retryable = status === 404 || status === undefined || status >= 500;
      const attempts = row.attempts + 1;
      const giveUp = !retryable || attempts >= maxTries || (err instanceof Error && !(err instanceof OpenRouterError));
      const state: LookupState = giveUp ? (status === 404 ? "not_found" : "failed") : "pending";
      const next = new Date(now().getTime() + Math.min(MAX_SPACING_MS, retryBaseMs * 2 ** (attempts - 1)));
      await db.$executeRaw`
        UPDATE "GenerationLookup" SET state = ${state}, attempts = ${attempts}, "nextAt" = ${next}, "lastError" = ${message}, "leaseUntil" = NULL
         WHERE "recordId" = ${ours.recordId} AND "leaseUntil" = ${ours.lease}`;
      if (state === "pending") result.later++;
      else if (state === "not_found") result.notFound++;
      else result.failed++;
      touched.push(row.record_id);
    }
  }
  // Rows claimed but not reached (a 429 ended the round) are free again at once.
  const touchedSet = new Set(touched);
  const untouched = claimed.map((c) => c.record_id).filter((id) => !touchedSet.has(id));
  if (untouched.length > 0) {
    await db.$executeRaw`UPDATE "GenerationLookup" SET "leaseUntil" = NULL
                           WHERE state = 'pending' AND "recordId" IN (${Prisma.join(untouched)}) AND "leaseUntil" = ${claimed[0].lease}`;
  }
  if (touched.length > 0) await rejudge(db, { recordIds: touched });
  return result;
}

interface GenerationData {
  provider_name: string;
  model?: string | null;
  total_cost: number;
  tokens_prompt?: number | null;
  tokens_completion?: number | null;
  native_tokens_prompt?: number | null;
  native_tokens_completion?: number | null;
  created_at?: string | null;
}

/** The answer, and what the record lacked, in one transaction; only while the row is still ours. */
async function storeAnswer(db: Db, ours: { recordId: number; lease: Date }, missing: string[], d: GenerationData, raw: string, demo: boolean, at: Date) {
  const fill = new Set(missing);
  // The cost exactly as OpenRouter wrote it (the JSON number's own digits), never through a float.
  const costText = /"total_cost"\s*:\s*(-?[0-9.]+(?:[eE][-+]?[0-9]+)?)/.exec(raw)?.[1] ?? String(d.total_cost);
  const cost = new Decimal(costText).toFixed();
  const input = d.native_tokens_prompt ?? d.tokens_prompt ?? null;
  const output = d.native_tokens_completion ?? d.tokens_completion ?? null;
  const created = d.created_at && !Number.isNaN(Date.parse(d.created_at)) ? new Date(d.created_at) : null;
  await db.$transaction(async (tx) => {
    const mine = await tx.$executeRaw`
      UPDATE "GenerationLookup" SET state = 'found', attempts = attempts + 1, answer = ${raw}, "answeredAt" = ${at}, demo = ${demo},
             "lastError" = NULL, "leaseUntil" = NULL
       WHERE "recordId" = ${ours.recordId} AND "leaseUntil" = ${ours.lease} AND state = 'pending'`;
    if (mine === 0) return; // another worker took it over after our lease ended, and answered it
    await tx.$executeRaw`
      UPDATE "UsageRecord" SET provider = ${d.provider_name},
             "modelId" = CASE WHEN ${fill.has("model")} THEN COALESCE(${d.model ?? null}, "modelId") ELSE "modelId" END,
             "inputTokens" = CASE WHEN ${fill.has("tokens") && input !== null} THEN ${String(input ?? 0)}::bigint ELSE "inputTokens" END,
             "outputTokens" = CASE WHEN ${fill.has("tokens") && output !== null} THEN ${String(output ?? 0)}::bigint ELSE "outputTokens" END,
             "costUsd" = CASE WHEN ${fill.has("cost")} THEN ${cost}::numeric ELSE "costUsd" END,
             "occurredAt" = CASE WHEN ${fill.has("time") && created !== null} THEN ${created}::timestamptz ELSE "occurredAt" END
       WHERE id = ${ours.recordId}`;
  });
}

function describe(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.slice(0, 300);
}

export interface LookupProgress {
  pending: number;
  found: number;
  notFound: number;
  failed: number;
  /** The next time a pending lookup is due (ISO), and the last error a pending one met. */
  nextAt: string | null;
  lastError: string | null;
}

/** How far the lookups are, for the provenance page. */
export async function lookupProgress(db: Db): Promise<LookupProgress> {
  const rows = await db.$queryRaw<Array<{ state: string; n: number; next_at: Date | null }>>`
    SELECT state, count(*)::int AS n, min("nextAt") AS next_at FROM "GenerationLookup" GROUP BY state`;
  const by = new Map(rows.map((r) => [r.state, r]));
  const last = await db.$queryRaw<Array<{ e: string }>>`
    SELECT "lastError" AS e FROM "GenerationLookup" WHERE state = 'pending' AND "lastError" IS NOT NULL ORDER BY "nextAt" DESC LIMIT 1`;
  return {
    pending: by.get("pending")?.n ?? 0,
    found: by.get("found")?.n ?? 0,
    notFound: by.get("not_found")?.n ?? 0,
    failed: by.get("failed")?.n ?? 0,
    nextAt: by.get("pending")?.next_at?.toISOString() ?? null,
    lastError: last[0]?.e ?? null,
  };
}
