import { decideEquivalence } from "./divergence";
import type { ProbeMethod } from "./methods";
import { describeOnPolicy } from "./methods/on-policy";
import type { DivergenceEvidence, MethodTest } from "./methods/types";

// An endpoint's verdict from what its method found. The question is one of equivalence: is the
// endpoint's expected next-token distribution within Δ nats/token (KL) of the reference's?
// - equivalent: the upper 95% bound of the divergence is below Δ;
// - differs: the lower 95% bound is above Δ;
// - cannot tell: the interval straddles Δ, too few prompts were compared, the reference was
//   unstable (its A/A), or the two sides' logprobs are not of the same kind (raw vs processed);
// - unverifiable: the method available to this pair measures no divergence (no logprobs);
// - reference, not-pinned, prompt-format: as before.
// Runs stored before this version used `matches` and `inconclusive`; they stay readable (LEGACY_VERDICTS).

export const VERDICTS = ["reference", "equivalent", "differs", "cannot tell", "unverifiable", "prompt-format", "not-pinned"] as const;
export type Verdict = (typeof VERDICTS)[number];
/** Verdicts of runs made before the equivalence probe: a test of "no difference detected", not of a margin. */
export const LEGACY_VERDICTS = ["matches", "inconclusive"] as const;
export type LegacyVerdict = (typeof LEGACY_VERDICTS)[number];

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
  /** The method planned for it (null for the reference). */
  method: ProbeMethod | null;
  /** What the method found, or null when nothing could be compared. */
  test: MethodTest | null;
}

export interface VerdictOptions {
  /** Fewer compared prompts than this share of the plan (or than minPrompts) is `cannot tell`. */
  minShareCompared: number;
  minPrompts: number;
}

export const DEFAULT_VERDICT_OPTIONS: VerdictOptions = { minShareCompared: 0.8, minPrompts: 10 };

export interface EndpointVerdict {
  tag: string;
  verdict: Verdict;
  method: ProbeMethod | null;
  divergence: DivergenceEvidence | null;
  promptsCompared: number;
  promptTokensMatch: boolean | null;
  /** Plain words: why this verdict, with its numbers. */
  reason: string;
}

export function decideVerdicts(evidence: EndpointEvidence[], options: VerdictOptions = DEFAULT_VERDICT_OPTIONS): EndpointVerdict[] {
  const minCompared = (e: EndpointEvidence) => Math.max(options.minPrompts, Math.ceil(options.minShareCompared * e.promptsPlanned));
  return evidence.map((e) => {
    const base = {
      tag: e.tag,
      method: e.method,
      divergence: e.test?.divergence ?? null,
      promptsCompared: e.test?.promptsCompared ?? 0,
      promptTokensMatch: e.promptTokensCompared > 0 ? e.promptTokenMismatches === 0 : null,
    };
    const verdict = (v: Verdict, reason: string): EndpointVerdict => ({ ...base, verdict: v, reason });
    if (e.isReference) return verdict("reference", "The reference endpoint");
    if (e.servedByOthers > 0) return verdict("not-pinned", `${e.servedByOthers} answer${e.servedByOthers === 1 ? " was" : "s were"} served by another provider`);
    if (e.promptTokenMismatches > 0) {
      return verdict("prompt-format", `prompt tokens differ from the reference's on ${e.promptTokenMismatches} of ${e.promptTokensCompared} prompts (another chat template or tokenizer)`);
    }
    if (e.test && !e.test.divergence) return verdict("unverifiable", `no logprobs on both sides, so the divergence cannot be measured; ${e.test.note ?? "nothing compared"}`);
    if (!e.test) {
      return e.method === "samples"
        ? verdict("unverifiable", "no logprobs on both sides, so the divergence cannot be measured; no valid samples either")
        : verdict("cannot tell", `too few valid answers: 0 of ${e.promptsPlanned} prompts compared (needs ${minCompared(e)})`);
    }
    const d = e.test.divergence as DivergenceEvidence;
    const numbers = describeDivergence(d);
    if (e.test.promptsCompared < minCompared(e)) {
      return verdict("cannot tell", `too few valid answers: ${e.test.promptsCompared} of ${e.promptsPlanned} prompts compared (needs ${minCompared(e)}); ${numbers}`);
    }
    if (d.referenceUnstable) return verdict("cannot tell", `the reference was unstable during the run (A/A ${fmtInterval(d.aaKlNats)} nats/token, above Δ/4); ${numbers}`);
    if (d.logprobs.reference !== "unknown" && d.logprobs.endpoint !== "unknown" && d.logprobs.reference !== d.logprobs.endpoint) {
      return verdict("cannot tell", `the endpoint's logprobs are ${d.logprobs.endpoint}, the reference's ${d.logprobs.reference}: not comparable; ${numbers}`);
    }
    const outcome = decideEquivalence(d.klNats, d.deltaNats);
    if (outcome === "equivalent") return verdict("equivalent", `within Δ: ${numbers}`);
    if (outcome === "differs") return verdict("differs", `differs by more than Δ: ${numbers}`);
    const power = Number.isFinite(d.detectableNats)
      ? `a run like this one would detect a divergence of ${fmt(d.detectableNats)} with 80% power`
      : "this run's spread is too wide to promise 80% power at any divergence; more prompts would narrow it";
    return verdict("cannot tell", `the interval straddles Δ: ${numbers}; ${power}`);
  });
}

/** "KL 3.1e-4 nats/token [1.0e-4, 5.2e-4], Δ 1.0e-3; A/A 2.0e-5 over 24 prompts, 301 positions". */
export function describeDivergence(d: DivergenceEvidence): string {
  const onPolicy = describeOnPolicy(d);
  return `KL ${fmt(d.klNats.estimate)} nats/token, ${confidenceLabel(d.confidence)} interval ${fmtInterval(d.klNats)}, Δ ${fmt(d.deltaNats)}; A/A ${fmt(d.aaKlNats.estimate)}; ${d.prompts} prompts, ${d.positions} positions${onPolicy ? `, ${onPolicy}` : ""}`;
}

/** "95%", "99.8%": an interval's two-sided level (runs stored before it had one were 95%). */
export function confidenceLabel(confidence: number | null | undefined): string {
  return `${(100 * (confidence ?? 0.95)).toFixed(1).replace(/\.0$/, "")}%`;
}

function fmtInterval(i: { low: number; high: number }): string {
  return `[${fmt(i.low)}, ${fmt(i.high)}]`;
}

export function fmt(value: number): string {
  if (!Number.isFinite(value)) return value > 0 ? "∞" : "−∞";
  if (value === 0) return "0";
  return Math.abs(value) >= 0.01 ? value.toFixed(3) : value.toExponential(1);
}
