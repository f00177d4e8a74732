import { seededRandom } from "./random";

// The statistics of the fidelity probe, pure and without I/O, so they are tested on simulated data
// (tests/unit/probe-statistics.test.ts) and measured by `npm run bench:probe`.
//
// Top-k distributions and total variation, the samples path's MMD (Model Equality Testing, Gao,
// Liang, Guestrin, ICLR 2025) and small numeric helpers. The equivalence statistics that decide
// verdicts are in ./divergence.ts.

export interface TopLogprob {
  token: string;
  logprob: number;
}

/** A top-k next-token distribution: the listed tokens' probabilities and the mass left unlisted. */
export interface TopKDistribution {
  probabilities: Map<string, number>;
  unlisted: number;
}

/**
 * Logprobs exponentiated; when the listed mass exceeds 1 (rounding, or a provider that normalised
 * over its top k) it is renormalised to 1, otherwise what is left is the unlisted bucket.
 * A token listed twice keeps its larger probability.
 */
export function toDistribution(top: TopLogprob[]): TopKDistribution {
  const probabilities = new Map<string, number>();
  for (const { token, logprob } of top) {
    const p = Number.isFinite(logprob) ? Math.exp(Math.min(0, logprob)) : 0;
    probabilities.set(token, Math.max(probabilities.get(token) ?? 0, p));
  }
  let listed = 0;
  for (const p of probabilities.values()) listed += p;
  if (listed > 1) {
    for (const [token, p] of probabilities) probabilities.set(token, p / listed);
    return { probabilities, unlisted: 0 };
  }
  return { probabilities, unlisted: 1 - listed };
}

/**
 * Total variation over the union of both lists' tokens, with each side's unlisted mass as one more
 * bucket. A token listed on one side only counts as probability 0 on the other: its mass there is
 * somewhere in that side's unlisted bucket. This can overstate the true distance a little, never
 * by more than the unlisted masses, and it does so alike for the endpoint and for the noise floor.
 */
export function totalVariation(a: TopKDistribution, b: TopKDistribution): number {
  let sum = Math.abs(a.unlisted - b.unlisted);
  for (const [token, p] of a.probabilities) sum += Math.abs(p - (b.probabilities.get(token) ?? 0));
  for (const [token, q] of b.probabilities) if (!a.probabilities.has(token)) sum += q;
  return Math.min(1, sum / 2);
}

// ---- Samples: MMD with a character-prefix kernel.

/** Completions of one prompt: the endpoint's (x) and the reference's (y). */
export interface SampleGroup {
  x: string[];
  y: string[];
}

/**
 * k(a, b) = min(common prefix length, L) / L: the share of the first L prefix lengths on which
 * two completions agree. A sum of indicator kernels (one per prefix length), so positive definite.
 */
export function prefixKernel(a: string, b: string, prefixLength: number): number {
  const limit = Math.min(a.length, b.length, prefixLength);
  let common = 0;
  while (common < limit && a.charCodeAt(common) === b.charCodeAt(common)) common++;
  return common / prefixLength;
}

export interface MmdResult {
  /** Unbiased MMD², averaged over prompts. */
  statistic: number;
  pValue: number;
  /** The permutation null's (1 − alpha) quantile: a statistic above it would have been detected. */
  criticalValue: number;
  n: number;
}

/**
 * Two-sample test over prompts: the kernel compares completions of the same prompt only (as in
 * Model Equality Testing), MMD² is the mean of the per-prompt unbiased estimates, and the p-value
 * comes from relabelling completions within each prompt (`permutations` seeded random relabellings).
 */
export function mmdTest(
  groups: SampleGroup[],
  { prefixLength = 32, permutations = 1_999, seed = 1, alpha = 0.01 }: { prefixLength?: number; permutations?: number; seed?: number; alpha?: number } = {},
): MmdResult {
  const usable = groups.filter((g) => g.x.length >= 2 && g.y.length >= 2);
  if (usable.length === 0) return { statistic: NaN, pValue: 1, criticalValue: NaN, n: 0 };
  const prepared = usable.map((g) => {
    const pooled = [...g.x, ...g.y];
    const kernel = pooled.map((a) => pooled.map((b) => prefixKernel(a, b, prefixLength)));
    return { kernel, size: pooled.length, xCount: g.x.length };
  });
  const labelsOf = (p: (typeof prepared)[number]) => Array.from({ length: p.size }, (_, i) => i < p.xCount);
  const statisticFor = (labelling: boolean[][]) =>
    mean(prepared.map((p, g) => unbiasedMmd2(p.kernel, labelling[g])));
  const observed = statisticFor(prepared.map(labelsOf));
  const random = seededRandom(seed);
  const nulls: number[] = [];
  let extreme = 1;
  for (let b = 0; b < permutations; b++) {
    const value = statisticFor(prepared.map((p) => shuffle(labelsOf(p), random)));
    nulls.push(value);
    if (value >= observed - 1e-12) extreme++;
  }
  nulls.sort((a, b) => a - b);
  const criticalValue = nulls[Math.min(nulls.length - 1, Math.ceil((1 - alpha) * nulls.length))];
  return { statistic: observed, pValue: extreme / (permutations + 1), criticalValue, n: usable.length };
}

function unbiasedMmd2(kernel: number[][], isX: boolean[]): number {
  let xx = 0, yy = 0, xy = 0, nx = 0, ny = 0;
  for (let i = 0; i < isX.length; i++) (isX[i] ? nx++ : ny++);
  for (let i = 0; i < isX.length; i++) {
    for (let j = 0; j < isX.length; j++) {
      if (i === j) continue;
      const k = kernel[i][j];
      if (isX[i] && isX[j]) xx += k;
      else if (!isX[i] && !isX[j]) yy += k;
      else if (isX[i]) xy += k;
    }
  }
  return xx / (nx * (nx - 1)) + yy / (ny * (ny - 1)) - (2 * xy) / (nx * ny);
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

// ---- Small numeric helpers.

function sum(values: number[]): number {
  let s = 0;
  for (const v of values) s += v;
  return s;
}

export function mean(values: number[]): number {
  return values.length ? sum(values) / values.length : NaN;
}

export function standardDeviation(values: number[]): number {
  if (values.length < 2) return NaN;
  const m = mean(values);
  return Math.sqrt(sum(values.map((v) => (v - m) ** 2)) / (values.length - 1));
}

/** Inverse of the standard normal CDF (Acklam's rational approximation, |error| < 1.2e-9). */
export function normalQuantile(p: number): number {
  if (p <= 0) return -Infinity;
  if (p >= 1) return Infinity;
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}
