import { describe, expect, it } from "vitest";
import type { DivergenceEvidence } from "@/lib/probe/methods/types";
import { decideVerdicts, type EndpointEvidence } from "@/lib/probe/verdicts";
import { mmdTest, normalQuantile, prefixKernel, toDistribution, totalVariation } from "@/lib/probe/statistics";

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

describe("normal quantiles, the prefix kernel, MMD", () => {
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

describe("verdicts", () => {
  const DELTA = 1e-3;
  // A divergence with a given 95% interval (nats/token); the other numbers are what a run reports.
  const divergence = (low: number, high: number, over: Partial<DivergenceEvidence> = {}): DivergenceEvidence => ({
    deltaNats: DELTA,
    confidence: 0.95,
    klNats: { estimate: (low + high) / 2, low, high },
    tv: { estimate: 0.01, low: 0.005, high: 0.015 },
    aaKlNats: { estimate: 0, low: -1e-4, high: 1e-4 },
    aaTv: 0.004,
    referenceUnstable: false,
    detectableNats: 1.5e-3,
    pValueAboveDelta: 0.5,
    pValueAboveZero: 0.5,
    top1Agreement: 0.97,
    positions: 300,
    prompts: 40,
    logprobs: { reference: "raw", endpoint: "raw" },
    cachedTokens: 0,
    ...over,
  });
  const evidence = (tag: string, over: Partial<EndpointEvidence> = {}, d: DivergenceEvidence | null = divergence(-1e-4, 3e-4)): EndpointEvidence => ({
    tag, isReference: false, servedByOthers: 0, promptTokenMismatches: 0, promptTokensCompared: 40, promptsPlanned: 40, method: "logprobs",
    test: { method: "logprobs", promptsCompared: 40, divergence: d }, ...over,
  });

  it("decides by where the 95% interval lies against Δ, and says why in numbers", () => {
    const verdicts = decideVerdicts([
      evidence("moonshotai/int4", { isReference: true, method: null, test: null }),
      evidence("faithful"),
      evidence("requant", {}, divergence(4e-3, 9e-3)),
      evidence("straddles", {}, divergence(5e-4, 1.6e-3)),
      evidence("too-noisy", {}, divergence(-5e-4, 2.5e-3, { detectableNats: Infinity })),
      evidence("template", { promptTokenMismatches: 40 }),
      evidence("fallback", { servedByOthers: 3 }),
      evidence("errors", { test: { method: "logprobs", promptsCompared: 12, divergence: divergence(-1e-4, 2e-4) } }),
      evidence("unstable", {}, divergence(-1e-4, 3e-4, { referenceUnstable: true, aaKlNats: { estimate: 6e-4, low: 3e-4, high: 9e-4 } })),
      evidence("processed", {}, divergence(-1e-4, 3e-4, { logprobs: { reference: "raw", endpoint: "processed" } })),
      evidence("no-logprobs", { method: "samples", test: { method: "samples", promptsCompared: 40, divergence: null, note: "samples over 40 prompts showed no difference (MMD p = 0.412), a test that cannot bound the divergence in nats" } }),
    ]);
    const byTag = Object.fromEntries(verdicts.map((v) => [v.tag, v]));
    expect(byTag["moonshotai/int4"].verdict).toBe("reference");
    expect(byTag.faithful.verdict).toBe("equivalent");
    expect(byTag.faithful.reason).toBe("within Δ: KL 1.0e-4 nats/token, 95% interval [-1.0e-4, 3.0e-4], Δ 1.0e-3; A/A 0; 40 prompts, 300 positions");
    expect(byTag.requant.verdict).toBe("differs");
    expect(byTag.straddles.verdict).toBe("cannot tell");
    expect(byTag.straddles.reason).toMatch(/straddles Δ.*a run like this one would detect a divergence of 1\.5e-3 with 80% power$/);
    expect(byTag["too-noisy"].verdict).toBe("cannot tell");
    expect(byTag["too-noisy"].reason).toMatch(/straddles Δ.*this run's spread is too wide to promise 80% power at any divergence; more prompts would narrow it$/);
    expect(byTag.template.verdict).toBe("prompt-format");
    expect(byTag.fallback.verdict).toBe("not-pinned");
    expect(byTag.errors.verdict).toBe("cannot tell");
    expect(byTag.errors.reason).toMatch(/too few valid answers: 12 of 40/);
    expect(byTag.unstable.verdict).toBe("cannot tell");
    expect(byTag.unstable.reason).toMatch(/reference was unstable/);
    expect(byTag.processed.verdict).toBe("cannot tell");
    // Without logprobs nothing is certified, whatever the samples showed.
    expect(byTag["no-logprobs"].verdict).toBe("unverifiable");
    expect(byTag["no-logprobs"].reason).toMatch(/MMD p = 0\.412/);
    expect(verdicts.filter((v) => v.verdict === "equivalent").map((v) => v.tag)).toEqual(["faithful"]);
  });
});
