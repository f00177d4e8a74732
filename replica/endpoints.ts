import Decimal from "decimal.js";
import { supportedParameters } from "./chat";
import { glm5 } from "./data/glm-5";
import { kimiK25, type ModelSeed, type ProviderSeed } from "./data/kimi-k2.5";

// The recorded models' endpoints in OpenRouter's shape (GET /api/v1/models/{id}/endpoints), with
// uptimes that move from poll to poll and the patches a test applied.

/** Changes to the recorded data, for trying change detection and odd values. */
export interface Patch {
  model: string;
  tag: string;
  /** Fields of the endpoint object to set, in OpenRouter's names (e.g. {"quantization": "fp8"}). */
  set?: Record<string, unknown>;
  remove?: boolean;
}

export const REPLICA_MODELS: ModelSeed[] = [kimiK25, glm5];

/** Deterministic wobble so uptimes move between polls; poll 0 shows the recorded figures. */
function wobble(seedValue: number, index: number, poll: number, amplitude: number): number {
  if (poll === 0) return seedValue;
  const delta = amplitude * Math.sin(poll * 0.9 + index * 1.7);
  return Math.round(Math.min(100, Math.max(0, seedValue + delta)) * 100) / 100;
}

export function perToken(perM: string): string {
  return new Decimal(perM).div(1_000_000).toFixed();
}

export function endpointJson(model: ModelSeed, p: ProviderSeed, index: number, poll: number, withStats: boolean) {
  const healthy = p.status === 0;
  const amp = healthy ? Math.min(1.2, (100 - p.uptime) * 0.6 + 0.2) : 6;
  const percentiles = (v: number) => ({ p50: v, p75: Math.round(v * 1.3), p90: Math.round(v * 1.7), p99: Math.round(v * 2.6) });
  return {
    name: `${p.provider} | ${model.permaslug}`,
    model_id: model.permaslug,
    model_name: model.name,
    context_length: p.contextLength,
    pricing: {
      prompt: perToken(p.inputPerM),
      completion: perToken(p.outputPerM),
      request: "0",
      image: "0",
      ...(p.cacheReadPerM ? { input_cache_read: perToken(p.cacheReadPerM) } : {}),
      discount: 0,
    },
    provider_name: p.provider,
    tag: p.tag,
    quantization: p.quantization,
    max_completion_tokens: p.maxCompletionTokens,
    max_prompt_tokens: null,
    supported_parameters: supportedParameters(p.tag),
    status: p.status,
    uptime_last_30m: wobble(p.uptime, index, poll, amp),
    uptime_last_5m: wobble(Math.min(100, p.uptime + 0.3), index + 3, poll, amp * 1.5),
    uptime_last_1d: wobble(p.uptime, index + 7, poll, amp / 3),
    supports_implicit_caching: Boolean(p.cacheReadPerM),
    latency_last_30m: withStats ? percentiles(p.latencyMs) : null,
    throughput_last_30m: withStats
      ? { p50: p.throughput, p75: Math.round(p.throughput * 0.8), p90: Math.round(p.throughput * 0.6), p99: Math.round(p.throughput * 0.3) }
      : null,
  };
}

export function modelEndpoints(model: ModelSeed, poll: number, withStats: boolean, patches: Patch[]) {
  let endpoints: Array<Record<string, unknown>> = model.providers.map((p, i) => endpointJson(model, p, i, poll, withStats));
  for (const patch of patches.filter((p) => p.model === model.id)) {
    if (patch.remove) {
      endpoints = endpoints.filter((e) => e.tag !== patch.tag);
      continue;
    }
    const existing = endpoints.find((e) => e.tag === patch.tag);
    if (existing) Object.assign(existing, patch.set);
    else endpoints.push({ ...endpoints[0], tag: patch.tag, ...patch.set });
  }
  return endpointsResponse(model, endpoints);
}

/** GET /models/{id}/endpoints in OpenRouter's exact shape, around the given endpoints. */
export function endpointsResponse(model: ModelSeed, endpoints: Array<Record<string, unknown>>) {
  return {
    data: {
      id: model.id,
      name: model.name,
      created: model.created,
      description: model.description,
      architecture: {
        tokenizer: "Other",
        instruct_type: null,
        modality: "text+image->text",
        input_modalities: ["text", "image"],
        output_modalities: ["text"],
      },
      endpoints,
    },
  };
}

