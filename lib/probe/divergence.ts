import type { TopLogprob } from "./statistics";
import { mean, normalQuantile, standardDeviation } from "./statistics";

// The equivalence statistics of the fidelity probe: pure, no I/O.
//
// The question: is the endpoint's EXPECTED next-token distribution within Δ nats per token of the
// reference's? Each side is read several times (replicates); each side's expected distribution at a
// position is the mean of its replicates' distributions, so a side's own run-to-run noise averages
// out instead of counting as a difference (unequal nondeterminism does not produce `differs`).
//
// At one position:
// - a common partition: the tokens listed by every replicate on both sides, plus one remainder
//   bucket per side (1 − the listed mass). Mass listed on one side only is not counted twice; the
//   partition is a coarsening of the vocabulary, so the KL on it is never above the full KL.
// - KL(reference ‖ endpoint) between the two expected distributions on that partition, plug-in,
//   minus its finite-replicate bias, estimated per side by the second-order (delta-method) term:
//       bias ≈ ½ Σ_t [ Var(p̂_t) / p_t + p_t · Var(q̂_t) / q_t² ],   Var(x̂_t) = s²_t / R
//   with s²_t each side's sample variance over its R replicates (p the reference, q the endpoint).
//   Each side's own variance is used, so a noisier endpoint gets a larger correction.
// - TV between the two expected distributions on the partition (plug-in; not corrected; the A/A
//   TV beside it shows the part that is noise).
// Per prompt: the mean over its aligned positions. Over prompts: a t-interval on the per-prompt
// values (the prompts are the units, so positions of one prompt are never treated as independent).

export interface Interval {
  estimate: number;
  low: number;
  high: number;
}

export interface PositionReading {
  /** One entry per replicate: that call's listed next-token logprobs at this position. */
  reference: TopLogprob[][];
  endpoint: TopLogprob[][];
}

const FLOOR = 1e-6;

interface SideOnPartition {
  mean: number[];
  variance: number[];
  replicates: number;
}

function side(replicates: TopLogprob[][], partition: string[]): SideOnPartition {
  const vectors = replicates.map((top) => {
    const probs = new Map<string, number>();
    for (const { token, logprob } of top) probs.set(token, Math.max(probs.get(token) ?? 0, Number.isFinite(logprob) ? Math.exp(Math.min(0, logprob)) : 0));
    let listed = 0;
    const v = partition.map((t) => {
      const p = probs.get(t) ?? 0;
      listed += p;
      return p;
    });
    // A provider that renormalised over its top k can list a mass a hair over 1.
    if (listed > 1) return [...v.map((p) => p / listed), 0];
    return [...v, 1 - listed];
  });
  const k = partition.length + 1;
  const R = vectors.length;
  const m = Array.from({ length: k }, (_, j) => vectors.reduce((s, v) => s + v[j], 0) / R);
  const variance = Array.from({ length: k }, (_, j) => (R < 2 ? 0 : vectors.reduce((s, v) => s + (v[j] - m[j]) ** 2, 0) / (R - 1)));
  return { mean: m, variance, replicates: R };
}

/** Tokens listed by every replicate on both sides, in a fixed order. */
export function commonPartition(reading: PositionReading): string[] {
  const lists = [...reading.reference, ...reading.endpoint].map((top) => new Set(top.map((t) => t.token)));
  if (lists.length === 0) return [];
  return [...lists[0]].filter((t) => lists.every((l) => l.has(t))).sort();
}

export interface PositionDivergence {
  /** Bias-corrected KL(reference ‖ endpoint), nats. Can be slightly negative (an unbiased estimate of 0). */
  kl: number;
  /** Plug-in KL before the correction. */
  klPlugIn: number;
  tv: number;
  /** The two sides' expected distributions agree on their most likely token. */
  top1Agrees: boolean;
}

export function positionDivergence(reading: PositionReading): PositionDivergence | null {
  if (reading.reference.length === 0 || reading.endpoint.length === 0) return null;
  const partition = commonPartition(reading);
  const p = side(reading.reference, partition);
  const q = side(reading.endpoint, partition);
  let klPlugIn = 0;
  let bias = 0;
  let tv = 0;
  for (let j = 0; j < p.mean.length; j++) {
    const pj = Math.max(p.mean[j], FLOOR);
    const qj = Math.max(q.mean[j], FLOOR);
    if (p.mean[j] > 0) klPlugIn += p.mean[j] * Math.log(p.mean[j] / qj);
    bias += 0.5 * (p.variance[j] / p.replicates / pj + (pj * q.variance[j]) / q.replicates / (qj * qj));
    tv += Math.abs(p.mean[j] - q.mean[j]);
  }
  const argmax = (v: number[]) => v.slice(0, partition.length).reduce((best, x, i) => (x > v[best] ? i : best), 0);
  return { kl: klPlugIn - bias, klPlugIn, tv: tv / 2, top1Agrees: partition.length > 0 && argmax(p.mean) === argmax(q.mean) };
}

/** One prompt's positions summarised: the mean over its positions. */
export interface PromptDivergence {
  kl: number;
  tv: number;
  positions: number;
  top1Agreement: number;
}

export function promptDivergence(readings: PositionReading[]): PromptDivergence | null {
  const values = readings.map(positionDivergence).filter((d): d is PositionDivergence => d !== null);
  if (values.length === 0) return null;
  return {
    kl: mean(values.map((v) => v.kl)),
    tv: mean(values.map((v) => v.tv)),
    positions: values.length,
    top1Agreement: mean(values.map((v) => (v.top1Agrees ? 1 : 0))),
  };
}

// ---- Over prompts.

