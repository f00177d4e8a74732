import { createHash } from "node:crypto";
import type Decimal from "decimal.js";
import { pricePerMillion, type EndpointsResponse, type OpenRouterEndpoint } from "../openrouter/schemas";

// Splits an endpoints response into what rarely changes (versioned, stored once per distinct
// set) and what moves on every poll (one narrow row per endpoint per poll). Pure.

export interface StaticFacts {
  name: string;
  modelPermaslug: string;
  providerName: string;
  quantization: string | null;
  contextLength: number | null;
  maxCompletionTokens: number | null;
  maxPromptTokens: number | null;
  supportedParameters: string[];
  supportsImplicitCaching: boolean | null;
  pricing: Record<string, unknown>;
  extra: Record<string, unknown>;
}

export interface MovingFacts {
  status: number | null;
  uptime5m: number | null;
  uptime30m: number | null;
  uptime1d: number | null;
  latencyP50: number | null;
  latencyP90: number | null;
  throughputP50: number | null;
  throughputP90: number | null;
  inputPricePerM: Decimal | null;
  outputPricePerM: Decimal | null;
  cacheReadPricePerM: Decimal | null;
}

export interface NormalisedEndpoint {
  tag: string;
  providerName: string;
  facts: StaticFacts;
  factsHash: string;
  sample: MovingFacts;
}

export interface NormalisedSnapshot {
  modelName: string;
  endpoints: NormalisedEndpoint[];
  /** Tags that appeared more than once; only the first of each is kept. */
  duplicateTags: string[];
}

const HANDLED_KEYS = new Set([
  "name", "model_id", "model_name", "provider_name", "tag", "context_length", "max_completion_tokens",
  "max_prompt_tokens", "pricing", "quantization", "status", "uptime_last_5m", "uptime_last_30m",
  "uptime_last_1d", "latency_last_30m", "throughput_last_30m", "supported_parameters",
  "supports_implicit_caching",
]);

export function normaliseEndpoints(response: EndpointsResponse): NormalisedSnapshot {
  const seen = new Set<string>();
  const duplicateTags: string[] = [];
  const endpoints: NormalisedEndpoint[] = [];
  for (const e of response.data.endpoints) {
    if (seen.has(e.tag)) {
      duplicateTags.push(e.tag);
      continue;
    }
    seen.add(e.tag);
    const facts = staticFacts(e);
    endpoints.push({
      tag: e.tag,
      providerName: e.provider_name,
      facts,
      factsHash: hashJson(facts),
      sample: movingFacts(e),
    });
  }
  return { modelName: response.data.name, endpoints, duplicateTags };
}

function staticFacts(e: OpenRouterEndpoint): StaticFacts {
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(e)) if (!HANDLED_KEYS.has(key)) extra[key] = value;
  if (e.model_name !== undefined) extra.model_name = e.model_name;
  return {
    name: e.name,
    modelPermaslug: e.model_id,
    providerName: e.provider_name,
    quantization: e.quantization ?? null,
    contextLength: e.context_length ?? null,
    maxCompletionTokens: e.max_completion_tokens ?? null,
    maxPromptTokens: e.max_prompt_tokens ?? null,
    supportedParameters: e.supported_parameters ?? [],
    supportsImplicitCaching: e.supports_implicit_caching ?? null,
    pricing: e.pricing,
    extra,
  };
}

function movingFacts(e: OpenRouterEndpoint): MovingFacts {
  return {
    status: e.status,
    uptime5m: e.uptime_last_5m ?? null,
    uptime30m: e.uptime_last_30m ?? null,
    uptime1d: e.uptime_last_1d ?? null,
    latencyP50: e.latency_last_30m?.p50 ?? null,
    latencyP90: e.latency_last_30m?.p90 ?? null,
    throughputP50: e.throughput_last_30m?.p50 ?? null,
    throughputP90: e.throughput_last_30m?.p90 ?? null,
    inputPricePerM: pricePerMillion(e.pricing.prompt),
    outputPricePerM: pricePerMillion(e.pricing.completion),
    cacheReadPricePerM: pricePerMillion(e.pricing.input_cache_read),
  };
}

/** sha256 of JSON with keys sorted, so the same facts always hash the same. */
export function hashJson(value: unknown): string {
  return createHash("sha256").update(stableStringify(value)).digest("hex");
}

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
