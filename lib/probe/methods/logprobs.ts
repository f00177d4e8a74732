import {
  detectableDivergence,
  intervalOverPrompts,
  promptDivergence,
  pValueAbove,
  type PositionReading,
  type PromptDivergence,
} from "../divergence";
import { samplerFields } from "../settings";
import { mean, type TopLogprob } from "../statistics";
import { topLogprobsOf } from "./answers";
import { DRAFT_ROLE, DRAFT_TOKENS, ON_POLICY_CUTS, ON_POLICY_READ_TOKENS, prefixTokens, type PrefillBehaviour } from "./on-policy";
import type { DivergenceEvidence, LogprobsKind, MethodAnswer, ProbeMethodDefinition, ReferencePrefill } from "./types";

// Next-token distributions at many aligned positions. Each side answers every prompt several times
// (the reference 2 + 2, early and late, the endpoint 2) with up to 16 tokens on the greedy path
// (temperature 0; the rest of the model's sampler and its thinking mode are sent as well) and the
// top 20 logprobs at every position. A position is compared while every replicate of both sides
// has produced the same tokens before it, so both read the model at the same prefix. The
// divergence between the sides' expected distributions (lib/probe/divergence.ts) is averaged over a
// prompt's positions, and its 95% interval comes from the prompts. The reference's early
// replicates against its late ones, by the same statistic, is the run's A/A.
//
// On-policy reads (./on-policy.ts): the same replicates read again after the prompt's reference
// draft, cut and prefilled; their aligned positions join the prompt's greedy ones (the prompt stays
// the unit), unless the endpoint answered the prefix as a new turn or refused it.

export const REFERENCE_PER_ROLE = 2;
export const ENDPOINT_REPLICATES = 2;
export const PATH_TOKENS = 16;

interface Replicate {
  cut: number;
  promptTokens: number | null;
  tokens: string[];
  tops: TopLogprob[][];
  answeredAt: number;
  order: number;
  cachedTokens: number;
}

function replicateOf(a: MethodAnswer, order: number): Replicate | null {
  const tokens: string[] = [];
  const tops: TopLogprob[][] = [];
  if (Array.isArray(a.tokens)) {
    for (const t of a.tokens) {
      if (typeof t !== "object" || t === null) break;
      const { token, top } = t as { token?: unknown; top?: unknown };
      const list = topLogprobsOf(top);
      if (typeof token !== "string" || !list) break;
      tokens.push(token);
      tops.push(list);
    }
  }
  // Answers stored before every position's top logprobs were kept: the first position only.
  if (tops.length === 0) {
    const first = topLogprobsOf(a.topLogprobs);
    if (!first) return null;
    tops.push(first);
    const chosen = Array.isArray(a.tokens) ? (a.tokens[0] as { token?: unknown } | undefined)?.token : undefined;
    tokens.push(typeof chosen === "string" ? chosen : "");
  }
  return { cut: a.cut ?? 0, promptTokens: a.promptTokens ?? null, tokens, tops, answeredAt: a.answeredAt?.getTime() ?? Number.POSITIVE_INFINITY, order, cachedTokens: a.cachedTokens ?? 0 };
}

/** Positions 0..L−1 where every replicate has produced the same tokens before the position. */
export function alignedPositions(replicates: Array<{ tokens: string[]; tops: unknown[] }>): number {
  if (replicates.length === 0) return 0;
  const length = Math.min(...replicates.map((r) => r.tops.length));
  let aligned = 0;
  while (aligned < length) {
    aligned++;
    if (aligned >= length) break;
    const t = replicates[0].tokens[aligned - 1];
    if (!replicates.every((r) => r.tokens[aligned - 1] === t)) break;
  }
  return aligned;
}

/** The aligned positions of one read (the greedy path, or one cut) of both sides. */
function readingsOf(reference: Replicate[], endpoint: Replicate[]): PositionReading[] {
  if (reference.length < 2 || endpoint.length < 2) return [];
  const positions = alignedPositions([...reference, ...endpoint]);
  const readings: PositionReading[] = [];
  for (let j = 0; j < positions; j++) readings.push({ reference: reference.map((r) => r.tops[j]), endpoint: endpoint.map((r) => r.tops[j]) });
  return readings;
}

