import Decimal from "decimal.js";
import type { PlanEndpoint } from "../lib/probe/plan";
import type { ProbePrompt } from "../lib/probe/prompts";
import { hashString, seededRandom } from "../lib/probe/random";
import type { EndpointResult } from "../lib/probe/results";
import type { ProbeModelSettings } from "../lib/probe/settings";
import { chatBehaviour, freshChatState, type ChatState } from "./chat";
import { kimiK25 } from "./data/kimi-k2.5";
import { FAITHFUL, logSoftmax, servedLogits, topTokens, type ModelVariant } from "./language-model";
import { runProbeInProcess } from "./probe-harness";

// The endpoints the bench puts behind the replica, and each one's true divergence from the
// reference. This world is the replica's toy language model (replica/language-model.ts): fixed
// random logits per prefix, a re-quantized endpoint adds a fixed logit perturbation, every call adds
// fresh logit noise (its nondeterminism). The true KL is computed here from the model itself,
// independently of the probe: KL between the two sides' expected next-token distributions (each the
// mean of 256 noisy calls) on the reference's greedy path, averaged over positions and prompts.

export interface BenchVariant {
  name: string;
  variant: ModelVariant;
  trueKlNats: number;
  /** Serves the reference's weights (only its numerics or noise differ): its null p-values must be uniform. */
  sameWeights: boolean;
}

const PATH = 16;
const DRAWS = 256;

function promptKey(prompt: ProbePrompt): string {
  return String(hashString(JSON.stringify(prompt.messages.map((m) => ({ role: m.role, content: m.content })))));
}

function expected(key: string, prefix: number[], variant: ModelVariant, seed: number): number[] {
  const random = seededRandom(seed);
  const sum = new Array<number>(64).fill(0);
  const draws = variant.runNoise > 0 ? DRAWS : 1;
  for (let d = 0; d < draws; d++) logSoftmax(servedLogits(key, prefix, variant, random)).forEach((l, i) => (sum[i] += Math.exp(l) / draws));
  return sum;
}

/** True mean per-token KL(reference ‖ variant) between expected distributions on the reference's greedy paths. */
export function toyTrueKl(prompts: ProbePrompt[], reference: ModelVariant, variant: ModelVariant): number {
  let total = 0;
  let count = 0;
  for (const prompt of prompts) {
    const key = promptKey(prompt);
    const prefix: number[] = [];
    for (let j = 0; j < PATH; j++) {
      const p = expected(key, prefix, reference, hashString(`ref|${key}|${j}`));
      const q = expected(key, prefix, variant, hashString(`var|${key}|${j}`));
      total += p.reduce((s, pi, i) => s + (pi > 0 ? pi * Math.log(pi / Math.max(q[i], 1e-300)) : 0), 0);
      count++;
      prefix.push(topTokens(logSoftmax(servedLogits(key, prefix, { ...reference, runNoise: 0 }, () => 0.5)), 1)[0].index);
    }
  }
  return total / count;
}

export function benchVariants(prompts: ProbePrompt[], deltaNats: number): BenchVariant[] {
  const reference = FAITHFUL;
  const same = (name: string, runNoise: number): BenchVariant => {
    const variant = { ...FAITHFUL, runNoise };
    return { name, variant, trueKlNats: toyTrueKl(prompts, reference, variant), sameWeights: true };
  };
  // KL grows as the square of the perturbation: scale one measured size to each multiple of Δ.
  const unit = { ...FAITHFUL, perturbation: 0.1, variantKey: "bench-requant" };
  const klUnit = toyTrueKl(prompts, reference, unit);
  const requant = (multiple: number): BenchVariant => {
    const variant = { ...FAITHFUL, perturbation: 0.1 * Math.sqrt((multiple * deltaNats) / klUnit), variantKey: "bench-requant" };
    return { name: `re-quantized, ${multiple}Δ`, variant, trueKlNats: toyTrueKl(prompts, reference, variant), sameWeights: false };
  };
  return [
    same("same weights, same noise", FAITHFUL.runNoise),
    same("same weights, deterministic", 0),
    same("same weights, 3× the noise", 3 * FAITHFUL.runNoise),
    requant(0.25),
    requant(0.5),
    requant(1),
    requant(1.5),
    requant(2),
    requant(3),
    requant(5),
  ];
}

function planEndpoint(p: (typeof kimiK25.providers)[number]): PlanEndpoint {
  return { tag: p.tag, provider: p.provider, inputPricePerM: p.inputPerM, outputPricePerM: p.outputPerM, supportsLogprobs: chatBehaviour(p.tag).logprobs };
}

/** The reference and the replica's endpoints that can serve any variant (logprobs, own template, pinned). */
export function benchEndpoints(): {
  world: string;
  reference: PlanEndpoint;
  endpoints: PlanEndpoint[];
  assign(group: BenchVariant[]): { state: ChatState; endpoints: PlanEndpoint[] };
} {
  const reference = planEndpoint(kimiK25.providers.find((p) => p.tag === "moonshotai/int4") as (typeof kimiK25.providers)[number]);
  const endpoints = kimiK25.providers
    .filter((p) => p.tag !== reference.tag)
    .filter((p) => {
      const b = chatBehaviour(p.tag);
      return b.logprobs && b.extraTemplateTokens === 0 && !b.fallback;
    })
    .map(planEndpoint);
  return {
    world: `the replica's toy language model (64 tokens; per-call logit noise sd ${FAITHFUL.runNoise} on the reference; re-quantization = a fixed logit perturbation)`,
    reference,
    endpoints,
    assign(group) {
      const state = freshChatState();
      const used = endpoints.slice(0, group.length);
      used.forEach((e, i) => (state.variants[e.tag] = group[i].variant));
      return { state, endpoints: used };
    },
  };
}

/** One default run over all of Kimi K2.5's recorded endpoints with status 0, as the replica serves them. */
export function kimiDefaultRun(prompts: ProbePrompt[], settings: ProbeModelSettings): { endpoints: number; requests: number; costUsd: string; results: EndpointResult[] } {
  const all = kimiK25.providers.filter((p) => p.status === 0).map(planEndpoint);
  const reference = all.find((e) => e.tag === "moonshotai/int4") as PlanEndpoint;
  const endpoints = all.filter((e) => e !== reference);
  const out = runProbeInProcess({ modelId: "moonshotai/kimi-k2.5", prompts, reference, endpoints, state: freshChatState(), seed: 1, deltaNats: settings.deltaNats, sampler: settings.sampler });
  return { endpoints: endpoints.length, requests: out.requests, costUsd: new Decimal(out.costUsd).toFixed(4), results: out.results };
}
