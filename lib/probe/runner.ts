import "server-only";
import Decimal from "decimal.js";
import type { Db } from "../db/engines";
import type { OpenRouterClient } from "../openrouter/client";
import { OpenRouterError } from "../openrouter/errors";
import { publishWritten } from "../reactions/publish";
import { backoffMs, retryDelayMs } from "../backoff";
import type { DivergenceEvidence } from "./methods/types";
import { DRAFT_ROLE, NO_DRAFT_ERROR, prefillOf } from "./methods/on-policy";
import { chatRequestFor, type PlannedEndpoint } from "./plan";
import { promptsOfRun } from "./prompt-sets";
import { answerRecord } from "./answer-record";
import { computeResults, decidedByLook, type AnswerRow, type RunFacts } from "./results";
import { designOfRun, skipAfterLook, waveOf } from "./sequential";
import { DEFAULT_DELTA_NATS, samplerOfRun } from "./settings";
import { provenanceFactsChanged } from "../provenance/hooks";
import { requestRejudge } from "../provenance/rejudge-requests";

// Runs a probe outside any HTTP request. The run row is the job: claimRun() takes a queued run,
// or a running one whose worker died (its lease expired), with an atomic UPDATE; processRun()
// sends the pending requests and stores every answer as it comes. A request whose answer is
// stored is never sent again; a request that was in flight when a worker died is sent again.
//
// Pacing: at most `concurrencyPerProvider` requests in flight per provider; a 429 pauses that
// provider for its Retry-After (or, without one, for the backoff); 5xx and network errors are
// retried with jittered backoff (lib/backoff.ts), up to `maxAttempts` per request. Before
// each request the worst case of everything spent, in flight and the request itself is checked
// against maxCostUsd: a request that could pass the cap is not sent and the run stops, saying so.

export interface RunnerOptions {
  concurrencyPerProvider?: number;
  maxAttempts?: number;
  leaseSeconds?: number;
  baseDelayMs?: number;
  /** Stops the worker as a crash would: nothing more is stored, the lease is left to expire. */
  signal?: AbortSignal;
  /** Called after each answer (or final error) is stored, and awaited; tests use it to crash or
   * cancel mid-run. The loop then reads the run's cancel flag on its next turn. */
  onStored?: (stored: number) => unknown;
}

export const PROBE_LEASE_SECONDS = 30;
/** No backoff between a request's attempts is longer than this (a Retry-After may be). */
const MAX_RETRY_DELAY_MS = 60_000;
/** Tries of one write of an answer before the run stops: 250 ms doubling to 10 s, about a minute in all. */
const STORE_ATTEMPTS = 10;
const STORE_BACKOFF = { baseMs: 250, capMs: 10_000 };
/** Tries of one sequential look before the run goes on without it (the same backoff: about a minute). */
const MAX_LOOK_FAILURES = STORE_ATTEMPTS;

/** Claims the oldest run that is queued, or running with an expired lease; its id and lease, or null. */
export async function claimRun(db: Db, leaseSeconds = PROBE_LEASE_SECONDS, runId?: number): Promise<{ id: number; lease: Date } | null> {
  const rows = await db.$queryRaw<Array<{ id: number; lease: Date }>>`
    UPDATE "ProbeRun"
       SET "leaseUntil" = now() + make_interval(secs => ${leaseSeconds}::int),
           status = 'running',
           "startedAt" = COALESCE("startedAt", now())
     WHERE id = (SELECT id FROM "ProbeRun"
                  WHERE status IN ('queued', 'running')
                    AND ("leaseUntil" IS NULL OR "leaseUntil" < now())
                    AND (${runId ?? null}::int IS NULL OR id = ${runId ?? null}::int)
                  ORDER BY id
                  LIMIT 1
                  FOR UPDATE SKIP LOCKED)
 RETURNING id, "leaseUntil" AS lease`;
  return rows[0] ?? null;
}

async function renewLease(db: Db, runId: number, lease: Date, leaseSeconds: number): Promise<Date | null> {
  const rows = await db.$queryRaw<Array<{ lease: Date }>>`
    UPDATE "ProbeRun" SET "leaseUntil" = now() + make_interval(secs => ${leaseSeconds}::int)
     WHERE id = ${runId} AND "leaseUntil" = ${lease}
 RETURNING "leaseUntil" AS lease`;
  return rows[0]?.lease ?? null;
}

