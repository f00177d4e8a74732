import { hashString, normal, seededRandom } from "../../lib/probe/random";
import { contextWindow, forward, loadFloatWeights, prepareNetwork, type FloatWeights, type PreparedNetwork } from "./network";
import type { LmVariant, Nondeterminism, WeightFormat } from "./types";

// Endpoint variants: which weights an endpoint serves, its numerics, and its nondeterminism.
//
// What the formats are applied to: Moonshot released Kimi K2.5 as INT4 (group 32) and nothing
// finer, so a provider that serves another format converts that released checkpoint. Here too:
// every format but float32 is applied to the dequantized INT4-g32 weights ("the release"), and
// int4-g32 itself is the release as it is. float32 is the network's unquantized training weights
// (a provider with a higher-precision checkpoint than the release, i.e. another model file).

export const NO_NOISE: Nondeterminism = { sd: 0, coBatchWindowMs: 0, jumpRate: 0, jumpSd: 0 };
/** Fresh logit jitter on every call (batch-dependent reduction order). */
export const BATCH_NOISE: Nondeterminism = { sd: 0.01, coBatchWindowMs: 0, jumpRate: 0, jumpSd: 0 };
/** Batch jitter, but identical requests arriving within 500 ms are batched together and share it. */
export const CO_BATCHED: Nondeterminism = { sd: 0.01, coBatchWindowMs: 500, jumpRate: 0, jumpSd: 0 };
/** Batch jitter plus, on 3% of calls, a perturbation ten times larger (another MoE routing). */
export const HEAVY_JUMPS: Nondeterminism = { sd: 0.01, coBatchWindowMs: 0, jumpRate: 0.03, jumpSd: 0.1 };

export function variant(name: string, weights: WeightFormat, over: Partial<Omit<LmVariant, "name" | "weights">> = {}): LmVariant {
  return { name, weights, activations: "fp32", summation: "sequential", nondeterminism: NO_NOISE, ...over };
}

/** The reference: the released INT4-g32 weights, float32 activations, sequential sums, deterministic. */
export const REFERENCE = variant("reference int4-g32", "int4-g32");

/** Every variant the bench measures, benign ones first. */
export const BENCH_VARIANTS: LmVariant[] = [
  REFERENCE,
  variant("int4-g32, bf16 activations", "int4-g32", { activations: "bf16" }),
  variant("int4-g32, reversed sums", "int4-g32", { summation: "reversed" }),
  variant("int4-g32, pairwise sums", "int4-g32", { summation: "pairwise" }),
  variant("int4-g32, batch noise", "int4-g32", { nondeterminism: BATCH_NOISE }),
  variant("int4-g32, co-batched", "int4-g32", { nondeterminism: CO_BATCHED }),
  variant("int4-g32, heavy jumps", "int4-g32", { nondeterminism: HEAVY_JUMPS }),
  variant("fp8-e4m3 (per channel)", "fp8-e4m3"),
  variant("w8a8 (int8 per channel / per token)", "w8a8"),
  variant("float32 (unquantized)", "float32"),
  variant("int4-g128", "int4-g128"),
  variant("nvfp4", "nvfp4"),
  variant("mxfp4", "mxfp4"),
];

const prepared = new Map<WeightFormat, PreparedNetwork>();
let release: FloatWeights | null = null;

/** The released checkpoint: the float weights quantized to INT4-g32 and dequantized (biases and embeddings as they are). */
export function releasedWeights(): FloatWeights {
  if (release) return release;
  const { weights } = loadFloatWeights();
  const int4 = prepareNetwork(weights, "int4-g32");
  release = { ...weights, w1: int4.w1.data, w2: int4.w2.data };
  return release;
}

/** The network an endpoint of this weight format multiplies by (cached per format). */
export function networkFor(format: WeightFormat): PreparedNetwork {
  let net = prepared.get(format);
  if (!net) {
    net = format === "float32" ? prepareNetwork(loadFloatWeights().weights, "float32") : prepareNetwork(releasedWeights(), format);
    prepared.set(format, net);
  }
  return net;
}

// The network sees only the last CONTEXT tokens, so a variant's clean logits are a function of
// that window: memoised per numerics (a bench asks the same positions of many variants many times).
const memo = new Map<string, Map<string, Float64Array>>();
const MEMO_LIMIT = 100_000;

/** The variant's logits without noise: its weights and numerics, deterministic. A fresh copy the caller may change. */
export function cleanLogits(v: LmVariant, tokens: ArrayLike<number>): Float64Array {
  const numerics = `${v.weights}|${v.activations}|${v.summation}`;
  let table = memo.get(numerics);
  if (!table) memo.set(numerics, (table = new Map()));
  const key = contextWindow(tokens).join(",");
  let logits = table.get(key);
  if (!logits) {
    if (table.size >= MEMO_LIMIT) table.clear();
    logits = forward(networkFor(v.weights), tokens, v);
    table.set(key, logits);
  }
  return logits.slice();
}

/**
 * One call's noise draw: whether it jumped, and the key its per-position noise is derived from.
 * Two calls with the same draw key see the same noise (co-batched identical requests).
 */
export interface NoiseDraw {
  key: number;
  jumped: boolean;
}

export function drawNoise(n: Nondeterminism, random: () => number): NoiseDraw {
  const key = Math.floor(random() * 2 ** 32);
  return { key, jumped: n.jumpRate > 0 && random() < n.jumpRate };
}

/** The logits one call sees at a position: the variant's, plus its noise draw at that position. */
export function servedLogits(v: LmVariant, tokens: ArrayLike<number>, draw: NoiseDraw | null): Float64Array {
  const logits = cleanLogits(v, tokens);
  const n = v.nondeterminism;
  const sd = draw ? n.sd + (draw.jumped ? n.jumpSd : 0) : 0;
  if (sd === 0 || !draw) return logits;
  const random = seededRandom(hashString(`${draw.key}|${tokens.length}|${Array.prototype.slice.call(tokens, -8).join(",")}`));
  for (let i = 0; i < logits.length; i++) logits[i] += sd * normal(random);
  return logits;
}

export { loadFloatWeights };
