import Decimal from "decimal.js";
import type { PlannedEndpoint } from "./plan";
import {
  DEFAULT_VERDICT_OPTIONS,
  decideVerdicts,
  detectableEffect,
  mmdTest,
  pairedSignFlipTest,
  toDistribution,
  totalVariation,
  type EndpointEvidence,
  type EndpointVerdict,
  type TopLogprob,
} from "./statistics";

// From a run's stored answers to each endpoint's verdict. Pure: the runner stores what it returns.

export interface AnswerRow {
  tag: string;
  role: string;
  method: string;
  promptIndex: number;
  sample: number;
  status: string;
  servedProvider: string | null;
  promptTokens: number | null;
  reasoningTokens: number | null;
  text: string | null;
  topLogprobs: unknown;
  costUsd: Decimal.Value | null;
}

export interface RunFacts {
  id: number;
  referenceTag: string;
  referenceProvider: string;
  endpoints: PlannedEndpoint[];
  promptCount: number;
  alpha: number;
}

export interface EndpointResult extends EndpointVerdict {
  provider: string;
  servedBy: string[];
  costUsd: Decimal;
}

function topLogprobsOf(value: unknown): TopLogprob[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const out: TopLogprob[] = [];
  for (const item of value) {
    if (typeof item !== "object" || item === null) return null;
    const { token, logprob } = item as { token?: unknown; logprob?: unknown };
    if (typeof token !== "string" || typeof logprob !== "number") return null;
    out.push({ token, logprob });
  }
  return out;
}

export function computeResults(run: RunFacts, answers: AnswerRow[]): EndpointResult[] {
  const providerOf = new Map(run.endpoints.map((e) => [e.tag, e.provider]));
  providerOf.set(run.referenceTag, run.referenceProvider);
  // Only answers served by the pinned provider, without reasoning in them, are ever compared.
  const valid = (a: AnswerRow) => a.status === "done" && a.servedProvider === providerOf.get(a.tag) && !(a.reasoningTokens && a.reasoningTokens > 0);
  const of = (tag: string, role: string, method: string) => answers.filter((a) => a.tag === tag && a.role === role && a.method === method && valid(a));
  const byPrompt = <T>(rows: AnswerRow[], pick: (rows: AnswerRow[]) => T | null) => {
    const out = new Map<number, T>();
    const groups = new Map<number, AnswerRow[]>();
    for (const r of rows) groups.set(r.promptIndex, [...(groups.get(r.promptIndex) ?? []), r]);
    for (const [i, g] of groups) {
      const value = pick(g);
      if (value !== null) out.set(i, value);
    }
    return out;
  };
  const firstTop = (rows: AnswerRow[]) => topLogprobsOf(rows[0]?.topLogprobs);
  const texts = (rows: AnswerRow[]) => rows.map((r) => r.text ?? "");
  const referenceTokens = byPrompt(
    answers.filter((a) => a.tag === run.referenceTag && a.role === "reference" && valid(a) && a.promptTokens !== null),
    (rows) => rows[0].promptTokens,
  );
  const refA = byPrompt(of(run.referenceTag, "reference", "logprobs"), firstTop);
  const refB = byPrompt(of(run.referenceTag, "reference-repeat", "logprobs"), firstTop);
  const refSamplesA = byPrompt(of(run.referenceTag, "reference", "samples"), texts);
  const refSamplesB = byPrompt(of(run.referenceTag, "reference-repeat", "samples"), texts);
  const tested = Math.max(1, run.endpoints.length);
  const level = run.alpha / tested; // Bonferroni level for the detectable effect (Holm is at least as powerful)

  // The reference against itself on the samples path: one test, shared by every endpoint.
  const samplePrompts = [...refSamplesA.keys()].filter((i) => refSamplesB.has(i));
  const noiseMmd = samplePrompts.length
    ? mmdTest(samplePrompts.map((i) => ({ x: refSamplesB.get(i) ?? [], y: refSamplesA.get(i) ?? [] })), { seed: run.id + 7, alpha: level })
    : null;

  const evidence: EndpointEvidence[] = [];
  const extras: Array<Pick<EndpointResult, "provider" | "servedBy" | "costUsd">> = [];
  const all = [{ tag: run.referenceTag, provider: run.referenceProvider, method: null }, ...run.endpoints];
  for (const endpoint of all) {
    const isReference = endpoint.tag === run.referenceTag;
    const own = answers.filter((a) => a.tag === endpoint.tag && (isReference ? a.role !== "endpoint" : a.role === "endpoint"));
    const done = own.filter((a) => a.status === "done");
    const servedBy = [...new Set(done.map((a) => a.servedProvider ?? "?"))].sort();
    const servedByOthers = done.filter((a) => a.servedProvider !== endpoint.provider).length;
    const costUsd = own.reduce((sum, a) => (a.costUsd === null ? sum : sum.plus(a.costUsd)), new Decimal(0));
    extras.push({ provider: endpoint.provider, servedBy, costUsd });

    const endpointTokens = byPrompt(done.filter((a) => valid(a) && a.promptTokens !== null), (rows) => rows[0].promptTokens);
    let compared = 0;
    let mismatches = 0;
    for (const [i, tokens] of endpointTokens) {
      if (!referenceTokens.has(i)) continue;
      compared++;
      if (referenceTokens.get(i) !== tokens) mismatches++;
    }
    let test: EndpointEvidence["test"] = null;
    if (!isReference && endpoint.method === "logprobs") {
      const mine = byPrompt(of(endpoint.tag, "endpoint", "logprobs"), firstTop);
      const endpointTv: number[] = [];
      const noiseTv: number[] = [];
      for (const [i, top] of mine) {
        const a = refA.get(i);
        const b = refB.get(i);
        if (!a || !b) continue;
        const reference = toDistribution(a);
        endpointTv.push(totalVariation(toDistribution(top), reference));
        noiseTv.push(totalVariation(toDistribution(b), reference));
      }
      if (endpointTv.length > 0) {
        const r = pairedSignFlipTest(endpointTv, noiseTv, { seed: run.id });
        test = { method: "logprobs", statistic: r.statistic, noiseFloor: r.noiseFloor, pValue: r.pValue, promptsCompared: r.n, detectableEffect: detectableEffect(r.sdDifference, r.n, level) };
      }
    } else if (!isReference && endpoint.method === "samples") {
      const mine = byPrompt(of(endpoint.tag, "endpoint", "samples"), texts);
      const prompts = [...mine.keys()].filter((i) => refSamplesA.has(i));
      if (prompts.length > 0) {
        const r = mmdTest(prompts.map((i) => ({ x: mine.get(i) ?? [], y: refSamplesA.get(i) ?? [] })), { seed: run.id, alpha: level });
        test = {
          method: "samples",
          statistic: r.statistic,
          noiseFloor: noiseMmd?.statistic ?? NaN,
          pValue: r.pValue,
          promptsCompared: r.n,
          detectableEffect: r.criticalValue,
          noiseRejected: noiseMmd ? noiseMmd.pValue < run.alpha : true,
        };
      }
    }
    evidence.push({
      tag: endpoint.tag,
      isReference,
      servedByOthers,
      promptTokenMismatches: mismatches,
      promptTokensCompared: compared,
      promptsPlanned: run.promptCount,
      test,
    });
  }
  const verdicts = decideVerdicts(evidence, { ...DEFAULT_VERDICT_OPTIONS, alpha: run.alpha, minPrompts: Math.min(DEFAULT_VERDICT_OPTIONS.minPrompts, run.promptCount) });
  return verdicts.map((v, i) => ({ ...v, ...extras[i] }));
}