interface PendingRequest {
  id: number;
  tag: string;
  role: string;
  /** Its prompt's wave in a sequential run (lib/probe/sequential.ts); 0 otherwise. */
  wave: number;
  method: string;
  promptIndex: number;
  /** A prefilled (on-policy) read: sent once its prompt's reference draft is answered. */
  cut: number;
  maxTokens: number;
  seed: number;
  attempts: number;
  worstCaseUsd: Decimal;
  notBefore: number;
}

/** What a prefilled read needs of its prompt's draft. */
type Draft = { tokens: unknown; reasoningTokens: number | null };

export type RunOutcome = "done" | "cancelled" | "failed" | "abandoned";

export async function processRun(db: Db, client: OpenRouterClient, runId: number, lease: Date, options: RunnerOptions = {}): Promise<RunOutcome> {
  const { concurrencyPerProvider = 2, maxAttempts = 6, leaseSeconds = PROBE_LEASE_SECONDS, baseDelayMs = 1000, signal, onStored } = options;
  const run = await db.probeRun.findUniqueOrThrow({ where: { id: runId } });
  const prompts = await promptsOfRun(db, run.promptSet);
  const plan = run.plan as unknown as PlannedEndpoint[];
  const sampler = samplerOfRun(run);
  const providerOf = new Map(plan.map((e) => [e.tag, e.provider]));
  const design = designOfRun(run.design);
  const looks = design?.alphas.length ?? 1;
  const pending: PendingRequest[] = (
    await db.probeRequest.findMany({ where: { runId, status: "pending" }, orderBy: { id: "asc" } })
  ).map((r) => ({ ...r, wave: waveOf(design, r.promptIndex), worstCaseUsd: new Decimal(r.worstCaseUsd.toString()), notBefore: r.notBefore?.getTime() ?? 0 }));
  // The reference's drafts (lib/probe/methods/on-policy.ts) by prompt: a prefilled read waits for
  // its prompt's; null when it failed or cannot be cut (its reads are then stored as not sent).
  const referenceProvider = providerOf.get(run.referenceTag) ?? run.referenceTag;
  const drafts = new Map<number, Draft | null>();
  const draftOf = (a: Draft & { status: string; servedProvider: string | null }) => (a.status === "done" && a.servedProvider === referenceProvider ? { tokens: a.tokens, reasoningTokens: a.reasoningTokens } : null);
  for (const d of await db.probeRequest.findMany({ where: { runId, role: DRAFT_ROLE, status: { not: "pending" } } })) drafts.set(d.promptIndex, draftOf(d));
  const ready = (r: PendingRequest) => r.cut === 0 || drafts.has(r.promptIndex);
  // A prompt's draft, once known, never changes: each cut's prefix is worked out once.
  const prefixes = new Map<string, string | null>();
  const prefixFor = (r: PendingRequest) => {
    if (r.cut === 0 || !drafts.has(r.promptIndex)) return null;
    const key = `${r.promptIndex}:${r.cut}`;
    let prefix = prefixes.get(key);
    if (prefix === undefined) {
      const draft = drafts.get(r.promptIndex);
      prefixes.set(key, (prefix = draft ? prefillOf(draft, r.cut) : null));
    }
    return prefix;
  };
  /** Interim looks taken by this worker (a resumed run takes again those of the waves already settled: same answers, same decisions). */
  let looked = 0;
  let lookFailures = 0;

  const cap = new Decimal(run.maxCostUsd.toString());
  let spent = new Decimal(run.costUsd.toString()).plus(run.uncertainUsd.toString());
  const inFlight = new Map<number, { provider: string; wave: number; worstCase: Decimal; done: Promise<void> }>();
  const pausedUntil = new Map<string, number>();
  let currentLease: Date | null = lease;
  let leaseRenewedAt = Date.now();
  let leaseInDoubt = false;
  let stored = 0;
  let stopReason: { status: "cancelled" | "failed"; error: string | null } | null = null;
  let cancelCheckedAt = 0;

  const providerKey = (tag: string) => providerOf.get(tag) ?? tag;
  const activeFor = (provider: string) => [...inFlight.values()].filter((f) => f.provider === provider).length;
  const reserved = () => [...inFlight.values()].reduce((s, f) => s.plus(f.worstCase), new Decimal(0));
  /** The first wave with a request not yet settled (pending or in flight); Infinity when none is left. */
  const openWave = () => Math.min(...pending.map((r) => r.wave), ...[...inFlight.values()].map((f) => f.wave));

  /**
   * Look j of a sequential run, once waves 0..j are settled: the endpoints whose interval clears Δ
   * there are decided, and their later requests are marked skipped and never sent; the reference's
   * requests of a method go too when every endpoint compared by that method is decided.
   */
  async function look(j: number): Promise<void> {
    const rows = await db.probeRequest.findMany({ where: { runId } });
    const decided = decidedByLook({ ...runFacts(run), design: design! }, answerRows(rows), j);
    if (decided.size === 0) return;
    const skip = pending.filter(skipAfterLook(plan, run.referenceTag, decided));
    if (skip.length === 0 || signal?.aborted) return;
    await db.probeRequest.updateMany({ where: { id: { in: skip.map((r) => r.id) }, status: "pending" }, data: { status: "skipped" } });
    const skipped = new Set(skip.map((r) => r.id));
    for (let i = pending.length - 1; i >= 0; i--) if (skipped.has(pending[i].id)) pending.splice(i, 1);
  }

  /**
   * A write of what a request came to, retried while the database does not take it (about a minute
   * in all, with the one backoff). If it never does, the run stops as failed, saying so: what was
   * stored is kept, and a resume sends only the requests without a stored outcome.
   */
  async function storeOrStop(write: () => Promise<unknown>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await write();
        return;
      } catch (err) {
        if (attempt >= STORE_ATTEMPTS || signal?.aborted) {
          stopReason ??= {
            status: "failed",
            error: `The database did not store an answer after ${STORE_ATTEMPTS} tries (${(err as Error).message.split("\n").filter(Boolean).pop()?.slice(0, 200)}): the run stopped; its stored answers are kept`,
          };
          throw err;
        }
        await new Promise((resolve) => setTimeout(resolve, backoffMs(attempt, STORE_BACKOFF)));
      }
    }
  }

  async function send(request: PendingRequest) {
    const provider = providerKey(request.tag);
    const body = chatRequestFor(run.modelId, prompts[request.promptIndex].messages, {
      tag: request.tag,
      method: request.method,
      maxTokens: request.maxTokens,
      seed: request.seed,
      role: request.role,
      prefill: prefixFor(request),
    }, sampler);
    const attempts = request.attempts + 1;
    let answer: Awaited<ReturnType<OpenRouterClient["chat"]>>;
    try {
      answer = await client.chat(body, { maxAttempts: 1 });
    } catch (err) {
      if (signal?.aborted) return;
      return failed(request, provider, attempts, err instanceof OpenRouterError ? err : new OpenRouterError("network", (err as Error).message, attempts));
    }
    if (signal?.aborted) return;
    // usage.cost is a JSON number; its shortest decimal form is the text OpenRouter sent.
    const record = answerRecord(answer.data);
    const cost = record.cost;
    // A paid answer is never dropped because the database was slow to take it (a loaded machine,
    // a pool waiting for a connection): the write is retried, and only a database that refuses
    // it for about a minute stops the run (storeOrStop).
    // Idempotent: a try whose commit reached the database though its answer was lost (the
    // connection cut at that moment) must not add the cost twice when it is tried again, so the
    // run's sums move only with the request's first change to `done`.
    await storeOrStop(() =>
      db.$transaction(async (tx) => {
        const changed = await tx.probeRequest.updateMany({
          where: { id: request.id, status: { not: "done" } },
          data: {
            status: "done",
            attempts,
            error: null,
            servedProvider: record.servedProvider,
            promptTokens: record.promptTokens,
            completionTokens: record.completionTokens,
            reasoningTokens: record.reasoningTokens,
            cachedTokens: record.cachedTokens,
            text: record.text,
            tokens: record.tokens ? (record.tokens as object) : undefined,
            topLogprobs: record.topLogprobs ? (record.topLogprobs as object) : undefined,
            costUsd: cost?.toString() ?? null,
            generationId: record.generationId,
            finishReason: record.finishReason,
            answeredAt: new Date(),
          },
        });
        if (changed.count === 0) return;
        // An answer without a cost counts at its worst case, so the cap still holds.
        await (cost
          ? tx.$executeRaw`UPDATE "ProbeRun" SET "costUsd" = "costUsd" + ${cost.toString()}::numeric WHERE id = ${runId}`
          : tx.$executeRaw`UPDATE "ProbeRun" SET "uncertainUsd" = "uncertainUsd" + ${request.worstCaseUsd.toString()}::numeric WHERE id = ${runId}`);
      }),
    );
    spent = spent.plus(cost ?? request.worstCaseUsd);
    if (request.role === DRAFT_ROLE) drafts.set(request.promptIndex, draftOf({ status: "done", servedProvider: record.servedProvider, tokens: record.tokens, reasoningTokens: record.reasoningTokens }));
    stored++;
    await onStored?.(stored);
    cancelCheckedAt = 0;
  }

  /** A request OpenRouter did not answer: retried later, or recorded as an error. */
  async function failed(request: PendingRequest, provider: string, attempts: number, error: OpenRouterError) {
    // A timeout may have been served and charged: its worst case counts against the cap.
    const uncertain = error.kind === "timeout" || error.kind === "network";
    const retryable = error.kind === "timeout" || error.kind === "network" || error.status === 429 || (error.status ?? 0) >= 500;
    const final = !retryable || attempts >= maxAttempts;
    let notBefore = 0;
    if (!final) {
      const wait = retryDelayMs(attempts, { baseMs: baseDelayMs, capMs: MAX_RETRY_DELAY_MS }, error.status === 429 ? error.retryAfterMs : null);
      notBefore = Date.now() + wait;
      // A 429 pauses the whole provider, not only this request.
      if (error.status === 429) pausedUntil.set(provider, Math.max(pausedUntil.get(provider) ?? 0, notBefore));
    }
    // Idempotent like the answer's write: the worst case is added once per attempt.
    await storeOrStop(() =>
      db.$transaction(async (tx) => {
        const changed = await tx.probeRequest.updateMany({
          where: { id: request.id, attempts: { lt: attempts } },
          data: {
            attempts,
            error: error.message.slice(0, 500),
            status: final ? "error" : "pending",
            notBefore: notBefore ? new Date(notBefore) : null,
          },
        });
        if (changed.count === 0 || !uncertain) return;
        await tx.$executeRaw`UPDATE "ProbeRun" SET "uncertainUsd" = "uncertainUsd" + ${request.worstCaseUsd.toString()}::numeric WHERE id = ${runId}`;
      }),
    );
    if (uncertain) spent = spent.plus(request.worstCaseUsd);
    if (final && request.role === DRAFT_ROLE) drafts.set(request.promptIndex, null);
    if (final) {
      stored++;
      await onStored?.(stored);
      cancelCheckedAt = 0;
    } else {
      pending.push({ ...request, attempts, notBefore });
      pending.sort((a, b) => a.id - b.id);
    }
  }

  // Abandoning (a test's crash) lets the answers already being written land, so that what is
  // stored is settled when this returns; nothing more is stored after the signal.
  const abandon = async () => {
    await Promise.allSettled([...inFlight.values()].map((f) => f.done));
    return "abandoned" as const;
  };
  while (true) {
    if (signal?.aborted) return abandon();
    const now = Date.now();
    // The database away for a moment: the lease is renewed as soon as it is back, and nothing new
    // is sent until then (another worker may take a run whose lease ran out); answers in flight
    // are stored when it is back (storeOrStop). The cancel check is asked again next round.
    if (currentLease && (leaseInDoubt || now - leaseRenewedAt > (leaseSeconds * 1000) / 3)) {
      try {
        currentLease = await renewLease(db, runId, currentLease, leaseSeconds);
        leaseRenewedAt = now;
        leaseInDoubt = false;
      } catch {
        leaseInDoubt = true;
      }
      if (!currentLease) return "abandoned"; // another worker holds the run now
    }
    if (!stopReason && now - cancelCheckedAt > 200) {
      cancelCheckedAt = now;
      const row = await db.probeRun.findUnique({ where: { id: runId }, select: { cancelRequested: true } }).catch(() => null);
      if (row?.cancelRequested) stopReason = { status: "cancelled", error: null };
    }
    // The signal may have come while this turn awaited the database (the lease, the cancel flag):
    // nothing is looked at, marked or sent after it.
    if (signal?.aborted) return abandon();
    // A sequential run looks when a wave is settled, before the next wave is sent. A look the
    // database did not answer is taken again on the next turn; nothing of the next wave goes first.
    if (design && !stopReason && !leaseInDoubt && looked < Math.min(openWave(), looks - 1)) {
      try {
        await look(looked);
        looked++;
        lookFailures = 0;
      } catch (err) {
        // A look that keeps failing (not a database away for a moment) must not hold the run: it
        // goes on without that look's early decisions, which only costs the requests it would have saved.
        if (++lookFailures >= MAX_LOOK_FAILURES) {
          console.error(`[probe] run ${runId}: look ${looked + 1} failed ${lookFailures} times (${(err as Error).message.split("\n")[0]}); going on without it`);
          looked++;
          lookFailures = 0;
        } else await new Promise((resolve) => setTimeout(resolve, backoffMs(lookFailures, STORE_BACKOFF)));
      }
      continue;
    }
    if (stopReason || pending.length === 0 || leaseInDoubt) {
      if (inFlight.size === 0 && !leaseInDoubt) break;
      await Promise.race([new Promise((resolve) => setTimeout(resolve, 250)), ...[...inFlight.values()].map((f) => f.done)]);
      continue;
    }
    // A prefilled read whose draft failed or cannot be cut is stored as not sent (no cost, an error saying why).
    const orphan = pending.findIndex((r) => r.cut > 0 && drafts.has(r.promptIndex) && prefixFor(r) === null);
    if (orphan >= 0) {
      const [r] = pending.splice(orphan, 1);
      try {
        await storeOrStop(() => db.probeRequest.updateMany({ where: { id: r.id, status: "pending" }, data: { status: "error", error: NO_DRAFT_ERROR } }));
        stored++;
        await onStored?.(stored);
      } catch {
        // storeOrStop has set stopReason: the loop ends the run.
      }
      continue;
    }
    const wave = openWave();
    const index = pending.findIndex((r) => r.wave === wave && ready(r) && r.notBefore <= now && (pausedUntil.get(providerKey(r.tag)) ?? 0) <= now && activeFor(providerKey(r.tag)) < concurrencyPerProvider);
    if (index < 0) {
      // Reads waiting for a draft that nothing will answer (never the case as planned): not sent.
      if (inFlight.size === 0) {
        for (const r of pending) if (r.wave === wave && !ready(r) && !pending.some((d) => d.role === DRAFT_ROLE && d.promptIndex === r.promptIndex)) drafts.set(r.promptIndex, null);
      }
      const wake = Math.min(...pending.filter((r) => r.wave === wave && ready(r)).map((r) => Math.max(r.notBefore, pausedUntil.get(providerKey(r.tag)) ?? 0)));
      const delay = Math.max(10, Math.min(200, wake - now));
      await Promise.race([new Promise((resolve) => setTimeout(resolve, delay)), ...[...inFlight.values()].map((f) => f.done)]);
      continue;
    }
    const next = pending[index];
    const worstCase = spent.plus(reserved()).plus(next.worstCaseUsd);
    if (worstCase.greaterThan(cap)) {
      stopReason = {
        status: "failed",
        error: `Stopped at the cost cap: the next request could cost up to $${next.worstCaseUsd.toFixed(6)}, and $${spent.plus(reserved()).toFixed(6)} is spent or in flight of the $${cap.toFixed(2)} cap`,
      };
      continue;
    }
    pending.splice(index, 1);
    // A write the database never took has set stopReason (storeOrStop); the loop ends the run.
    // Only this send's own entry is removed when it ends: a retry of the same request may have
    // been sent (and entered) by then.
    const entry = { provider: providerKey(next.tag), wave: next.wave, worstCase: next.worstCaseUsd, done: Promise.resolve() };
    inFlight.set(next.id, entry);
    entry.done = send(next)
      .catch(() => undefined)
      .finally(() => {
        if (inFlight.get(next.id) === entry) inFlight.delete(next.id);
      });
  }
  if (signal?.aborted) return abandon();
  return finishRun(db, runId, stopReason?.status ?? "done", stopReason?.error ?? null);
}

