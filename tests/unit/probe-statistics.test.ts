import { describe, expect, it } from "vitest";
import { FAITHFUL } from "@/replica/language-model";
import { perturbed, simulateLogprobsTest, simulateSamplesTest } from "@/replica/probe-simulation";
import { decideVerdicts, type EndpointEvidence } from "@/lib/probe/verdicts";
import {
  holmAdjust,
  mmdTest,
  normalQuantile,
  pairedSignFlipTest,
  prefixKernel,
  toDistribution,
  totalVariation,
} from "@/lib/probe/statistics";

const ALPHA = 0.01;

describe("top-k distributions and total variation", () => {
  it("exponentiates logprobs, keeps the unlisted mass as a bucket, renormalises a listed mass over 1", () => {
    const d = toDistribution([{ token: "a", logprob: Math.log(0.5) }, { token: "b", logprob: Math.log(0.3) }]);
    expect(d.probabilities.get("a")).toBeCloseTo(0.5, 12);
    expect(d.unlisted).toBeCloseTo(0.2, 12);
    const over = toDistribution([{ token: "a", logprob: Math.log(0.7) }, { token: "b", logprob: Math.log(0.6) }]);
    expect(over.unlisted).toBe(0);
    expect(over.probabilities.get("a")).toBeCloseTo(0.7 / 1.3, 12);
  });

  it("measures TV over the union of tokens, unlisted mass as one bucket", () => {
    const p = toDistribution([{ token: "a", logprob: Math.log(0.6) }, { token: "b", logprob: Math.log(0.3) }]); // unlisted 0.1
    const q = toDistribution([{ token: "a", logprob: Math.log(0.5) }, { token: "c", logprob: Math.log(0.2) }]); // unlisted 0.3
    // |0.6-0.5| + |0.3-0| + |0-0.2| + |0.1-0.3| = 0.8 → 0.4
    expect(totalVariation(p, q)).toBeCloseTo(0.4, 12);
    expect(totalVariation(p, p)).toBe(0);
    expect(totalVariation(q, p)).toBeCloseTo(totalVariation(p, q), 12);
  });
});

describe("paired sign-flip test, Holm, MMD", () => {
  it("is exact for small n: all differences positive over 10 prompts gives p = 1/1024", () => {
    const result = pairedSignFlipTest(Array(10).fill(0.2), Array(10).fill(0.1));
    expect(result.pValue).toBeCloseTo(1 / 1024, 12);
    expect(result.effect).toBeCloseTo(0.1, 12);
    expect(result.noiseFloor).toBeCloseTo(0.1, 12);
  });

  it("Holm adjusts step-down and keeps untested endpoints null", () => {
    expect(holmAdjust([0.01, null, 0.04, 0.03])).toEqual([0.03, null, 0.06, 0.06]);
  });

  it("normal quantiles", () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.01)).toBeCloseTo(-2.326348, 5);
  });

  it("the prefix kernel counts agreeing prefix lengths", () => {
    expect(prefixKernel("hello", "help!", 8)).toBeCloseTo(3 / 8, 12);
    expect(prefixKernel("abc", "abc", 4)).toBeCloseTo(3 / 4, 12);
  });

  it("MMD tells identical samples from disjoint ones", () => {
    const same = Array.from({ length: 10 }, () => ({ x: ["aa", "ab", "ba", "bb"], y: ["ab", "aa", "bb", "ba"] }));
    const different = Array.from({ length: 10 }, () => ({ x: ["aa", "ab", "aa", "ab"], y: ["ba", "bb", "bb", "ba"] }));
    expect(mmdTest(same, { permutations: 199 }).pValue).toBeGreaterThan(0.5);
    expect(mmdTest(different, { permutations: 199 }).pValue).toBeLessThan(0.01);
  });
});

