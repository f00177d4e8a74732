import { describe, expect, it } from "vitest";
import {
  commonPartition,
  decideEquivalence,
  detectableDivergence,
  intervalOverPrompts,
  positionDivergence,
  pValueAbove,
  tCdf,
  tQuantile,
} from "@/lib/probe/divergence";
import { alignedPositions, logprobsKind } from "@/lib/probe/methods/logprobs";

// The equivalence statistics on hand-made inputs: values worked out by hand or from tables, and a
// noise model written here (not the replica's) for the bias correction.

const top = (entries: Record<string, number>) => Object.entries(entries).map(([token, p]) => ({ token, logprob: Math.log(p) }));

/** A small seeded generator for this file's own noise (xorshift32), and a normal draw from it. */
function generator(seed: number) {
  let x = seed >>> 0 || 1;
  const uniform = () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return (x + 0.5) / 4294967296;
  };
  return { uniform, normal: () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform()) };
}

describe("Student's t", () => {
  it("matches the tables", () => {
    expect(tQuantile(0.975, 10)).toBeCloseTo(2.228139, 5);
    expect(tQuantile(0.975, 40)).toBeCloseTo(2.021075, 5);
    expect(tQuantile(0.975, 1)).toBeCloseTo(12.706205, 4);
    expect(tQuantile(0.025, 5)).toBeCloseTo(-2.570582, 5);
    expect(tCdf(0, 7)).toBeCloseTo(0.5, 12);
    expect(tCdf(1.812461, 10)).toBeCloseTo(0.95, 6);
  });
});

describe("the divergence at one position", () => {
  it("compares on tokens listed by every replicate of both sides, the rest in one bucket per side", () => {
    const reading = { reference: [top({ a: 0.6, b: 0.3 }), top({ a: 0.6, b: 0.3 })], endpoint: [top({ a: 0.5, c: 0.2 }), top({ a: 0.5, c: 0.2 })] };
    expect(commonPartition(reading)).toEqual(["a"]);
    const d = positionDivergence(reading);
    // Partition {a, rest}: reference (0.6, 0.4), endpoint (0.5, 0.5). No replicate noise, so no correction.
    const kl = 0.6 * Math.log(0.6 / 0.5) + 0.4 * Math.log(0.4 / 0.5);
    expect(d?.kl).toBeCloseTo(kl, 12);
    expect(d?.klPlugIn).toBeCloseTo(kl, 12);
    expect(d?.tv).toBeCloseTo(0.1, 12);
    expect(d?.top1Agrees).toBe(true);
  });

  it("is zero for identical answers", () => {
    const same = top({ x: 0.7, y: 0.2, z: 0.05 });
    expect(positionDivergence({ reference: [same, same, same, same], endpoint: [same, same] })?.kl).toBeCloseTo(0, 15);
  });

  it("corrects the plug-in bias of noisy replicates, each side by its own noise (unequal noise does not look like a difference)", () => {
    const base = [0.45, 0.25, 0.12, 0.08, 0.05, 0.03, 0.02];
    const tokens = ["a", "b", "c", "d", "e", "f", "g"];
    const g = generator(7);
    const noisy = (sd: number) => {
      const logits = base.map((p) => Math.log(p) + sd * g.normal());
      const z = logits.reduce((s, l) => s + Math.exp(l), 0);
      // List the first five tokens only, as a top-k list does.
      return tokens.slice(0, 5).map((token, i) => ({ token, logprob: logits[i] - Math.log(z) }));
    };
    let plugIn = 0;
    let corrected = 0;
    const trials = 20_000;
    for (let i = 0; i < trials; i++) {
      // The reference a little noisy, the endpoint three times noisier (one call of it is about
      // 2Δ from its own mean): same weights.
      const d = positionDivergence({ reference: [noisy(0.03), noisy(0.03), noisy(0.03), noisy(0.03)], endpoint: [noisy(0.09), noisy(0.09)] });
      plugIn += (d?.klPlugIn ?? NaN) / trials;
      corrected += (d?.kl ?? NaN) / trials;
    }
    // The truth: KL between the two expected distributions on the same partition (five listed
    // tokens and the rest), each the mean of 200,000 noisy draws. Noise moves the expected
    // distribution too (a noisier server is a little flatter on average): of order sd⁴.
    const expectedOf = (sd: number) => {
      const sum = new Array<number>(6).fill(0);
      for (let i = 0; i < 200_000; i++) {
        const listed = noisy(sd).map((t) => Math.exp(t.logprob));
        listed.forEach((p, j) => (sum[j] += p / 200_000));
        sum[5] += (1 - listed.reduce((a, b) => a + b, 0)) / 200_000;
      }
      return sum;
    };
    const p = expectedOf(0.03);
    const q = expectedOf(0.09);
    const truth = p.reduce((s, pj, j) => s + pj * Math.log(pj / q[j]), 0);
    // The plug-in sees the endpoint's noise as a divergence many times the truth …
    expect(plugIn).toBeGreaterThan(5 * truth);
    // … the corrected estimate is the truth up to 5% of the bias it removed (measured: about 2%;
    // the correction is second order, what is left is of higher order in the noise; the Monte Carlo
    // error of the mean over 20,000 trials is about 1% of the bias).
    expect(Math.abs(corrected - truth)).toBeLessThan(0.05 * (plugIn - truth));
  });
});