const cutsOf = (replicates: Replicate[]) => [...new Set(replicates.map((r) => r.cut))];
const ofCut = (replicates: Replicate[], cut: number) => replicates.filter((r) => r.cut === cut);

/**
 * One prompt: its greedy positions and, when `onPolicy`, those of every cut, in one mean (the
 * prompt is the unit); null when the greedy path has no replicates on both sides.
 */
function comparePrompt(reference: Replicate[], endpoint: Replicate[], onPolicy: boolean): (PromptDivergence & { onPolicyPositions: number }) | null {
  const greedy = readingsOf(ofCut(reference, 0), ofCut(endpoint, 0));
  if (greedy.length === 0) return null;
  const cut: PositionReading[] = [];
  if (onPolicy) for (const c of cutsOf(endpoint)) if (c > 0) cut.push(...readingsOf(ofCut(reference, c), ofCut(endpoint, c)));
  const d = promptDivergence([...greedy, ...cut]);
  return d && { ...d, onPolicyPositions: cut.length };
}

/**
 * What the endpoint did with the prefilled prefix, from prompt tokens. On a prompt where both
 * sides answered the greedy read and a cut, the endpoint's count minus the reference's must be the
 * same with the prefix as without (a template that adds tokens adds them to both); otherwise it
 * counted a turn the reference did not, and answered the prefix as a new message.
 *
 * Decided per prompt, then for the endpoint by the majority: a new-turn endpoint adds its turn
 * tokens on every prompt, so one prompt whose count moved (a template that trims one prefix's
 * trailing space, say) does not cost a continuing endpoint all its on-policy positions. Only the
 * prompts whose counts agreed are read on-policy; the others are left out and counted.
 */
export function prefillBehaviour(
  reference: Map<number, Replicate[]>,
  endpoint: Map<number, Replicate[]>,
): { behaviour: PrefillBehaviour; continuedPrompts: Set<number>; leftOut: number } {
  const continuedPrompts = new Set<number>();
  let newTurn = 0;
  for (const [i, mine] of endpoint) {
    const ref = reference.get(i);
    if (!ref) continue;
    const first = (rs: Replicate[], cut: number) => rs.find((r) => r.cut === cut && r.promptTokens !== null)?.promptTokens ?? null;
    const [refPlain, minePlain] = [first(ref, 0), first(mine, 0)];
    if (refPlain === null || minePlain === null) continue;
    let read = false;
    let moved = false;
    for (const c of cutsOf(mine)) {
      if (c === 0) continue;
      const [refCut, mineCut] = [first(ref, c), first(mine, c)];
      if (refCut === null || mineCut === null) continue;
      read = true;
      if (mineCut - refCut !== minePlain - refPlain) moved = true;
    }
    if (moved) newTurn++;
    else if (read) continuedPrompts.add(i);
  }
  if (newTurn > continuedPrompts.size) return { behaviour: "new-turn", continuedPrompts: new Set(), leftOut: 0 };
  if (continuedPrompts.size > 0) return { behaviour: "continues", continuedPrompts, leftOut: newTurn };
  return { behaviour: "not-read", continuedPrompts, leftOut: 0 };
}

/** Prompts the reference's prefix check needs before it decides; with fewer it is not checked. */
export const REFERENCE_PREFILL_MIN_PROMPTS = 5;

const firstRanked = (top: TopLogprob[] | undefined) =>
  top && top.length > 0 ? top.reduce((best, t) => (t.logprob > best.logprob ? t : best)).token : null;

/**
 * Whether the reference itself continues a prefilled prefix. Its draft lists the token it ranked
 * first at every position (top_logprobs 1); if it continues the prefix of n draft tokens, its reads
 * after the cut start at the draft's position n. So per prompt and cut: is the token its reads rank
 * first at their first position (the most common among its replicates) the one its draft ranked
 * first at position n? Temperature and top-p keep the ranking, so this holds for raw and processed
 * logprobs alike; a near-tie may flip under the stack's noise, and a prefix re-tokenized otherwise
 * moves a prompt. Agreement on at least half the prompts: it continues; on under half, its first
 * position is the start of another message (a new turn); with under REFERENCE_PREFILL_MIN_PROMPTS
 * prompts compared, not checked.
 */
