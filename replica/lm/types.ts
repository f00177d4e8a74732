// The types of the replica's real language network and the endpoint variants built on it
// (see index.ts for the whole interface). Test and bench infrastructure: nothing in lib/ imports replica/lm.

/** How an endpoint stores the network's linear-layer weights (see formats.ts and quantize.ts). */
export type WeightFormat = "float32" | "int4-g32" | "int4-g128" | "fp8-e4m3" | "w8a8" | "nvfp4" | "mxfp4";

export const WEIGHT_FORMATS: readonly WeightFormat[] = ["float32", "int4-g32", "int4-g128", "fp8-e4m3", "w8a8", "nvfp4", "mxfp4"];

/** Activation precision between layers: fp32, or rounded to bfloat16 after every layer. */
export type Activations = "fp32" | "bf16";

/** The order a dot product is accumulated in float32 (Math.fround after every addition). */
export type Summation = "sequential" | "reversed" | "pairwise";

/**
 * Run-to-run nondeterminism of a serving stack, as logit noise of one call:
 * - `sd`: standard deviation of fresh per-call logit jitter (batch-dependent reduction order); 0 = deterministic;
 * - `coBatchWindowMs`: identical requests (same endpoint, same messages and sampler, any seed)
 *   arriving within this many ms of the first of their batch share its noise draw (0 = never);
 * - `jumpRate`, `jumpSd`: with probability jumpRate a call gets an extra, much larger perturbation
 *   (another MoE routing, another kernel path).
 * The noise is a fixed direction per position and draw: logits + sd·z with z ~ N(0, 1) per token.
 */
export interface Nondeterminism {
  sd: number;
  coBatchWindowMs: number;
  jumpRate: number;
  jumpSd: number;
}

/** An endpoint's numerics: which weights it serves and how it computes with them. */
export interface LmVariant {
  name: string;
  weights: WeightFormat;
  activations: Activations;
  summation: Summation;
  nondeterminism: Nondeterminism;
}

/** The sampler as OpenRouter passes it (0 / 1 mean "off" as in vLLM: top_k 0, top_p 1, min_p 0). */
export interface SamplerSettings {
  temperature: number;
  top_p: number;
  top_k: number;
  min_p: number;
  presence_penalty: number;
  frequency_penalty: number;
}

/** Whether an endpoint's returned logprobs are the model's (log-softmax at T = 1) or after its sampler. */
export type LogprobsKind = "raw" | "processed";

/** What an endpoint does with a trailing assistant message. */
export const PREFILL_BEHAVIOURS = ["continue", "new-turn", "reject"] as const;
export type PrefillBehaviour = (typeof PREFILL_BEHAVIOURS)[number];