/** Computes and stores every endpoint's result, closes the run and frees the model for the next one. */
export async function finishRun(db: Db, runId: number, status: "done" | "cancelled" | "failed", error: string | null): Promise<RunOutcome> {
  const run = await db.probeRun.findUniqueOrThrow({ where: { id: runId } });
  const answers = await db.probeRequest.findMany({ where: { runId } });
  const results = computeResults(runFacts(run), answerRows(answers));
  const finite = (v: number | null | undefined) => (v === null || v === undefined || !Number.isFinite(v) ? null : v);
  await db.$transaction(async (tx) => {
    await tx.probeResult.deleteMany({ where: { runId } });
    await tx.probeResult.createMany({
      data: results.map((r) => ({
        runId,
        modelId: run.modelId,
        tag: r.tag,
        provider: r.provider,
        verdict: r.verdict,
        method: r.method,
        // One-sided p of "KL ≤ Δ"; the other legacy numbers (TV excess, Holm) are not computed any more.
        pValue: finite(r.divergence?.pValueAboveDelta),
        promptsCompared: r.promptsCompared,
        ...(r.divergence ? divergenceColumns(r.divergence, finite) : {}),
        ...(run.sampler && r.method ? { sampler: run.sampler } : {}),
        promptTokensMatch: r.promptTokensMatch,
        servedBy: r.servedBy,
        costUsd: r.costUsd.toString(),
        reason: r.reason,
      })),
    });
    await tx.probeRun.update({ where: { id: runId }, data: { status, error, finishedAt: new Date(), leaseUntil: null } });
    await tx.probeActiveRun.deleteMany({ where: { runId } });
    // A finished run's results are published to their reactions (the change log, the views' alerts).
    if (status === "done") await publishWritten(tx, { kind: "probe-result", modelId: run.modelId, runId, observedAt: new Date() });
    // Its verdicts change provenance classes: the re-judgement is asked for with them (a process
    // that dies before running it below leaves the request for the re-judgement job).
    if (status === "done") await requestRejudge(tx, { modelId: run.modelId }, `probe run ${runId}`);
  }, { timeout: 60_000, maxWait: 30_000 });
  if (status === "done") await provenanceFactsChanged(db, run.modelId, `probe run ${runId}`);
  return status;
}