export function referencePrefill(drafts: MethodAnswer[], reference: Map<number, Replicate[]>): ReferencePrefill {
  let agreed = 0;
  let compared = 0;
  for (const draft of drafts) {
    const ref = reference.get(draft.promptIndex);
    const ranked = replicateOf(draft, 0);
    if (!ref || !ranked) continue;
    for (const c of cutsOf(ref)) {
      if (c === 0) continue;
      const n = prefixTokens(draft, c)?.length;
      const drafted = n === undefined ? null : firstRanked(ranked.tops[n]);
      const counts = new Map<string, number>();
      for (const r of ofCut(ref, c)) {
        const token = firstRanked(r.tops[0]);
        if (token !== null) counts.set(token, (counts.get(token) ?? 0) + 1);
      }
      if (drafted === null || counts.size === 0) continue;
      const read = [...counts].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
      compared++;
      if (read === drafted) agreed++;
    }
  }
  const verdict = compared < REFERENCE_PREFILL_MIN_PROMPTS ? "not-checked" : 2 * agreed >= compared ? "continues" : "new-turn";
  return { verdict, agreed, compared };
}

/**
 * Raw or processed: a listed mass of 1 with fewer tokens than asked for (renormalised over a top-k
 * or top-p), or a top token at probability 1 when others are listed (temperature 0 applied), at
 * most positions.
 */
export function logprobsKind(replicates: Replicate[], asked: number): LogprobsKind {
  let processed = 0;
  let seen = 0;
  for (const r of replicates) {
    for (const top of r.tops) {
      seen++;
      const mass = top.reduce((s, t) => s + Math.exp(Math.min(0, t.logprob)), 0);
      // Fewer tokens than asked whose mass is 1: renormalised after top-k / top-p, or one token at
      // probability 1 (temperature 0 applied). A raw list of the model's tokens keeps some mass unlisted.
      const renormalised = top.length < asked && Math.abs(mass - 1) < 1e-4;
      const tempered = top.length > 1 && top[0].logprob === 0;
      if (renormalised || tempered) processed++;
    }
  }
  if (seen === 0) return "unknown";
  return processed > seen / 2 ? "processed" : "raw";
}

function byPrompt(answers: MethodAnswer[]): Map<number, Replicate[]> {
  const out = new Map<number, Replicate[]>();
  answers.forEach((a, i) => {
    const r = replicateOf(a, i);
    if (!r) return;
    out.set(a.promptIndex, [...(out.get(a.promptIndex) ?? []), r]);
  });
  return out;
}

/** The reference's replicates of a prompt, earliest answer first (ties by plan order). */
function chronological(replicates: Replicate[]): Replicate[] {
  return [...replicates].sort((a, b) => a.answeredAt - b.answeredAt || a.order - b.order);
}

/** The reference's side of a comparison, the same for every endpoint: computed once per answers array. */
const referenceSides = new WeakMap<MethodAnswer[], { refByPrompt: Map<number, Replicate[]>; referenceCheck: ReferencePrefill | undefined }>();
function referenceSide(reference: MethodAnswer[]) {
  let side = referenceSides.get(reference);
  if (!side) {
    const drafts = reference.filter((a) => a.role === DRAFT_ROLE);
    const refByPrompt = byPrompt(reference.filter((a) => a.role !== DRAFT_ROLE));
    side = { refByPrompt, referenceCheck: drafts.length > 0 ? referencePrefill(drafts, refByPrompt) : undefined };
    referenceSides.set(reference, side);
  }
  return side;
}

