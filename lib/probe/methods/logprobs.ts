import { detectableEffect, pairedSignFlipTest, toDistribution, totalVariation } from "../statistics";
import { byPrompt, topLogprobsOf } from "./answers";
import type { ProbeMethodDefinition } from "./types";

// Next-token distributions: one token at temperature 0 with the top logprobs, per prompt the total
// variation between the endpoint's and the reference's, against the reference's repeat call (the
// noise floor), decided by a paired sign-flip test over prompts.

const firstTop = (rows: Array<{ topLogprobs: unknown }>) => topLogprobsOf(rows[0]?.topLogprobs);

export const logprobsMethod: ProbeMethodDefinition<"logprobs"> = {
  name: "logprobs",
  title: "Next-token distributions",
  applies: (reference, endpoint) => reference.supportsLogprobs && endpoint.supportsLogprobs,
  plan: () => ({ perPrompt: 1, maxTokens: 1 }),
  body: ({ topLogprobs }) => ({ temperature: 0, logprobs: true, top_logprobs: topLogprobs }),
  statisticName: "TV",
  describeDetectable: (detectable, level) => `would have detected a mean excess TV of ${fmt(detectable)} with 80% power at level ${fmt(level)}`,
  compare({ runId, level, reference, referenceRepeat, endpoint }) {
    const refA = byPrompt(reference, firstTop);
    const refB = byPrompt(referenceRepeat, firstTop);
    const mine = byPrompt(endpoint, firstTop);
    const endpointTv: number[] = [];
    const noiseTv: number[] = [];
    for (const [i, top] of mine) {
      const a = refA.get(i);
      const b = refB.get(i);
      if (!a || !b) continue;
      const ref = toDistribution(a);
      endpointTv.push(totalVariation(toDistribution(top), ref));
      noiseTv.push(totalVariation(toDistribution(b), ref));
    }
    if (endpointTv.length === 0) return null;
    const r = pairedSignFlipTest(endpointTv, noiseTv, { seed: runId });
    return { method: "logprobs", statistic: r.statistic, noiseFloor: r.noiseFloor, pValue: r.pValue, promptsCompared: r.n, detectableEffect: detectableEffect(r.sdDifference, r.n, level) };
  },
};

function fmt(value: number): string {
  if (!Number.isFinite(value)) return "∞";
  return Math.abs(value) >= 0.01 || value === 0 ? value.toFixed(3) : value.toExponential(1);
}