type RunRow = Awaited<ReturnType<Db["probeRun"]["findUniqueOrThrow"]>>;

/** What the analysis needs of a run (lib/probe/results.ts). */
function runFacts(run: RunRow): RunFacts {
  const plan = run.plan as unknown as PlannedEndpoint[];
  const reference = plan.find((e) => e.tag === run.referenceTag);
  return {
    id: run.id,
    referenceTag: run.referenceTag,
    referenceProvider: reference?.provider ?? run.referenceTag,
    endpoints: plan.filter((e) => e.tag !== run.referenceTag),
    promptCount: run.promptCount,
    deltaNats: run.deltaNats ?? DEFAULT_DELTA_NATS,
    design: designOfRun(run.design),
  };
}

function answerRows(rows: Array<Omit<AnswerRow, "costUsd"> & { costUsd: Decimal.Value | { toString(): string } | null }>): AnswerRow[] {
  return rows.map((a) => ({ ...a, costUsd: a.costUsd?.toString() ?? null }));
}

function divergenceColumns(d: DivergenceEvidence, finite: (v: number | null | undefined) => number | null) {
  return {
    deltaNats: d.deltaNats,
    klNats: finite(d.klNats.estimate),
    klLowNats: finite(d.klNats.low),
    klHighNats: finite(d.klNats.high),
    tv: finite(d.tv.estimate),
    tvLow: finite(d.tv.low),
    tvHigh: finite(d.tv.high),
    aaKlNats: finite(d.aaKlNats.estimate),
    aaKlLowNats: finite(d.aaKlNats.low),
    aaKlHighNats: finite(d.aaKlNats.high),
    aaTv: finite(d.aaTv),
    referenceUnstable: d.referenceUnstable,
    detectableNats: finite(d.detectableNats),
    top1Agreement: finite(d.top1Agreement),
    positions: d.positions,
    onPolicyPositions: d.onPolicyPositions ?? null,
    prefill: d.prefill ?? null,
    logprobsKind: d.logprobs,
    cachedTokens: d.cachedTokens,
    confidence: d.confidence,
    look: d.look?.at ?? null,
    looks: d.look?.of ?? null,
    lookPrompts: d.look?.prompts ?? null,
  };
}