export function compareLogprobs(reference: MethodAnswer[], endpoint: MethodAnswer[], deltaNats: number, topLogprobs = 20, confidence = 0.95): DivergenceEvidence | null {
  const { refByPrompt, referenceCheck } = referenceSide(reference);
  const endByPrompt = byPrompt(endpoint);
  const own = prefillBehaviour(refByPrompt, endByPrompt);
  // A reference that answers the prefix as a new turn has no on-policy positions to compare with.
  const prefill: PrefillBehaviour =
    referenceCheck?.verdict === "new-turn" && (own.behaviour === "continues" || own.behaviour === "new-turn") ? "reference-new-turn" : own.behaviour;
  const continuedPrompts = prefill === "continues" ? own.continuedPrompts : new Set<number>();
  const leftOut = prefill === "continues" ? own.leftOut : 0;
  const kl: number[] = [];
  const tv: number[] = [];
  const top1: number[] = [];
  const aa: number[] = [];
  const aaTv: number[] = [];
  let positions = 0;
  let onPolicyPositions = 0;
  let cachedTokens = 0;
  for (const [i, mine] of endByPrompt) {
    const ref = refByPrompt.get(i);
    if (!ref) continue;
    const d = comparePrompt(ref, mine, continuedPrompts.has(i));
    if (!d) continue;
    kl.push(d.kl);
    tv.push(d.tv);
    top1.push(d.top1Agreement);
    positions += d.positions;
    onPolicyPositions += d.onPolicyPositions;
    cachedTokens += mine.reduce((s, r) => s + r.cachedTokens, 0);
  }
  // The A/A: per read, the reference's earliest half of its answers against its latest half, on
  // the reads the endpoint was compared on (its prefilled reads only where it continued them).
  for (const [i, ref] of refByPrompt) {
    const halves = (cut: number) => {
      const ordered = chronological(ofCut(ref, cut));
      const half = Math.floor(ordered.length / 2);
      return [ordered.slice(0, half), ordered.slice(half, 2 * half)] as const;
    };
    const [early, late] = halves(0);
    const greedy = readingsOf(early, late);
    if (greedy.length === 0) continue;
    const cut: PositionReading[] = [];
    if (continuedPrompts.has(i)) for (const c of cutsOf(ref)) if (c > 0) cut.push(...readingsOf(...halves(c)));
    const d = promptDivergence([...greedy, ...cut]);
    if (!d) continue;
    aa.push(d.kl);
    aaTv.push(d.tv);
  }
  if (kl.length === 0) return null;
  const klInterval = intervalOverPrompts(kl, confidence);
  // The A/A keeps its 95% interval at every look: it gates the run (reference unstable), not a verdict.
  const aaInterval = intervalOverPrompts(aa);
  const { n, se, ...klNats } = klInterval;
  return {
    deltaNats,
    klNats,
    confidence,
    tv: pick(intervalOverPrompts(tv, confidence)),
    aaKlNats: pick(aaInterval),
    aaTv: mean(aaTv),
    referenceUnstable: aaInterval.low > deltaNats / 4,
    detectableNats: detectableDivergence(deltaNats, { n, se, estimate: klNats.estimate }, 0.8, confidence),
    pValueAboveDelta: pValueAbove(kl, deltaNats),
    pValueAboveZero: pValueAbove(kl, 0),
    top1Agreement: mean(top1),
    positions,
    onPolicyPositions,
    prefill,
    ...(leftOut > 0 ? { prefillLeftOut: leftOut } : {}),
    ...(referenceCheck ? { referencePrefill: referenceCheck } : {}),
    prompts: kl.length,
    logprobs: { reference: logprobsKind([...refByPrompt.values()].flat(), topLogprobs), endpoint: logprobsKind([...endByPrompt.values()].flat(), topLogprobs) },
    cachedTokens,
  };
}

const pick = ({ estimate, low, high }: { estimate: number; low: number; high: number }) => ({ estimate, low, high });

export const logprobsMethod: ProbeMethodDefinition<"logprobs"> = {
  name: "logprobs",
  title: "Next-token distributions at aligned positions",
  applies: (reference, endpoint) => reference.supportsLogprobs && endpoint.supportsLogprobs,
  plan: () => ({
    perPrompt: ENDPOINT_REPLICATES,
    referencePerRole: REFERENCE_PER_ROLE,
    maxTokens: PATH_TOKENS,
    onPolicy: { draftTokens: DRAFT_TOKENS, cuts: ON_POLICY_CUTS, readTokens: ON_POLICY_READ_TOKENS },
  }),
  body: ({ topLogprobs, sampler }) => ({ ...samplerFields(sampler, 0), logprobs: true, top_logprobs: topLogprobs }),
  // The draft is sampled at the pipeline's own sampler; its tokens (listed with their logprobs) are where it is cut.
  draftBody: ({ sampler }) => ({ ...samplerFields(sampler), logprobs: true, top_logprobs: 1 }),
  compare({ deltaNats, reference, endpoint, confidence }) {
    const divergence = compareLogprobs(reference, endpoint, deltaNats, 20, confidence);
    if (!divergence) return null;
    return { method: "logprobs", promptsCompared: divergence.prompts, divergence };
  },
};
