import { hashString, seededRandom } from "../../lib/probe/random";
import { loadCorpus } from "./corpus";
import { KIMI_K25_SAMPLER, logSoftmax, processedLogprobs, sampleFrom } from "./sampler";
import type { LmVariant, SamplerSettings } from "./types";
import { drawNoise, servedLogits } from "./variants";
import { renderChat } from "./vocab";

// The true divergence of a variant from the reference, computed from the networks themselves (no
// API, no sampling noise in the estimate beyond the choice of positions): what the probe's
// estimates are checked against.
//
// At each position, each side's *expected* next-token distribution is the average over
// `noiseDraws` independent noise draws of its served distribution (one draw when deterministic).
// KL(reference ‖ variant) is taken between the distributions at the sampler's temperature, before
// truncation (top-p and friends make supports differ, and KL infinite); TV between the processed
// distributions the sampler actually draws from. Both averaged over positions.

export interface TrueDivergence {
  variant: string;
  /** Mean per-token KL(reference ‖ variant) in nats, over all positions. */
  klNats: number;
  klHeldOutNats: number;
  klOnPolicyNats: number;
  /** Mean total variation between the processed (sampled-from) expected distributions. */
  tv: number;
  /** Share of positions whose most likely token is the same. */
  top1Agreement: number;
  /** Mean entropy (nats) of the reference's distribution at the sampler's temperature. */
  referenceEntropyNats: number;
  positions: number;
}

export interface TrueKlOptions {
  heldOutPositions?: number;
  onPolicyPositions?: number;
  /** Noise draws averaged into a nondeterministic side's expected distribution. */
  noiseDraws?: number;
  seed?: number;
}

/** Held-out corpus positions (token prefixes) and on-policy ones: the reference's own samples from held-out prompts. */
export function evaluationPositions(reference: LmVariant, sampler: SamplerSettings, { heldOutPositions = 600, onPolicyPositions = 600, seed = 7 }: TrueKlOptions = {}) {
  const corpus = loadCorpus();
  const random = seededRandom(seed);
  const heldOut: number[][] = [];
  const stride = Math.max(1, Math.floor(corpus.heldOut.length / heldOutPositions));
  for (let i = 1; i < corpus.heldOut.length && heldOut.length < heldOutPositions; i += stride) heldOut.push(corpus.heldOut.slice(Math.max(0, i - 16), i));
  const onPolicy: number[][] = [];
  const samplerOrPlain = sampler.temperature > 0 ? sampler : { ...sampler, temperature: 1 };
  for (let p = 0; onPolicy.length < onPolicyPositions; p++) {
    const para = corpus.heldOutParagraphs[p % corpus.heldOutParagraphs.length];
    const tokens = renderChat([{ role: "user", content: para.slice(0, 80) }]);
    for (let step = 0; step < 32 && onPolicy.length < onPolicyPositions; step++) {
      onPolicy.push(tokens.slice());
      const next = sampleFrom(processedLogprobs(servedLogits(reference, tokens, null), samplerOrPlain), random());
      tokens.push(next);
    }
  }
  return { heldOut, onPolicy };
}

function expectedProbs(v: LmVariant, tokens: number[], transform: (logits: Float64Array) => Float64Array, draws: number, seed: number): Float64Array {
  const deterministic = v.nondeterminism.sd === 0 && v.nondeterminism.jumpRate === 0;
  const n = deterministic ? 1 : draws;
  const random = seededRandom(hashString(`${seed}|${v.name}|${tokens.join(",")}`));
  let sum: Float64Array | null = null;
  for (let d = 0; d < n; d++) {
    const logp = transform(servedLogits(v, tokens, deterministic ? null : drawNoise(v.nondeterminism, random)));
    sum ??= new Float64Array(logp.length);
    for (let i = 0; i < logp.length; i++) sum[i] += Math.exp(logp[i]) / n;
  }
  return sum as Float64Array;
}

function kl(p: Float64Array, q: Float64Array): number {
  let s = 0;
  for (let i = 0; i < p.length; i++) if (p[i] > 0) s += p[i] * Math.log(p[i] / Math.max(q[i], 1e-300));
  return Math.max(0, s);
}

function tv(p: Float64Array, q: Float64Array): number {
  let s = 0;
  for (let i = 0; i < p.length; i++) s += Math.abs(p[i] - q[i]);
  return s / 2;
}

const argmax = (p: Float64Array) => p.reduce((best, x, i) => (x > p[best] ? i : best), 0);

/** The variant's true divergence from the reference at the sampler's settings (default: Kimi K2.5's documented sampler). */
export function trueKl(variant: LmVariant, reference: LmVariant, sampler: SamplerSettings = KIMI_K25_SAMPLER, options: TrueKlOptions = {}): TrueDivergence {
  const { noiseDraws = 16, seed = 7 } = options;
  const positions = evaluationPositions(reference, sampler, options);
  const t = sampler.temperature > 0 ? sampler.temperature : 1;
  const tempered = (logits: Float64Array) => logSoftmax(logits.map((l) => l / t));
  const processed = (logits: Float64Array) => processedLogprobs(logits, sampler);
  const measure = (set: number[][]) => {
    let klSum = 0, tvSum = 0, agree = 0, entropy = 0;
    for (const tokens of set) {
      const p = expectedProbs(reference, tokens, tempered, noiseDraws, seed);
      const q = expectedProbs(variant, tokens, tempered, noiseDraws, seed + 1);
      klSum += kl(p, q);
      tvSum += tv(expectedProbs(reference, tokens, processed, noiseDraws, seed), expectedProbs(variant, tokens, processed, noiseDraws, seed + 1));
      if (argmax(p) === argmax(q)) agree++;
      for (const x of p) if (x > 0) entropy -= x * Math.log(x);
    }
    return { kl: klSum, tv: tvSum, agree, entropy, n: set.length };
  };
  const h = measure(positions.heldOut);
  const o = measure(positions.onPolicy);
  const n = h.n + o.n;
  return {
    variant: variant.name,
    klNats: (h.kl + o.kl) / n,
    klHeldOutNats: h.kl / h.n,
    klOnPolicyNats: o.kl / o.n,
    tv: (h.tv + o.tv) / n,
    top1Agreement: (h.agree + o.agree) / n,
    referenceEntropyNats: (h.entropy + o.entropy) / n,
    positions: n,
  };
}