describe("error rates on the simulated model (the replica's)", () => {
  it(`logprobs, 40 prompts: false-positive rate over 400 seeds is at most ${ALPHA} for faithful endpoints`, () => {
    let falsePositives = 0;
    for (let seed = 1; seed <= 400; seed++) if (simulateLogprobsTest(seed, 40, FAITHFUL).pValue < ALPHA) falsePositives++;
    expect(falsePositives / 400).toBeLessThanOrEqual(ALPHA);
  });

  it("logprobs, 40 prompts: a re-quantized copy (logit perturbation sd 0.15) is detected in at least 95% of 100 seeds", () => {
    let detected = 0;
    for (let seed = 1; seed <= 100; seed++) if (simulateLogprobsTest(seed, 40, perturbed(0.15)).pValue < ALPHA) detected++;
    expect(detected / 100).toBeGreaterThanOrEqual(0.95);
  });

  it(`samples (8 completions of 4 tokens per prompt, 40 prompts): false-positive rate over 60 seeds at most ${ALPHA}; perturbation sd 1.0 detected in at least 90%`, () => {
    let falsePositives = 0;
    let detected = 0;
    for (let seed = 1; seed <= 60; seed++) {
      if (simulateSamplesTest(seed, 40, FAITHFUL, { permutations: 199 }).pValue < ALPHA) falsePositives++;
      if (simulateSamplesTest(seed, 40, perturbed(1.0), { permutations: 199 }).pValue < ALPHA) detected++;
    }
    expect(falsePositives / 60).toBeLessThanOrEqual(ALPHA);
    expect(detected / 60).toBeGreaterThanOrEqual(0.9);
  }, 300_000); // 120 permutation tests: CPU-bound, and slow on a shared 2-core machine
});

describe("verdicts", () => {
  const test = (pValue: number, detectable = 0.01) => ({
    method: "logprobs" as const, statistic: 0.05, noiseFloor: 0.02, pValue, promptsCompared: 40, detectableEffect: detectable,
  });
  const evidence = (tag: string, over: Partial<EndpointEvidence> = {}): EndpointEvidence => ({
    tag, isReference: false, servedByOthers: 0, promptTokenMismatches: 0, promptTokensCompared: 40, promptsPlanned: 40, test: test(0.5), ...over,
  });

  it("gives each verdict its reason, with Holm over the tested endpoints", () => {
    const verdicts = decideVerdicts([
      evidence("moonshotai/int4", { isReference: true, test: null }),
      evidence("faithful"),
      evidence("requant", { test: test(0.0001) }),
      // Raw p 0.004 < 0.01, but four endpoints are tested: Holm gives 3 × 0.004 = 0.012.
      evidence("borderline", { test: test(0.004) }),
      evidence("template", { promptTokenMismatches: 40 }),
      evidence("fallback", { servedByOthers: 3 }),
      evidence("errors", { test: { ...test(0.5), promptsCompared: 12 } }),
      evidence("noisy", { test: test(0.5, 0.2) }),
    ]);
    const byTag = Object.fromEntries(verdicts.map((v) => [v.tag, v]));
    expect(byTag["moonshotai/int4"].verdict).toBe("reference");
    expect(byTag.faithful.verdict).toBe("matches");
    expect(byTag.faithful.reason).toMatch(/would have detected a mean excess TV of 0\.010/);
    expect(byTag.requant.verdict).toBe("differs");
    expect(byTag.requant.reason).toBe("differs from reference (TV 0.050 vs noise 0.020, p < 0.001)");
    expect(byTag.borderline.verdict).toBe("matches");
    expect(byTag.borderline.pValue).toBeCloseTo(0.012, 12);
    expect(byTag.borderline.rawPValue).toBe(0.004);
    expect(byTag.template.verdict).toBe("prompt-format");
    expect(byTag.fallback.verdict).toBe("not-pinned");
    expect(byTag.errors.verdict).toBe("inconclusive");
    expect(byTag.errors.reason).toMatch(/too few valid answers: 12 of 40/);
    expect(byTag.noisy.verdict).toBe("inconclusive");
  });
});
