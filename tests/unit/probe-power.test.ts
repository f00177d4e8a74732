import { describe, expect, it } from "vitest";
import { decideEquivalence, detectableDivergence, intervalOverPrompts } from "@/lib/probe/divergence";
import { lowerThreshold } from "../helpers/binomial";
import { drawRun, generator, type KlWorld } from "../helpers/kl-worlds";

// The printed power claim, tested by simulation. A `cannot tell` verdict says "this run would
// detect a divergence of D with 80% power" (lib/probe/verdicts.ts). The claim is about the next
// run: were the endpoint's true divergence D, a run like this one would say `differs` at least 80%
// of the time. So, in each simulated world (tests/helpers/kl-worlds.ts, written apart from
// lib/probe): draw a run at a true divergence between Δ/4 and 1.5Δ, keep it when its verdict is
// `cannot tell`, read its D, draw a fresh run at true divergence D and count whether it says
// `differs`. A run too noisy to promise anything (D infinite, "too noisy to promise power") makes
// no claim and is not counted; the share of such runs is printed.
// Measured (seeds below, each world at its level): power 0.82-1.00 over the worlds, median D
// 1.5-6.4Δ, no claim in 0-55% of cannot-tell runs (the most in the heavy-tailed and 20-prompt worlds).
//
// The arithmetic. With N claims per world and X of them detected, X ~ Binomial(N, p) where p is
// the claim's real power. The test fails when X ≤ k, k the largest count with P(X ≤ k) < 0.001/W
// at p = 0.8 (W worlds): an implementation whose claim holds (p ≥ 0.8) fails this file less than
// once in 1,000 runs over any seeds. N = 2,000 and W = 6 give k = 1,534 (76.7%): a claim whose
// real power is 75% passes a world about 4% of the time, one of 70% essentially never.
// The naive claim Δ + (t_{0.975} + z_{0.8})·se, which the probe printed before, is run through the
// worlds where prompts differ to show the test can fail: its power there is 24-60%.

const DELTA = 1e-3;
const CLAIMS = 2_000;
// `confidence`: the interval's level when a run reaches its end. Runs of 36 prompts or more have
// three sequential looks and end at 96% (α 0.04 at the last look, lib/probe/sequential.ts); runs
// under 24 prompts have one look at 95%. The claim is simulated for fixed-size runs at that level:
// a run that reached its last look, and a next run judged at its end (a next run may be decided
// earlier, `differs` at look 1 or 2, which only adds power, or `equivalent`, at most α/2 = 0.5% of runs).
type World = KlWorld & { confidence: number };
const WORLDS: World[] = [
  { name: "41 prompts, prompts differ (log-sd 1)", prompts: 41, sigmaLog: 1, noise: 0.3, confidence: 0.96 },
  { name: "41 prompts, a few prompts carry it (log-sd 1.5)", prompts: 41, sigmaLog: 1.5, noise: 0.3, confidence: 0.96 },
  { name: "41 prompts, prompts alike (log-sd 0.5)", prompts: 41, sigmaLog: 0.5, noise: 0.3, confidence: 0.96 },
  { name: "20 prompts", prompts: 20, sigmaLog: 1, noise: 0.3, confidence: 0.95 },
  { name: "100 prompts", prompts: 100, sigmaLog: 1, noise: 0.3, confidence: 0.96 },
  { name: "41 prompts, noisy estimates (noise 1.5Δ per prompt)", prompts: 41, sigmaLog: 0.7, noise: 1.5, confidence: 0.96 },
];
const LEVEL = 0.001 / WORLDS.length;

type Claim = (values: number[], confidence: number) => number;

const probeClaim: Claim = (values, confidence) => detectableDivergence(DELTA, intervalOverPrompts(values, confidence), 0.8, confidence);

// The formula the probe printed before this test, kept here as the control (t_{0.975}(40) and z_{0.8}).
const naiveClaim: Claim = (values) => {
  const i = intervalOverPrompts(values);
  const t975 = { 41: 2.021075, 20: 2.093024, 100: 1.984217 }[values.length] ?? NaN;
  return DELTA + (t975 + 0.841621) * i.se;
};

function measurePower(world: World, claim: Claim, seed: number) {
  const decide = (values: number[]) => decideEquivalence(intervalOverPrompts(values, world.confidence), DELTA);
  const u = generator(seed);
  let detected = 0;
  let claims = 0;
  let silent = 0;
  const ratios: number[] = [];
  while (claims < CLAIMS) {
    const m0 = DELTA * (0.25 + 1.25 * u());
    const first = drawRun(world, m0, DELTA, u);
    if (decide(first) !== "cannot tell") continue;
    const d = claim(first, world.confidence);
    if (!Number.isFinite(d)) {
      silent++;
      continue;
    }
    claims++;
    ratios.push(d / DELTA);
    const next = drawRun(world, d, DELTA, u);
    if (decide(next) === "differs") detected++;
  }
  ratios.sort((a, b) => a - b);
  return { detected, silentShare: silent / (silent + claims), medianOverDelta: ratios[Math.floor(ratios.length / 2)] };
}

describe("the probe's printed power claim, by simulation", () => {
  const k = lowerThreshold(CLAIMS, 0.8, LEVEL);

  it("states its threshold from the binomial tail", () => {
    expect(k).toBe(1534);
  });

  it.each(WORLDS.map((w, i) => [w.name, w, i] as const))("holds at 80%%: %s", (_name, world, i) => {
    const { detected, silentShare, medianOverDelta } = measurePower(world, probeClaim, 1_000 + i);
    console.log(`${world.name}: power ${(detected / CLAIMS).toFixed(3)} over ${CLAIMS} claims; median D = ${medianOverDelta.toFixed(2)}Δ; no claim made in ${(100 * silentShare).toFixed(0)}% of cannot-tell runs`);
    expect(detected).toBeGreaterThan(k);
    // Not vacuous: the claimed divergence stays within a few Δ.
    expect(medianOverDelta).toBeLessThan(8);
  });

  it("fails the naive claim the probe printed before", () => {
    const powers = WORLDS.filter((w) => w.prompts !== 41 || w.sigmaLog >= 1).map((w, i) => measurePower({ ...w, confidence: 0.95 }, naiveClaim, 2_000 + i).detected / CLAIMS);
    console.log(`naive claim's power: ${powers.map((p) => p.toFixed(3)).join(", ")}`);
    for (const p of powers) expect(p).toBeLessThan(0.7);
  });
});
