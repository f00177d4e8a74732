import { FAITHFUL, generate, type ModelVariant } from "./language-model";
import { hashString, seededRandom } from "../lib/probe/random";
import { mmdTest, pairedSignFlipTest, toDistribution, totalVariation, type MmdResult, type PairedTestResult } from "../lib/probe/statistics";

// Simulated probe runs on the replica's toy language model, without HTTP: what the unit tests of
// the statistics and the benchmark measure error rates on.

export function perturbed(size: number, key = "requantized"): ModelVariant {
  return { ...FAITHFUL, perturbation: size, variantKey: key };
}

function callRandom(seed: number, who: string, prompt: number, call: number): () => number {
  return seededRandom(hashString(`${seed}|${who}|${prompt}|${call}`));
}

/** One simulated logprobs comparison over `prompts` prompts: endpoint vs reference, reference vs itself. */
export function simulateLogprobsTest(seed: number, prompts: number, endpoint: ModelVariant, permutations = 999): PairedTestResult {
  const endpointTv: number[] = [];
  const noiseTv: number[] = [];
  for (let i = 0; i < prompts; i++) {
    const key = `sim-${seed}-${i}`;
    const dist = (variant: ModelVariant, who: string) =>
      toDistribution(generate(key, variant, { maxTokens: 1, temperature: 0, topK: 20, callRandom: callRandom(seed, who, i, 0) })[0].top);
    const reference = dist(FAITHFUL, "ref-a");
    noiseTv.push(totalVariation(dist(FAITHFUL, "ref-b"), reference));
    endpointTv.push(totalVariation(dist(endpoint, "endpoint"), reference));
  }
  return pairedSignFlipTest(endpointTv, noiseTv, { permutations, seed });
}

/** One simulated samples comparison: `samples` completions of `maxTokens` tokens per prompt and side. */
export function simulateSamplesTest(
  seed: number,
  prompts: number,
  endpoint: ModelVariant,
  { samples = 8, maxTokens = 4, permutations = 499 }: { samples?: number; maxTokens?: number; permutations?: number } = {},
): MmdResult {
  const groups = Array.from({ length: prompts }, (_, i) => {
    const key = `sim-${seed}-${i}`;
    const draw = (variant: ModelVariant, who: string) =>
      Array.from({ length: samples }, (_, s) =>
        generate(key, variant, { maxTokens, temperature: 1, topK: 0, callRandom: callRandom(seed, who, i, s) }).map((t) => t.token).join(""),
      );
    return { x: draw(endpoint, "endpoint"), y: draw(FAITHFUL, "ref-a") };
  });
  return mmdTest(groups, { permutations, seed });
}
