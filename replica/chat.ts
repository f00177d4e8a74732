import type { IncomingMessage } from "node:http";
import Decimal from "decimal.js";
import { hashString, seededRandom } from "../lib/probe/random";
import { FAITHFUL, countPromptTokens, generate, type ModelVariant } from "./language-model";
import { REPLICA_MODELS, modelEndpoints } from "./endpoints";

// POST /api/v1/chat/completions in OpenRouter's exact shape, served by the toy language model.
// Each endpoint (by tag) behaves as recorded in CHAT_BEHAVIOURS: faithful, re-quantized (a
// perturbed copy of the weights), another chat template (more prompt tokens), or a router that
// sometimes answers from another provider. Faults (429, 500, hang) are taken by server.ts before
// this runs; a fault whose path is "chat/completions@<tag>" hits only requests pinned to <tag>.

export const CHAT_PATH = "/api/v1/chat/completions";

export interface ChatBehaviour {
  variant: ModelVariant;
  /** Lists logprobs and top_logprobs in supported_parameters, and returns them. */
  logprobs: boolean;
  /** Tokens its chat template adds to every prompt (another template than the model's). */
  extraTemplateTokens: number;
  /** Every n-th answer (by a hash of the request) is served by this other provider. */
  fallback?: { every: number; providerTag: string };
}

const DEFAULT_BEHAVIOUR: ChatBehaviour = { variant: FAITHFUL, logprobs: true, extraTemplateTokens: 0 };

/** Kimi K2.5's endpoints in the replica. Tags not listed are faithful with logprobs. */
export const CHAT_BEHAVIOURS: Record<string, Partial<ChatBehaviour>> = {
  "siliconflow/int4": { logprobs: false }, // faithful, compared by samples
  "baseten/fp4": { variant: { ...FAITHFUL, perturbation: 0.6, variantKey: "baseten-fp4" } },
  fireworks: { variant: { ...FAITHFUL, perturbation: 0.3, variantKey: "fireworks-nvfp4" } },
  venice: { logprobs: false, variant: { ...FAITHFUL, perturbation: 3, variantKey: "venice" } }, // badly re-quantized: the samples path sees it even over few prompts
  together: { extraTemplateTokens: 7 },
  novita: { fallback: { every: 3, providerTag: "deepinfra" } },
};

/** An endpoint's behaviour: the recorded one, its weights replaced when the test re-quantized it (ChatState.variants). */
export function chatBehaviour(tag: string, variants: Record<string, ModelVariant> = {}): ChatBehaviour {
  const behaviour = { ...DEFAULT_BEHAVIOUR, ...CHAT_BEHAVIOURS[tag] };
  return variants[tag] ? { ...behaviour, variant: variants[tag] } : behaviour;
}

const BASE_PARAMETERS = ["max_tokens", "temperature", "top_p", "stop", "seed", "tools", "tool_choice", "response_format", "reasoning", "include_reasoning"];

/** What the endpoints API lists as supported_parameters for a tag. */
export function supportedParameters(tag: string): string[] {
  return chatBehaviour(tag).logprobs ? [...BASE_PARAMETERS, "logprobs", "top_logprobs"] : BASE_PARAMETERS;
}

export interface ChatCall {
  tag: string;
  servedBy: string;
  promptHash: number;
  seed: number | null;
}

export interface ChatState {
  calls: ChatCall[];
  counters: Record<string, number>;
  /** Endpoints re-quantized since the replica started (POST /__replica/requantize), by tag. */
  variants: Record<string, ModelVariant>;
}

export function freshChatState(): ChatState {
  return { calls: [], counters: {}, variants: {} };
}

/** The JSON body, or null when it is not JSON. */
export async function readChatBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return null;
  }
}

/** The path a fault is matched against: faults can target one pinned endpoint. */
export function chatFaultPath(body: unknown): string {
  const only = isRecord(body) && isRecord(body.provider) && Array.isArray(body.provider.only) ? body.provider.only : [];
  return `${CHAT_PATH}@${only.map(String).join(",")}`;
}

/** An endpoint object as the replica's endpoints API serves it. */
export type EndpointObject = Record<string, unknown>;

export interface ChatModel {
  permaslug: string;
  endpoints: EndpointObject[];
}

export interface ChatAnswer {
  status: number;
  body: unknown;
}

const error = (code: number, message: string): ChatAnswer => ({ status: code, body: { error: { code, message } } });

