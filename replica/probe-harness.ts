import Decimal from "decimal.js";
import { chatCompletionSchema } from "../lib/openrouter/chat-schemas";
import { answerRecord } from "../lib/probe/answer-record";
import { chatRequestFor, orderForSending, planProbe, requestSeed, type PlanEndpoint } from "../lib/probe/plan";
import type { ProbePrompt } from "../lib/probe/prompts";
import { seededRandom } from "../lib/probe/random";
import { computeResults, decidedByLook, type AnswerRow, type EndpointResult, type RunFacts } from "../lib/probe/results";
import { DRAFT_ROLE, NO_DRAFT_ERROR, prefillOf } from "../lib/probe/methods/on-policy";
import { orderInWaves, sequentialDesign, skipAfterLook, waveOf } from "../lib/probe/sequential";
import type { SamplerSettings } from "../lib/probe/settings";
import { completeChat, type ChatModel, type ChatState } from "./chat";

// A whole probe run in process: the probe's own planner, request bodies, sending order, answer
// reading and analysis (lib/probe), against the replica's chat completions called as a function
// (completeChat, what its HTTP handler wraps), with the runner's sequential design: waves in order,
// a look after each, decided endpoints' later requests not sent. What the bench and the error-rate
// tests measure is therefore what a real run does, without the database, HTTP or a worker between.

export interface HarnessRun {
  modelId: string;
  prompts: ProbePrompt[];
  reference: PlanEndpoint;
  endpoints: PlanEndpoint[];
  state: ChatState;
  /** The run's id: seeds the requests and the sending order. */
  seed: number;
  deltaNats: number;
  sampler: SamplerSettings;
  /** When the run starts (ms) and the mean gap between two sends (random, exponential). */
  startMs?: number;
  meanGapMs?: number;
  findModel?: (id: string) => ChatModel | null;
  /**
   * false: send every planned request, looks or not (the waves' order kept), so that the same
   * answers can be decided again at another Δ by computeResults(facts, answers): the sequential
   * rule at that Δ uses only the answers of the waves up to each look, which are the same.
   */
  stopEarly?: boolean;
}

export interface HarnessOutcome {
  results: EndpointResult[];
  answers: AnswerRow[];
  /** Requests sent; `skipped` were planned but not sent (decided at an early look). */
  requests: number;
  skipped: number;
  costUsd: Decimal;
  /** Simulated wall time of the run (ms), from the first send to the last. */
  spanMs: number;
  /** What the analysis was given besides the answers (to decide them again at another Δ). */
  facts: RunFacts;
}

export function runProbeInProcess(run: HarnessRun): HarnessOutcome {
  // The replica draws each call's serving noise from how many times its endpoint was asked that
  // request before (state.counters). A fresh state would give every run the same noise, so each
  // run starts the counters at its own offset: as if the servers had served other traffic before.
  const offset = (run.seed * 7919) % 1_000_000;
  const counters = run.state.counters;
  run.state.counters = new Proxy(counters, { get: (target, key: string) => (key in target ? target[key] : offset) });
  const plan = planProbe(run.prompts, run.reference, run.endpoints);
  const design = sequentialDesign(run.prompts.length, run.seed);
  // As the runner sends them: in the waves' random order, a prefilled read after its prompt's draft
  // is answered (here: a wave's prefilled reads after the rest of the wave, in the same order).
  const inWaves = orderInWaves(plan.requests, design, orderForSending, run.seed);
  const ordered = Array.from({ length: design.alphas.length }, (_, w) => inWaves.filter((r) => waveOf(design, r.promptIndex) === w)).flatMap((wave) => [
    ...wave.filter((r) => r.cut === 0),
    ...wave.filter((r) => r.cut > 0),
  ]);
  const drafts = new Map<number, AnswerRow>();
  const facts: RunFacts = { id: run.seed, referenceTag: run.reference.tag, referenceProvider: run.reference.provider, endpoints: plan.endpoints, promptCount: run.prompts.length, deltaNats: run.deltaNats, design };
  let skip: (r: { tag: string; role: string; method: string }) => boolean = () => false;
  let wave = 0;
  let sent = 0;
  const gaps = seededRandom(run.seed ^ 0x5bd1e995);
  const start = run.startMs ?? 1_764_700_000_000;
  const meanGap = run.meanGapMs ?? 40;
  let now = start;
  let cost = new Decimal(0);
  const answers: AnswerRow[] = [];
  for (const r of ordered) {
    const w = waveOf(design, r.promptIndex);
    // A wave settled: the runner's look (every request of a wave is answered before the next is sent).
    while (wave < w) {
      if (run.stopEarly !== false && wave < design.alphas.length - 1) skip = skipAfterLook(plan.endpoints, run.reference.tag, decidedByLook({ ...facts, design }, answers, wave));
      wave++;
    }
    if (skip(r)) continue;
    const base = { tag: r.tag, role: r.role, method: r.method, promptIndex: r.promptIndex, sample: r.sample, cut: r.cut };
    const draft = r.cut > 0 ? drafts.get(r.promptIndex) : null;
    const prefill = draft ? prefillOf(draft, r.cut) : null;
    if (r.cut > 0 && prefill === null) {
      answers.push({ ...base, status: "error", error: NO_DRAFT_ERROR, servedProvider: null, promptTokens: null, reasoningTokens: null, text: null, tokens: null, topLogprobs: null, costUsd: null, answeredAt: null, cachedTokens: null });
      continue;
    }
    sent++;
    now += -Math.log(1 - gaps()) * meanGap;
    const seed = requestSeed(run.seed, r);
    const body = chatRequestFor(run.modelId, run.prompts[r.promptIndex].messages, { tag: r.tag, method: r.method, maxTokens: r.maxTokens, seed, role: r.role, prefill }, run.sampler);
    const answer = completeChat(run.state, body, now, run.findModel);
    const parsed = answer.status === 200 ? chatCompletionSchema.safeParse(answer.json) : null;
    if (!parsed?.success) {
      answers.push({ ...base, status: "error", servedProvider: null, promptTokens: null, reasoningTokens: null, text: null, tokens: null, topLogprobs: null, costUsd: null, answeredAt: null, cachedTokens: null });
      continue;
    }
    const record = answerRecord(parsed.data);
    if (record.cost) cost = cost.plus(record.cost);
    const row: AnswerRow = {
      ...base,
      status: "done",
      servedProvider: record.servedProvider,
      promptTokens: record.promptTokens,
      reasoningTokens: record.reasoningTokens,
      text: record.text,
      tokens: record.tokens,
      topLogprobs: record.topLogprobs,
      costUsd: record.cost?.toString() ?? null,
      answeredAt: new Date(now),
      cachedTokens: record.cachedTokens,
    };
    answers.push(row);
    if (r.role === DRAFT_ROLE && record.servedProvider === run.reference.provider) drafts.set(r.promptIndex, row);
  }
  const results = computeResults(facts, answers);
  return { results, answers, requests: sent, skipped: ordered.length - sent, costUsd: cost, spanMs: now - start, facts };
}
