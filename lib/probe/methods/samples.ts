import { samplerFields } from "../settings";
import { mmdTest } from "../statistics";
import { byPrompt } from "./answers";
import type { ProbeMethodDefinition } from "./types";

// Samples, where logprobs are missing on either side: short completions at the model's sampler,
// compared with the reference's by MMD with a character-prefix kernel (Model Equality Testing).
// This test has almost no power at the divergences that matter (a 4-bit re-quantization), and it
// measures no divergence in nats, so it never certifies anything: its verdict is `unverifiable`,
// and what it saw (an MMD p-value) is said in the reason.

const texts = (rows: Array<{ text: string | null }>) => rows.map((r) => r.text ?? "");

export const samplesMethod: ProbeMethodDefinition<"samples"> = {
  name: "samples",
  title: "Samples (no logprobs: unverifiable)",
  applies: () => true,
  plan: ({ samplesPerPrompt, sampleMaxTokens }) => ({ perPrompt: samplesPerPrompt, referencePerRole: samplesPerPrompt, maxTokens: sampleMaxTokens }),
  body: ({ sampler }) => samplerFields(sampler),
  compare({ runId, reference, endpoint }) {
    const refA = byPrompt(reference.filter((a) => a.role === "reference"), texts);
    const mine = byPrompt(endpoint, texts);
    const prompts = [...mine.keys()].filter((i) => refA.has(i));
    if (prompts.length === 0) return null;
    const r = mmdTest(prompts.map((i) => ({ x: mine.get(i) ?? [], y: refA.get(i) ?? [] })), { seed: runId, permutations: 999 });
    const p = r.pValue < 0.001 ? "p < 0.001" : `p = ${r.pValue.toFixed(3)}`;
    return {
      method: "samples",
      promptsCompared: r.n,
      divergence: null,
      note: `samples over ${r.n} prompts ${r.pValue < 0.01 ? "differ from the reference's" : "showed no difference"} (MMD ${p}), a test that cannot bound the divergence in nats`,
    };
  },
};
