// replica/lm: the replica's real language network, real number formats on its weights, endpoint
// variants, a sampler, and the true divergence of a variant from the reference. Test and bench
// infrastructure: nothing in lib/ imports it (lib/probe/random.ts is the one seeded generator both use).
//
// INTERFACE (stable; other branches build on it)
//
// Network (network.ts, vocab.ts)
//   VOCAB_SIZE, tokenText(id), encodeText(text), renderChat(messages, continueLast?) → token ids
//   loadFloatWeights() → {weights, header}          the committed float32 weights (weights.bin)
//   forward(net, tokens, {activations, summation}) → Float64Array logits
//
// Formats (formats.ts: pure encoders; quantize.ts: applied to a weight matrix)
//   e4m3Bits / decodeE4M3 / roundE4M3, e2m1Bits / decodeE2M1 / roundE2M1, mxScaleCode / e8m0Value,
//   roundBf16, int4, int8, roundHalfEven
//   quantizeMatrix({rows, cols, data}, format: WeightFormat) → dequantized matrix (+ int8 codes for w8a8)
//   WeightFormat = "float32" | "int4-g32" | "int4-g128" | "fp8-e4m3" | "w8a8" | "nvfp4" | "mxfp4"
//
// Variants (variants.ts, types.ts)
//   LmVariant {name, weights: WeightFormat, activations: "fp32"|"bf16", summation: "sequential"|"reversed"|"pairwise",
//              nondeterminism: {sd, coBatchWindowMs, jumpRate, jumpSd}}
//   variant(name, format, over?) → LmVariant; REFERENCE (int4-g32, fp32, sequential, no noise); BENCH_VARIANTS
//   NO_NOISE, BATCH_NOISE, CO_BATCHED, HEAVY_JUMPS: nondeterminism presets
//   cleanLogits(variant, tokens) → Float64Array; drawNoise(nondeterminism, random) → NoiseDraw;
//   servedLogits(variant, tokens, draw | null) → Float64Array   (one call's logits at a position)
//
// Sampler (sampler.ts)
//   SamplerSettings {temperature, top_p, top_k, min_p, presence_penalty, frequency_penalty}
//   KIMI_K25_SAMPLER (1.0, 0.95), PLAIN_SAMPLER; logSoftmax(logits) = raw logprobs;
//   processedLogprobs(logits, sampler, counts?) = what the sampler draws from; sampleFrom(logprobs, u)
//
// Truth (divergence.ts)
//   trueKl(variant, reference, sampler?, {heldOutPositions, onPolicyPositions, noiseDraws, seed}?)
//     → {klNats, klHeldOutNats, klOnPolicyNats, tv, top1Agreement, referenceEntropyNats, positions}
//
// The replica's chat completions (replica/chat.ts; the HTTP handler in replica/server.ts wraps it)
//   freshChatState() → ChatState;  completeChat(state, body, nowMs, findModel?) → {status, json}
//   body: OpenRouter's chat request (model, messages, max_tokens, temperature, top_p, top_k, min_p,
//   presence_penalty, frequency_penalty, seed, logprobs, top_logprobs, provider.only, reasoning);
//   json: OpenRouter's answer (choices[0].logprobs.content[] with top_logprobs at every generated
//   position; usage with prompt_tokens_details.cached_tokens and cost) or {error: {code, message}}.
//   nowMs decides co-batching (identical requests within an endpoint's window share a noise draw)
//   and prompt-cache hits; pass a simulated clock. findModel defaults to the recorded models
//   (replica/data) without patches.
//   CHAT_BEHAVIOURS: per endpoint tag, its LmVariant, logprobs (boolean) and logprobsKind
//   (raw | processed), prefill (continue | new-turn | reject), extraTemplateTokens, cacheTtlMs,
//   fallback. chatBehaviour(tag, state.overrides) is what an endpoint does now; set
//   state.overrides[tag] = Partial<ChatBehaviour> to change one in a simulation, or
//   requantize(state, tag, format | null) (HTTP: POST /__replica/requantize {tag, format}).
//   state.calls[] records {tag, servedBy, promptHash, seed, atMs, coBatched} per answered call.

export * from "./types";
export { VOCAB_SIZE, SPECIAL, tokenText, encodeText, renderChat } from "./vocab";
export { CONTEXT, forward, loadFloatWeights, prepareNetwork, type FloatWeights, type PreparedNetwork } from "./network";
export * from "./formats";
export { quantizeMatrix, quantizeInt4, quantizeFp8PerChannel, quantizeW8, quantizeNvfp4, quantizeMxfp4, type Matrix } from "./quantize";
export { BATCH_NOISE, BENCH_VARIANTS, CO_BATCHED, HEAVY_JUMPS, NO_NOISE, REFERENCE, cleanLogits, drawNoise, networkFor, servedLogits, variant, type NoiseDraw } from "./variants";
export { KIMI_K25_SAMPLER, PLAIN_SAMPLER, logSoftmax, processedLogprobs, sampleFrom } from "./sampler";
export { trueKl, evaluationPositions, type TrueDivergence, type TrueKlOptions } from "./divergence";
export { CHAT_BEHAVIOURS, chatBehaviour, completeChat, freshChatState, recordedModel, requantize, type ChatAnswer, type ChatBehaviour, type ChatCall, type ChatModel, type ChatState } from "../chat";
