import Decimal from "decimal.js";
import { chatCompletionSchema } from "../lib/openrouter/chat-schemas";
import { answerRecord } from "../lib/probe/answer-record";
import { chatRequestFor, orderForSending, planProbe, requestSeed, type PlanEndpoint } from "../lib/probe/plan";
import type { ProbePrompt } from "../lib/probe/prompts";
import { seededRandom } from "../lib/probe/random";
import { computeResults, type AnswerRow, type EndpointResult } from "../lib/probe/results";
import type { SamplerSettings } from "../lib/probe/settings";
import { completeChat, type ChatModel, type ChatState } from "./chat";

// A whole probe run in process: the probe's own planner, request bodies, sending order, answer
// reading and analysis (lib/probe), against the replica's chat completions called as a function
// (completeChat, what its HTTP handler wraps). What the bench and the error-rate tests measure is
// therefore what a real run does, without the database, HTTP or a worker in between.

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
}

export interface HarnessOutcome {
  results: EndpointResult[];
  answers: AnswerRow[];
  requests: number;
  costUsd: Decimal;
  /** Simulated wall time of the run (ms), from the first send to the last. */
  spanMs: number;
}

export function runProbeInProcess(run: HarnessRun): HarnessOutcome {
  // The replica draws each call's serving noise from how many times its endpoint was asked that
  // request before (state.counters). A fresh state would give every run the same noise, so each
  // run starts the counters at its own offset: as if the servers had served other traffic before.
  const offset = (run.seed * 7919) % 1_000_000;
  const counters = run.state.counters;
  run.state.counters = new Proxy(counters, { get: (target, key: string) => (key in target ? target[key] : offset) });
  const plan = planProbe(run.prompts, run.reference, run.endpoints);
  const ordered = orderForSending(plan.requests, run.seed);
  const gaps = seededRandom(run.seed ^ 0x5bd1e995);
  const start = run.startMs ?? 1_764_700_000_000;
  const meanGap = run.meanGapMs ?? 40;
  let now = start;
  let cost = new Decimal(0);
  const answers: AnswerRow[] = [];
  for (const r of ordered) {
    now += -Math.log(1 - gaps()) * meanGap;
    const seed = requestSeed(run.seed, r);
    const body = chatRequestFor(run.modelId, run.prompts[r.promptIndex].messages, { tag: r.tag, method: r.method, maxTokens: r.maxTokens, seed }, run.sampler);
    const answer = completeChat(run.state, body, now, run.findModel);
    const base = { tag: r.tag, role: r.role, method: r.method, promptIndex: r.promptIndex, sample: r.sample };
    const parsed = answer.status === 200 ? chatCompletionSchema.safeParse(answer.json) : null;
    if (!parsed?.success) {
      answers.push({ ...base, status: "error", servedProvider: null, promptTokens: null, reasoningTokens: null, text: null, tokens: null, topLogprobs: null, costUsd: null, answeredAt: null, cachedTokens: null });
      continue;
    }
    const record = answerRecord(parsed.data);
    if (record.cost) cost = cost.plus(record.cost);
    answers.push({
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
    });
  }
  const results = computeResults(
    { id: run.seed, referenceTag: run.reference.tag, referenceProvider: run.reference.provider, endpoints: plan.endpoints, promptCount: run.prompts.length, deltaNats: run.deltaNats },
    answers,
  );
  return { results, answers, requests: ordered.length, costUsd: cost, spanMs: now - start };
}
