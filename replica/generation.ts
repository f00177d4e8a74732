import type { ChatCall } from "./chat";

// GET /api/v1/generation?id=: the stats of a completion the replica served, in OpenRouter's shape
// (../shared/reference/openrouter-chat-keys-activity.md). OpenRouter often answers 404 for a few
// seconds after a completion; the replica does so on purpose when told to (POST
// /__replica/generation-lag {lookups, id?}: the next `lookups` lookups of that id, or of every id
// not yet looked up, answer 404 before the stats).

export const GENERATION_PATH = "/api/v1/generation";
const GENERATION_ID = /^gen-[A-Za-z0-9_-]{1,196}$/;

export interface GenerationState {
  /** 404s still owed, per id; `all` applies to an id on its first lookup. */
  lag: { all: number; byId: Record<string, number> };
  /** Lookups received per id (404s included), for tests to count. */
  lookups: Record<string, number>;
  /** Lookups answered with the stats (200), per id. */
  answered: Record<string, number>;
}

export function freshGenerationState(): GenerationState {
  return { lag: { all: 0, byId: {} }, lookups: {}, answered: {} };
}

export interface GenerationAnswer {
  status: number;
  body: unknown;
}

export function answerGeneration(state: GenerationState, calls: ChatCall[], params: URLSearchParams): GenerationAnswer {
  const id = params.get("id");
  if (!id) return { status: 400, body: { error: { code: 400, message: "id: Required" } } };
  if (!GENERATION_ID.test(id)) return { status: 400, body: { error: { code: 400, message: "id: Invalid generation id" } } };
  const first = state.lookups[id] === undefined;
  state.lookups[id] = (state.lookups[id] ?? 0) + 1;
  if (first && state.lag.all > 0 && state.lag.byId[id] === undefined) state.lag.byId[id] = state.lag.all;
  const call = calls.find((c) => c.id === id);
  const owed = state.lag.byId[id] ?? 0;
  if (!call || owed > 0) {
    if (owed > 0) state.lag.byId[id] = owed - 1;
    return { status: 404, body: { error: { code: 404, message: `Generation ${id} not found` } } };
  }
  state.answered[id] = (state.answered[id] ?? 0) + 1;
  const latency = 180 + (call.promptTokens % 50);
  return {
    status: 200,
    body: {
      data: {
        id: call.id,
        upstream_id: `chatcmpl-${call.id.slice(4)}`,
        total_cost: Number(call.cost),
        cache_discount: null,
        upstream_inference_cost: null,
        created_at: new Date(call.atMs).toISOString(),
        model: call.model,
        app_id: null,
        streamed: false,
        cancelled: false,
        provider_name: call.servedBy,
        latency,
        moderation_latency: null,
        generation_time: latency - 40,
        finish_reason: call.finishReason,
        native_finish_reason: call.finishReason,
        tokens_prompt: call.promptTokens,
        tokens_completion: call.completionTokens,
        native_tokens_prompt: call.promptTokens,
        native_tokens_completion: call.completionTokens,
        native_tokens_reasoning: call.reasoningTokens,
        native_tokens_cached: call.cachedTokens,
        num_media_prompt: null,
        num_media_completion: null,
        num_search_results: null,
        origin: "",
        usage: Number(call.cost),
        is_byok: false,
        provider_responses: [{ status: 200, provider_name: call.servedBy }],
      },
    },
  };
}