/** Student's t quantile: the t CDF inverted by bisection (60 halvings: exact to double precision for our uses). */
export function tQuantile(p: number, df: number): number {
  if (!Number.isFinite(df) || df > 1e6) return normalQuantile(p);
  if (!(df >= 1) || p <= 0 || p >= 1) return p >= 1 ? Infinity : p <= 0 ? -Infinity : NaN;
  let lo = -1e3;
  let hi = 1e3;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (tCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Student's t CDF, by the regularized incomplete beta function. */
export function tCdf(t: number, df: number): number {
  if (!Number.isFinite(t)) return t > 0 ? 1 : 0;
  const x = df / (df + t * t);
  const tail = 0.5 * incompleteBeta(x, df / 2, 0.5);
  return t > 0 ? 1 - tail : tail;
}

function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(x, a, b)) / a;
  return 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
}

function betaContinuedFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a - 1 + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + 1 + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-12) break;
  }
  return h;
}

function logGamma(z: number): number {
  const g = [676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61503916999185, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  if (z < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * z)) - logGamma(1 - z);
  const x = z - 1;
  let a = 0.99999999999980993;
  for (let i = 0; i < g.length; i++) a += g[i] / (x + i + 1);
  const t = x + g.length - 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

export interface OverPrompts extends Interval {
  n: number;
  /** Standard error of the mean over prompts. */
  se: number;
}

/** The mean of per-prompt values with its two-sided t-interval (95% unless asked; prompts as units). */
export function intervalOverPrompts(values: number[], confidence = 0.95): OverPrompts {
  const n = values.length;
  const estimate = mean(values);
  if (n < 2) return { estimate, low: -Infinity, high: Infinity, n, se: Infinity };
  const se = standardDeviation(values) / Math.sqrt(n);
  const t = tQuantile(1 - (1 - confidence) / 2, n - 1);
  return { estimate, low: estimate - t * se, high: estimate + t * se, n, se };
}

/** One-sided p-value of H0: mean ≤ m0 against mean > m0 (the t-test on per-prompt values). */
export function pValueAbove(values: number[], m0: number): number {
  const n = values.length;
  if (n < 2) return 1;
  const se = standardDeviation(values) / Math.sqrt(n);
  if (!(se > 0)) return mean(values) > m0 ? 0 : 1;
  return 1 - tCdf((mean(values) - m0) / se, n - 1);
}

/**
 * The chi-square quantile χ²_p(ν) by the Wilson–Hilferty cube (within 1% of the exact value for
 * ν ≥ 3 at the tails used here); 0 where the approximation leaves the support.
 */
export function chiSquareQuantile(p: number, df: number): number {
  const a = 2 / (9 * df);
  const c = 1 - a + normalQuantile(p) * Math.sqrt(a);
  return c > 0 ? df * c ** 3 : 0;
}

/** The one-sided upper confidence level on the spread that the detectable divergence uses. */
export const DETECTABLE_SPREAD_CONFIDENCE = 0.9;

/**
 * The smallest true divergence that a run like this one would call `differs` with at least the
 * given power (80% by default): at that divergence the lower bound of the run's interval (95% unless
 * asked; a sequential run's last look uses its own level) clears Δ in that share of runs.
 *
 * Three things make the naive Δ + (t_{0.975} + z_{0.8})·se claim false (tests/unit/probe-power.test.ts
 * measured 24-60% power for it): the run's se is itself an estimate from n prompts (its low draws
 * make the claim too small), the t-quantile for power needs n − 1 degrees of freedom too, and the
 * spread of per-prompt KL grows with the divergence (prompts differ in how much a changed model
 * moves them), so at a larger divergence the se is larger than this run's. Hence:
 * - k = t_{0.975}(n−1) + t_{power}(n−1);
 * - se_u = se·√((n−1)/χ²_{0.1}(n−1)), a one-sided 90% upper bound on the se;
 * - D = max(Δ + k·se_u, Δ / (1 − k·se_u/estimate)): the first is enough when the spread is the
 *   estimates' own noise and stays as it is, the second when the spread grows in proportion to the
 *   mean; the larger covers both.
 * - When k·se_u ≥ estimate no divergence can be promised (the proportional case never clears Δ
 *   often enough): Infinity, which the verdict words as "too noisy to promise"; more prompts narrow it.
 * What it does not claim: power against a divergence whose per-prompt spread grows faster than
 * its mean (a few prompts moved a lot), nor at another prompt set or sample size.
 */
export function detectableDivergence(deltaNats: number, o: Pick<OverPrompts, "n" | "se" | "estimate">, power = 0.8, confidence = 0.95): number {
  if (o.n < 3 || !Number.isFinite(o.se)) return Infinity;
  const df = o.n - 1;
  const chi = chiSquareQuantile(1 - DETECTABLE_SPREAD_CONFIDENCE, df);
  if (!(chi > 0)) return Infinity;
  const k = tQuantile(1 - (1 - confidence) / 2, df) + tQuantile(power, df);
  const margin = k * o.se * Math.sqrt(df / chi);
  if (!(o.estimate > 0 && margin < o.estimate)) return Infinity;
  return Math.max(deltaNats + margin, deltaNats / (1 - margin / o.estimate));
}

export type EquivalenceOutcome = "equivalent" | "differs" | "cannot tell";

/** The decision from an interval: equivalent when it lies below Δ, differs when above, else cannot tell. */
export function decideEquivalence(interval: Pick<Interval, "low" | "high">, deltaNats: number): EquivalenceOutcome {
  if (interval.high < deltaNats) return "equivalent";
  if (interval.low > deltaNats) return "differs";
  return "cannot tell";
}
