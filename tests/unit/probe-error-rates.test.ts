import { describe, expect, it } from "vitest";
import type { PlanEndpoint } from "@/lib/probe/plan";
import { BUILTIN_PROMPTS } from "@/lib/probe/prompts";
import { probeSettingsFor } from "@/lib/probe/settings";
import { chatBehaviour, freshChatState } from "@/replica/chat";
import { kimiK25 } from "@/replica/data/kimi-k2.5";
import { BATCH_NOISE, variant } from "@/replica/lm";
import { runProbeInProcess } from "@/replica/probe-harness";
import { upperThreshold as threshold } from "../helpers/binomial";

// The probe's verdict error rates at the default budget (41 built-in prompts, Δ = 1e-3), whole runs
// of the probe's own code against the replica's real network in process. Each run probes three
// endpoints beside the reference:
// - a twin: the reference's own numerics and noise, another server (true KL 0): its p-values of
//   "KL ≤ 0" must be uniform (a Kolmogorov-Smirnov bound), and it must be `equivalent`;
// - bf16 activations (true KL 1.4e-5 = Δ/70, bench/lm-variants.md): benign, must be `equivalent`;
// - FP8 E4M3 per channel (true KL 2.2e-3 = 2.2Δ): must be `differs`.
// Each run has its own serving noise (the harness offsets the replica's call counters by the run's
// seed), so one endpoint's verdicts over the runs are independent trials.
//
// The arithmetic. With N runs, a claimed rate r and an observed count X ~ Binomial(N, r), the test
// fails only when X reaches k, the smallest count with P(X ≥ k) < 0.001 / 5 (five such bounds
// below, so a correct implementation fails this file less than once in 1,000 runs):
// N = 50: equivalent ≥ 95% (failures r = 0.05) → k = 10; differs ≤ 1% (r = 0.01) → k = 5;
// differs ≥ 90% at 2Δ (failures r = 0.1) → k = 15. The tail is computed here, and the thresholds
// above are asserted against it. The KS bound: P(D_N > 1.95/√N) ≈ 0.001 for uniform p-values
// (asymptotic Kolmogorov distribution; 1.95 = √(−ln(0.0005)/2)), so the whole file stays near 1 in 1,000.
// Measured: 248 s for the 50 runs while a benchmark and other work shared the two cores.

const RUNS = 50;
const MODEL = "moonshotai/kimi-k2.5";

function endpoint(tag: string): PlanEndpoint {
  const p = kimiK25.providers.find((x) => x.tag === tag);
  if (!p) throw new Error(tag);
  return { tag, provider: p.provider, inputPricePerM: p.inputPerM, outputPricePerM: p.outputPerM, supportsLogprobs: true };
}

describe("the probe's error rates on the replica's network", () => {
  it("computes its own thresholds", () => {
    expect(threshold(RUNS, 0.05, 0.001 / 5)).toBe(10);
    expect(threshold(RUNS, 0.01, 0.001 / 5)).toBe(5);
    expect(threshold(RUNS, 0.1, 0.001 / 5)).toBe(15);
  });

  it(`over ${RUNS} runs: a twin and bf16 are equivalent, FP8 (2.2Δ) differs, the twin's null p-values are uniform`, () => {
    const settings = probeSettingsFor(MODEL);
    const reference = endpoint("moonshotai/int4");
    const [twin, bf16, fp8] = [endpoint("parasail/int4"), endpoint("chutes/int4"), endpoint("fireworks")];
    const twinVariant = variant("twin: int4-g32, batch noise", "int4-g32", { nondeterminism: BATCH_NOISE });
    const counts = { twinNotEquivalent: 0, twinDiffers: 0, bf16NotEquivalent: 0, bf16Differs: 0, fp8NotDiffers: 0 };
    const pValues: number[] = [];
    for (let seed = 1; seed <= RUNS; seed++) {
      const state = freshChatState();
      const plain = { logprobs: true, logprobsKind: "raw" as const, extraTemplateTokens: 0, fallback: undefined, cacheTtlMs: 0 };
      state.overrides[twin.tag] = { ...plain, variant: twinVariant };
      state.overrides[bf16.tag] = { ...plain, variant: chatBehaviour("chutes/int4").variant };
      state.overrides[fp8.tag] = { ...plain, variant: variant("fp8-e4m3", "fp8-e4m3", { nondeterminism: BATCH_NOISE }) };
      const out = runProbeInProcess({ modelId: MODEL, prompts: BUILTIN_PROMPTS, reference, endpoints: [twin, bf16, fp8], state, seed, deltaNats: settings.deltaNats, sampler: settings.sampler });
      const verdict = (tag: string) => out.results.find((r) => r.tag === tag);
      const t = verdict(twin.tag);
      if (t?.verdict !== "equivalent") counts.twinNotEquivalent++;
      if (t?.verdict === "differs") counts.twinDiffers++;
      if (t?.divergence) pValues.push(t.divergence.pValueAboveZero);
      if (verdict(bf16.tag)?.verdict !== "equivalent") counts.bf16NotEquivalent++;
      if (verdict(bf16.tag)?.verdict === "differs") counts.bf16Differs++;
      if (verdict(fp8.tag)?.verdict !== "differs") counts.fp8NotDiffers++;
    }
    expect(counts.twinNotEquivalent).toBeLessThan(10);
    expect(counts.bf16NotEquivalent).toBeLessThan(10);
    expect(counts.twinDiffers).toBeLessThan(5);
    expect(counts.bf16Differs).toBeLessThan(5);
    expect(counts.fp8NotDiffers).toBeLessThan(15);
    // Null calibration: the twin's p-values of "KL ≤ 0" against the uniform distribution.
    expect(pValues).toHaveLength(RUNS);
    const sorted = [...pValues].sort((a, b) => a - b);
    const ks = sorted.reduce((d, p, i) => Math.max(d, Math.abs(p - i / sorted.length), Math.abs(p - (i + 1) / sorted.length)), 0);
    expect(ks).toBeLessThan(1.95 / Math.sqrt(RUNS));
  }, 240_000); // 50 runs of 410 requests each: 30 s in a CI run, 102 s beside a second one
});
