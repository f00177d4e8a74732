import type { SamplerSettings } from "./types";

// The sampler an endpoint applies, in vLLM's order: repetition penalties on the logits, then
// temperature, top-k, top-p (nucleus) and min-p, each renormalising what is left. "Raw" logprobs
// are the model's log-softmax at temperature 1 (what vLLM returns by default); "processed" ones
// are the log of the distribution actually sampled from (−Infinity outside its support).

/** Moonshot's documented sampler for Kimi K2.5 with thinking (temperature 1.0, top_p 0.95, no penalties). */
export const KIMI_K25_SAMPLER: SamplerSettings = { temperature: 1, top_p: 0.95, top_k: 0, min_p: 0, presence_penalty: 0, frequency_penalty: 0 };

/** The model's own distribution: no truncation, temperature 1. */
export const PLAIN_SAMPLER: SamplerSettings = { temperature: 1, top_p: 1, top_k: 0, min_p: 0, presence_penalty: 0, frequency_penalty: 0 };

export function logSoftmax(logits: ArrayLike<number>): Float64Array {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) if (logits[i] > max) max = logits[i];
  let sum = 0;
  for (let i = 0; i < logits.length; i++) sum += Math.exp(logits[i] - max);
  const logSum = max + Math.log(sum);
  const out = new Float64Array(logits.length);
  for (let i = 0; i < logits.length; i++) out[i] = logits[i] - logSum;
  return out;
}

/** Logits after presence and frequency penalties for the tokens generated so far (counts by token id). */
export function penalise(logits: ArrayLike<number>, sampler: SamplerSettings, counts?: ReadonlyMap<number, number>): Float64Array {
  const out = Float64Array.from(logits as ArrayLike<number>);
  if (!counts || (sampler.presence_penalty === 0 && sampler.frequency_penalty === 0)) return out;
  for (const [token, count] of counts) {
    if (count > 0) out[token] -= sampler.presence_penalty + sampler.frequency_penalty * count;
  }
  return out;
}

/**
 * The log-probabilities the sampler draws from. Temperature 0 is greedy: the top token (lowest id
 * on a tie) gets log-probability 0. Tokens cut by top-k, top-p or min-p get −Infinity.
 */
export function processedLogprobs(logits: ArrayLike<number>, sampler: SamplerSettings, counts?: ReadonlyMap<number, number>): Float64Array {
  const penalised = penalise(logits, sampler, counts);
  const n = penalised.length;
  const out = new Float64Array(n).fill(-Infinity);
  if (sampler.temperature <= 0) {
    let best = 0;
    for (let i = 1; i < n; i++) if (penalised[i] > penalised[best]) best = i;
    out[best] = 0;
    return out;
  }
  for (let i = 0; i < n; i++) penalised[i] /= sampler.temperature;
  const logp = logSoftmax(penalised);
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => logp[b] - logp[a] || a - b);
  let keep = n;
  if (sampler.top_k > 0) keep = Math.min(keep, sampler.top_k);
  if (sampler.top_p < 1) {
    // The smallest set, most likely first, whose mass reaches top_p (the token that crosses it is kept).
    let mass = 0;
    for (let r = 0; r < keep; r++) {
      mass += Math.exp(logp[order[r]]);
      if (mass >= sampler.top_p) {
        keep = r + 1;
        break;
      }
    }
  }
  if (sampler.min_p > 0) {
    const floor = Math.log(sampler.min_p) + logp[order[0]];
    let r = 1;
    while (r < keep && logp[order[r]] >= floor) r++;
    keep = r;
  }
  let kept = 0;
  for (let r = 0; r < keep; r++) kept += Math.exp(logp[order[r]]);
  const logKept = Math.log(kept);
  for (let r = 0; r < keep; r++) out[order[r]] = logp[order[r]] - logKept;
  return out;
}

/** Draws a token from log-probabilities with a uniform u in [0, 1); inverse CDF over token ids. */
export function sampleFrom(logprobs: ArrayLike<number>, u: number): number {
  let last = -1;
  for (let i = 0; i < logprobs.length; i++) {
    if (logprobs[i] === -Infinity) continue;
    last = i;
    u -= Math.exp(logprobs[i]);
    if (u < 0) return i;
  }
  return last;
}