export function answerChat(body: unknown, findModel: (id: string) => ChatModel | null, state: ChatState): ChatAnswer {
  if (!isRecord(body)) return error(400, "Request body must be a JSON object");
  if (typeof body.model !== "string") return error(400, "model is required");
  const model = findModel(body.model);
  if (!model) return error(400, `${body.model} is not a valid model ID`);
  const messages = parseMessages(body.messages);
  if (!messages) return error(400, "messages must be a non-empty array of {role, content}");
  const maxTokens = body.max_tokens === undefined ? 16 : body.max_tokens;
  if (typeof maxTokens !== "number" || !Number.isInteger(maxTokens) || maxTokens < 1) return error(400, "max_tokens must be a positive integer");
  const temperature = body.temperature === undefined ? 1 : body.temperature;
  if (typeof temperature !== "number" || temperature < 0 || temperature > 2) return error(400, "temperature must be between 0 and 2");
  const topLogprobs = body.top_logprobs === undefined ? 0 : body.top_logprobs;
  if (typeof topLogprobs !== "number" || !Number.isInteger(topLogprobs) || topLogprobs < 0 || topLogprobs > 20) return error(400, "top_logprobs must be an integer from 0 to 20");
  const seed = typeof body.seed === "number" && Number.isInteger(body.seed) ? body.seed : null;

  const provider = isRecord(body.provider) ? body.provider : {};
  const only = Array.isArray(provider.only) ? provider.only.map(String) : null;
  const allowFallbacks = provider.allow_fallbacks !== false;
  const tagOf = (e: EndpointObject) => String(e.tag);
  const matches = (e: EndpointObject) => !only || only.some((slug) => slug === tagOf(e) || slug === tagOf(e).split("/")[0]);
  let endpoint = model.endpoints.find(matches);
  if (!endpoint) {
    if (!allowFallbacks || model.endpoints.length === 0) return error(404, "No endpoints found that match your provider routing preferences");
    endpoint = model.endpoints[0];
  }

  const promptText = JSON.stringify(messages);
  const promptHash = hashString(promptText);
  const behaviour = chatBehaviour(tagOf(endpoint), state.variants);
  const counterKey = `${tagOf(endpoint)}|${promptHash}`;
  const call = (state.counters[counterKey] = (state.counters[counterKey] ?? 0) + 1);
  // A request's randomness comes from its seed when it sends one (so retries and resumed runs
  // see the same answer), else from how many times this endpoint was asked this prompt.
  const drawKey = seed === null ? `call:${call}` : `seed:${seed}`;
  const requestedTag = tagOf(endpoint);
  if (behaviour.fallback && hashString(`${promptHash}|${drawKey}|fallback`) % behaviour.fallback.every === 0) {
    endpoint = model.endpoints.find((e) => tagOf(e) === behaviour.fallback?.providerTag) ?? endpoint;
  }
  const served = chatBehaviour(tagOf(endpoint), state.variants);
  const callRandom = seededRandom(hashString(`${tagOf(endpoint)}|${promptHash}|${drawKey}`));

  // Kimi K2.5 thinks before answering unless asked not to; its thinking uses the token budget first.
  const reasoning = isRecord(body.reasoning) ? body.reasoning : {};
  const thinks = reasoning.enabled !== false && reasoning.effort !== "none";
  const reasoningTokens = thinks ? Math.min(maxTokens, 12) : 0;
  const contentTokens = maxTokens - reasoningTokens;
  const generated = contentTokens > 0
    ? generate(String(promptHash), served.variant, { maxTokens: Math.min(contentTokens, 64), temperature, topK: Math.max(1, topLogprobs), callRandom })
    : [];
  const promptTokens = countPromptTokens(messages, served.extraTemplateTokens);
  const completionTokens = reasoningTokens + generated.length;
  const pricing = isRecord(endpoint.pricing) ? endpoint.pricing : {};
  const cost = new Decimal(String(pricing.prompt ?? "0"))
    .times(promptTokens)
    .plus(new Decimal(String(pricing.completion ?? "0")).times(completionTokens))
    .plus(new Decimal(String(pricing.request ?? "0")));
  const wantsLogprobs = body.logprobs === true && served.logprobs;
  state.calls.push({ tag: requestedTag, servedBy: String(endpoint.provider_name), promptHash, seed });

  const bytes = (text: string) => [...Buffer.from(text, "utf8")];
  return {
    status: 200,
    body: {
      id: `gen-${1764600000 + state.calls.length}-replica${String(promptHash).slice(0, 6)}`,
      provider: endpoint.provider_name,
      model: model.permaslug,
      object: "chat.completion",
      created: 1764600000 + state.calls.length,
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: generated.map((t) => t.token).join(""),
            reasoning: thinks && reasoning.exclude !== true ? "Let me think about this." : null,
          },
          logprobs: wantsLogprobs
            ? {
                content: generated.map((t) => ({
                  token: t.token,
                  logprob: t.logprob,
                  bytes: bytes(t.token),
                  top_logprobs: t.top.slice(0, topLogprobs).map((c) => ({ token: c.token, logprob: c.logprob, bytes: bytes(c.token) })),
                })),
              }
            : null,
          finish_reason: "length",
          native_finish_reason: "length",
        },
      ],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
        cost: cost.toNumber(),
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: reasoningTokens },
      },
    },
  };
}

function parseMessages(value: unknown): Array<{ role: string; content: string }> | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const out: Array<{ role: string; content: string }> = [];
  for (const m of value) {
    if (!isRecord(m) || typeof m.role !== "string" || typeof m.content !== "string") return null;
    out.push({ role: m.role, content: m.content });
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The recorded models as the endpoints API serves them at poll 0, without patches. */
export function recordedModel(id: string): ChatModel | null {
  const model = REPLICA_MODELS.find((m) => m.id === id);
  return model ? { permaslug: model.permaslug, endpoints: modelEndpoints(model, 0, false, []).data.endpoints } : null;
}

/**
 * The replica's chat completion as a function: what POST /api/v1/chat/completions answers for a
 * body at time nowMs (ms; decides co-batching and prompt-cache hits). Mutates state (call counts,
 * batches, caches). No I/O: a bench calls it in process.
 * STUB (first commit): still the toy model behind answerChat; the real network replaces it.
 */
export function completeChat(state: ChatState, body: unknown, nowMs: number, findModel: (id: string) => ChatModel | null = recordedModel): { status: number; json: unknown } {
  void nowMs;
  const answer = answerChat(body, findModel, state);
  return { status: answer.status, json: answer.body };
}