describe("aligned positions and kinds of logprobs", () => {
  it("counts positions while every replicate produced the same tokens before them", () => {
    const r = (tokens: string[]) => ({ tokens, tops: tokens.map(() => []) });
    expect(alignedPositions([r(["a", "b", "c", "d"]), r(["a", "b", "x", "d"])])).toBe(3); // positions 0, 1, 2
    expect(alignedPositions([r(["a", "b"]), r(["z", "b"])])).toBe(1);
    expect(alignedPositions([r(["a", "b", "c"]), r(["a", "b", "c"])])).toBe(3);
  });

  it("tells raw logprobs from processed ones (renormalised over the listed tokens)", () => {
    const replicate = (tops: Array<Array<{ token: string; logprob: number }>>) => ({ cut: 0, promptTokens: null, tokens: tops.map(() => "a"), tops, answeredAt: 0, order: 0, cachedTokens: 0 });
    expect(logprobsKind([replicate([top({ a: 0.5, b: 0.2, c: 0.1 })])], 20)).toBe("raw");
    expect(logprobsKind([replicate([top({ a: 0.625, b: 0.25, c: 0.125 })])], 20)).toBe("processed");
  });
});

describe("intervals over prompts and the decision", () => {
  it("is the t-interval of the per-prompt values", () => {
    const values = [1, 2, 3, 4, 5];
    const i = intervalOverPrompts(values);
    const se = Math.sqrt(2.5) / Math.sqrt(5);
    expect(i.estimate).toBe(3);
    expect(i.low).toBeCloseTo(3 - 2.776445 * se, 5);
    expect(i.high).toBeCloseTo(3 + 2.776445 * se, 5);
    expect(pValueAbove(values, 3)).toBeCloseTo(0.5, 10);
  });

  it("states a detectable divergence from an upper bound on the spread, and none when too noisy", () => {
    // n = 5: t_{0.975}(4) = 2.776445, t_{0.8}(4) = 0.940965, χ²_{0.1}(4) = 1.063623 (exact; the
    // Wilson–Hilferty cube used gives 1.0602, 0.3% off, hence the 0.5% tolerance), so se_u = se·√(4/χ²).
    const k = 2.776445 + 0.940965;
    const seU = 1e-4 * Math.sqrt(4 / 1.063623);
    const near = (actual: number, expected: number) => expect(Math.abs(actual / expected - 1)).toBeLessThan(0.005);
    // Estimate near Δ: the proportional term decides (Δ / (1 − 0.72) = 3.6e-3).
    near(detectableDivergence(1e-3, { n: 5, se: 1e-4, estimate: 1e-3 }), 1e-3 / (1 - (k * seU) / 1e-3));
    // Estimate well above: Δ + k·se_u decides (1.72e-3).
    near(detectableDivergence(1e-3, { n: 5, se: 1e-4, estimate: 2e-3 }), 1e-3 + k * seU);
    // k·se_u above the estimate, or an estimate at or below zero: nothing can be promised.
    expect(detectableDivergence(1e-3, { n: 5, se: 1e-4, estimate: 5e-4 })).toBe(Infinity);
    expect(detectableDivergence(1e-3, { n: 5, se: 1e-4, estimate: -1e-4 })).toBe(Infinity);
    expect(detectableDivergence(1e-3, { n: 2, se: 1e-4, estimate: 1e-3 })).toBe(Infinity);
  });

  it("equivalent below Δ, differs above, cannot tell across", () => {
    expect(decideEquivalence({ low: -1e-4, high: 9e-4 }, 1e-3)).toBe("equivalent");
    expect(decideEquivalence({ low: 1.1e-3, high: 3e-3 }, 1e-3)).toBe("differs");
    expect(decideEquivalence({ low: 5e-4, high: 1.5e-3 }, 1e-3)).toBe("cannot tell");
    expect(decideEquivalence({ low: -Infinity, high: Infinity }, 1e-3)).toBe("cannot tell");
  });
});
