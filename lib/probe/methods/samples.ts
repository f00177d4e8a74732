import { mmdTest } from "../statistics";
import { byPrompt } from "./answers";
import type { ProbeMethodDefinition } from "./types";

// Samples, where logprobs are missing on either side: short completions at temperature 1 compared
// with the reference's by MMD with a character-prefix kernel (Model Equality Testing); the noise
// floor is the reference against a second set of its own samples.

const texts = (rows: Array<{ text: string | null }>) => rows.map((r) => r.text ?? "");

export const samplesMethod: ProbeMethodDefinition<"samples"> = {
  name: "samples",
  title: "Samples",
  applies: () => true,
  plan: ({ samplesPerPrompt, sampleMaxTokens }) => ({ perPrompt: samplesPerPrompt, maxTokens: sampleMaxTokens }),
  body: () => ({ temperature: 1 }),
  statisticName: "MMD²",
  describeDetectable: (detectable) => `would have detected an MMD² above ${fmt(detectable)}`,
  compare({ runId, level, alpha, reference, referenceRepeat, endpoint }) {
    const refA = byPrompt(reference, texts);
    const refB = byPrompt(referenceRepeat, texts);
    const mine = byPrompt(endpoint, texts);
    // The reference against itself: the same test, the same seed for every endpoint of the run.
    const noisePrompts = [...refA.keys()].filter((i) => refB.has(i));
    const noise = noisePrompts.length
      ? mmdTest(noisePrompts.map((i) => ({ x: refB.get(i) ?? [], y: refA.get(i) ?? [] })), { seed: runId + 7, alpha: level })
      : null;
    const prompts = [...mine.keys()].filter((i) => refA.has(i));
    if (prompts.length === 0) return null;
    const r = mmdTest(prompts.map((i) => ({ x: mine.get(i) ?? [], y: refA.get(i) ?? [] })), { seed: runId, alpha: level });
    return {
      method: "samples",
      statistic: r.statistic,
      noiseFloor: noise?.statistic ?? NaN,
      pValue: r.pValue,
      promptsCompared: r.n,
      detectableEffect: r.criticalValue,
      noiseRejected: noise ? noise.pValue < alpha : true,
    };
  },
};

function fmt(value: number): string {
  if (!Number.isFinite(value)) return "∞";
  return Math.abs(value) >= 0.01 || value === 0 ? value.toFixed(3) : value.toExponential(1);
}
