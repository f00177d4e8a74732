import { describe, expect, it } from "vitest";
import { seededRandom } from "@/lib/probe/random";
import { BATCH_NOISE, HEAVY_JUMPS, PLAIN_SAMPLER, REFERENCE, cleanLogits, drawNoise, loadFloatWeights, logSoftmax, renderChat, servedLogits, trueKl, variant } from "@/replica/lm";

// The replica's network is a real model with realistic next-token distributions, and the endpoint
// variants sit where bench/lm-variants.md says: numerics far below 8-bit, 8-bit far below 4-bit.

describe("the network", () => {
  it("loads the committed weights and has non-trivial distributions", () => {
    const { header } = loadFloatWeights();
    expect(header).toMatchObject({ vocab: 102, context: 8, embed: 16, hidden: 128 });
    expect(header.heldOutLossNats).toBeLessThan(1.2);
    // After a prompt the distribution is neither one-hot nor uniform (ln 102 = 4.6 nats).
    const logp = logSoftmax(cleanLogits(REFERENCE, renderChat([{ role: "user", content: "Permission is hereby granted, free of " }])));
    const p = Array.from(logp, Math.exp);
    const entropy = -p.reduce((s, x) => s + (x > 0 ? x * Math.log(x) : 0), 0);
    expect(entropy).toBeGreaterThan(0.05);
    expect(entropy).toBeLessThan(4);
    expect(p.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 10);
  });

  it("orders the variants' true KL: numerics < 1e-4 ≤ 8-bit < 1e-2 < 4-bit", () => {
    const options = { heldOutPositions: 150, onPolicyPositions: 150, noiseDraws: 4 };
    const kl = (v: ReturnType<typeof variant>) => trueKl(v, REFERENCE, PLAIN_SAMPLER, options).klNats;
    expect(kl(REFERENCE)).toBe(0);
    expect(kl(variant("bf16", "int4-g32", { activations: "bf16" }))).toBeLessThan(1e-4);
    expect(kl(variant("reversed", "int4-g32", { summation: "reversed" }))).toBeLessThan(1e-4);
    expect(kl(variant("noise", "int4-g32", { nondeterminism: BATCH_NOISE }))).toBeLessThan(1e-4);
    const fp8 = kl(variant("fp8", "fp8-e4m3"));
    expect(fp8).toBeGreaterThan(1e-4);
    expect(fp8).toBeLessThan(1e-2);
    for (const format of ["nvfp4", "mxfp4", "int4-g128"] as const) expect(kl(variant(format, format))).toBeGreaterThan(1e-2);
  });

  it("heavy jumps hit about 3% of calls and move the logits about ten times more", () => {
    // 4,000 draws at rate 0.03: mean 120, sd √(4000·0.03·0.97) = 10.8. The bounds 75..165 are
    // 4.2 sd away: a correct generator falls outside them with probability < 3e-5.
    const random = seededRandom(11);
    const draws = Array.from({ length: 4000 }, () => drawNoise(HEAVY_JUMPS, random));
    const jumps = draws.filter((d) => d.jumped).length;
    expect(jumps).toBeGreaterThanOrEqual(75);
    expect(jumps).toBeLessThanOrEqual(165);
    const v = variant("jumpy", "int4-g32", { nondeterminism: HEAVY_JUMPS });
    const tokens = renderChat([{ role: "user", content: "Copy the licence." }]);
    const clean = cleanLogits(v, tokens);
    const rms = (d: (typeof draws)[number]) => Math.sqrt(servedLogits(v, tokens, d).reduce((s, x, i) => s + (x - clean[i]) ** 2, 0) / clean.length);
    const calm = rms(draws.find((d) => !d.jumped) as (typeof draws)[number]);
    const jumped = rms(draws.find((d) => d.jumped) as (typeof draws)[number]);
    expect(calm).toBeGreaterThan(0.005);
    expect(calm).toBeLessThan(0.02);
    expect(jumped).toBeGreaterThan(0.05);
  });
});
