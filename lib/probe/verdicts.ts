import { probeMethod, type ProbeMethod } from "./methods";
import type { MethodTest } from "./methods/types";
import { holmAdjust } from "./statistics";

// An endpoint's verdict from what its method found, for every endpoint of a run at once.


export type Verdict = "reference" | "matches" | "differs" | "prompt-format" | "not-pinned" | "inconclusive";

export interface EndpointEvidence {
  tag: string;
  isReference: boolean;
  /** Answers served by another provider than the one pinned (never compared). */
  servedByOthers: number;
  /** Prompts whose usage.prompt_tokens differ from the reference's for the same prompt. */
  promptTokenMismatches: number;
  /** Prompts on which both sides reported prompt_tokens. */
  promptTokensCompared: number;
  /** Prompts planned for this endpoint. */
  promptsPlanned: number;
  /** The test's outcome, or null when nothing could be compared. */
  test: (MethodTest & { method: ProbeMethod }) | null;
}

export interface VerdictOptions {
  alpha: number;
  /** Fewer compared prompts than this share of the plan (or than minPrompts) is inconclusive. */
  minShareCompared: number;
  minPrompts: number;
  /** For logprobs: `matches` needs the run to be able to detect an excess TV at least this small. */
  maxDetectableTv: number;
}

export const DEFAULT_VERDICT_OPTIONS: VerdictOptions = { alpha: 0.01, minShareCompared: 0.8, minPrompts: 10, maxDetectableTv: 0.05 };

export interface EndpointVerdict {
  tag: string;
  verdict: Verdict;
  method: ProbeMethod | null;
  /** Holm-adjusted p-value (over the endpoints tested in this run); null when no test was made. */
  pValue: number | null;
  rawPValue: number | null;
  statistic: number | null;
  noiseFloor: number | null;
  detectableEffect: number | null;
  promptsCompared: number;
  promptTokensMatch: boolean | null;
  /** Plain words: why this verdict, with its numbers. */
  reason: string;
}

/** Decides every endpoint of a run at once (the correction is over the endpoints that were tested). */
export function decideVerdicts(evidence: EndpointEvidence[], options: VerdictOptions = DEFAULT_VERDICT_OPTIONS): EndpointVerdict[] {
  const minCompared = (e: EndpointEvidence) => Math.max(options.minPrompts, Math.ceil(options.minShareCompared * e.promptsPlanned));
  const tested = evidence.map((e) =>
    !e.isReference && e.servedByOthers === 0 && e.promptTokenMismatches === 0 && e.test && e.test.promptsCompared >= minCompared(e)
      ? e.test.pValue
      : null,
  );
  const adjusted = holmAdjust(tested);
  const testedCount = tested.filter((p) => p !== null).length;
  return evidence.map((e, i) => {
    const base = {
      tag: e.tag,
      method: e.test?.method ?? null,
      rawPValue: e.test?.pValue ?? null,
      pValue: adjusted[i],
      statistic: e.test?.statistic ?? null,
      noiseFloor: e.test?.noiseFloor ?? null,
      detectableEffect: e.test && Number.isFinite(e.test.detectableEffect) ? e.test.detectableEffect : null,
      promptsCompared: e.test?.promptsCompared ?? 0,
      promptTokensMatch: e.promptTokensCompared > 0 ? e.promptTokenMismatches === 0 : null,
    };
    if (e.isReference) return { ...base, verdict: "reference" as const, pValue: null, reason: "The reference endpoint" };
    if (e.servedByOthers > 0) {
      return { ...base, verdict: "not-pinned" as const, pValue: null, reason: `${e.servedByOthers} answer${e.servedByOthers === 1 ? " was" : "s were"} served by another provider` };
    }
    if (e.promptTokenMismatches > 0) {
      return {
        ...base,
        verdict: "prompt-format" as const,
        pValue: null,
        reason: `prompt tokens differ from the reference's on ${e.promptTokenMismatches} of ${e.promptTokensCompared} prompts (another chat template or tokenizer)`,
      };
    }
    if (!e.test || e.test.promptsCompared < minCompared(e)) {
      return { ...base, verdict: "inconclusive" as const, pValue: null, reason: `too few valid answers: ${e.test?.promptsCompared ?? 0} of ${e.promptsPlanned} prompts compared (needs ${minCompared(e)})` };
    }
    const t = e.test;
    const p = adjusted[i] ?? 1;
    const numbers = describeNumbers(t.method, t.statistic, t.noiseFloor, p);
    if (p < options.alpha) return { ...base, verdict: "differs" as const, reason: `differs from reference (${numbers})` };
    const level = options.alpha / Math.max(1, testedCount);
    if (t.method === "logprobs" && !(t.detectableEffect <= options.maxDetectableTv)) {
      return { ...base, verdict: "inconclusive" as const, reason: `noise floor too high to decide (${numbers}; could only detect an excess TV of ${fmt(t.detectableEffect)})` };
    }
    if (t.method === "samples" && t.noiseRejected) {
      return { ...base, verdict: "inconclusive" as const, reason: `the reference does not match itself, so the noise floor is too high to decide (${numbers})` };
    }
    const detectable = probeMethod(t.method)?.describeDetectable(t.detectableEffect, level) ?? "";
    return { ...base, verdict: "matches" as const, reason: `no difference detected (${numbers}); ${detectable}` };
  });
}

function describeNumbers(method: ProbeMethod, statistic: number, noiseFloor: number, p: number): string {
  const name = probeMethod(method)?.statisticName ?? method;
  return `${name} ${fmt(statistic)} vs noise ${fmt(noiseFloor)}, ${formatP(p)}`;
}

export function formatP(p: number): string {
  return p < 0.001 ? "p < 0.001" : `p = ${p.toFixed(3)}`;
}

function fmt(value: number): string {
  if (!Number.isFinite(value)) return "∞";
  return Math.abs(value) >= 0.01 || value === 0 ? value.toFixed(3) : value.toExponential(1);
}

