import type { IncomingMessage } from "node:http";
import Decimal from "decimal.js";
import { hashString, seededRandom } from "../lib/probe/random";
import { REPLICA_MODELS, modelEndpoints } from "./endpoints";
import { routeRequest } from "./routing";
import { countPromptTokens } from "./language-model";
import { logSoftmax, processedLogprobs, sampleFrom } from "./lm/sampler";
import type { LmVariant, LogprobsKind, PrefillBehaviour, SamplerSettings, WeightFormat } from "./lm/types";
import { BATCH_NOISE, CO_BATCHED, HEAVY_JUMPS, NO_NOISE, drawNoise, servedLogits, variant, type NoiseDraw } from "./lm/variants";
import { SPECIAL, renderChat, tokenText } from "./lm/vocab";

// POST /api/v1/chat/completions in OpenRouter's exact shape, served by the replica's real
// language network (replica/lm). Each endpoint (by tag) behaves as recorded in CHAT_BEHAVIOURS:
// the weights it serves (the released INT4-g32, or a re-quantization of them), its numerics and
// nondeterminism, whether and which logprobs it returns, what it does with a trailing assistant
// message, another chat template (more prompt tokens), a prompt cache, or a router that sometimes
// answers from another provider. Faults (429, 500, hang) are taken by server.ts before this runs;
// a fault whose path is "chat/completions@<tag>" hits only requests pinned to <tag>.

export const CHAT_PATH = "/api/v1/chat/completions";

export interface ChatBehaviour {
  variant: LmVariant;
  /** Lists logprobs and top_logprobs in supported_parameters, and returns them. */
  logprobs: boolean;
  /** Which logprobs it returns: the model's (raw) or after its sampler (processed). */
  logprobsKind: LogprobsKind;
  /** A trailing assistant message: continued (prefill), answered with a new turn, or a 400. */
  prefill: PrefillBehaviour;
  /** Tokens its chat template adds to every prompt (another template than the model's). */
  extraTemplateTokens: number;
  /** How long a prompt stays in its prefix cache (0: no cache). */
  cacheTtlMs: number;
  /** Every n-th answer (by a hash of the request) is served by this other provider. */
  fallback?: { every: number; providerTag: string } | null;
}

const int4 = (name: string, over: Partial<LmVariant> = {}) => variant(name, "int4-g32", over);

const DEFAULT_BEHAVIOUR: ChatBehaviour = {
  variant: int4("int4-g32, batch noise", { nondeterminism: BATCH_NOISE }),
  logprobs: true,
  logprobsKind: "raw",
  prefill: "continue",
  extraTemplateTokens: 0,
  cacheTtlMs: 0,
};

const FIVE_MINUTES = 5 * 60_000;

/**
 * Kimi K2.5's endpoints in the replica. Faithful ones serve the released INT4-g32 weights with
 * their own numerics; re-quantized ones convert them (variants.ts says why from the release).
 * Tags not listed behave as DEFAULT_BEHAVIOUR (faithful, batch noise, raw logprobs).
 */
export const CHAT_BEHAVIOURS: Record<string, Partial<ChatBehaviour>> = {
  // The reference: the release as it is, with the same per-call batch noise as most faithful stacks.
  "moonshotai/int4": { variant: int4("moonshotai: int4-g32", { nondeterminism: BATCH_NOISE }), cacheTtlMs: FIVE_MINUTES },
  "chutes/int4": { variant: int4("chutes: int4-g32, bf16 activations", { activations: "bf16", nondeterminism: BATCH_NOISE }), prefill: "new-turn" },
  // Faithful, compared by samples: identical requests close together are batched together.
  "siliconflow/int4": { logprobs: false, variant: int4("siliconflow: int4-g32, co-batched", { nondeterminism: CO_BATCHED }) },
  "atlas-cloud/int4": { variant: int4("atlas-cloud: int4-g32, reversed sums, heavy jumps", { summation: "reversed", nondeterminism: HEAVY_JUMPS }), prefill: "reject" },
  "parasail/int4": { variant: int4("parasail: int4-g32, pairwise sums", { summation: "pairwise", nondeterminism: BATCH_NOISE }), cacheTtlMs: FIVE_MINUTES },
  deepinfra: { variant: int4("deepinfra: int4-g32, bf16, pairwise", { activations: "bf16", summation: "pairwise", nondeterminism: BATCH_NOISE }), cacheTtlMs: FIVE_MINUTES, prefill: "new-turn" },
  // Re-quantized: the release converted to another format.
  fireworks: { variant: variant("fireworks: nvfp4", "nvfp4", { nondeterminism: BATCH_NOISE }), cacheTtlMs: FIVE_MINUTES },
  "baseten/fp4": { variant: variant("baseten: mxfp4", "mxfp4", { nondeterminism: BATCH_NOISE }), logprobsKind: "processed" },
  together: { variant: variant("together: fp8-e4m3", "fp8-e4m3", { nondeterminism: BATCH_NOISE }), extraTemplateTokens: 7, prefill: "reject" },
  novita: { variant: variant("novita: float32 (another checkpoint)", "float32", { nondeterminism: BATCH_NOISE }), fallback: { every: 3, providerTag: "deepinfra" } },
  venice: { logprobs: false, variant: variant("venice: int4-g128", "int4-g128", { nondeterminism: HEAVY_JUMPS }), prefill: "new-turn" },
};

/** An endpoint's behaviour: the recorded one, with what a test changed (ChatState.overrides) on top. */
/** Tokens a template adds to close a trailing assistant message and open a new assistant turn (end, role, separator). */
export const NEW_TURN_TEMPLATE_TOKENS = 3;

export function chatBehaviour(tag: string, overrides: Record<string, Partial<ChatBehaviour>> = {}): ChatBehaviour {
  return { ...DEFAULT_BEHAVIOUR, ...CHAT_BEHAVIOURS[tag], ...overrides[tag] };
}

const BASE_PARAMETERS = ["max_tokens", "temperature", "top_p", "top_k", "min_p", "presence_penalty", "frequency_penalty", "stop", "seed", "tools", "tool_choice", "response_format", "reasoning", "include_reasoning"];

/** What the endpoints API lists as supported_parameters for a tag. */
export function supportedParameters(tag: string): string[] {
  return chatBehaviour(tag).logprobs ? [...BASE_PARAMETERS, "logprobs", "top_logprobs"] : BASE_PARAMETERS;
}

export interface ChatCall {
  /** The answer's generation id (GET /generation?id= finds the call by it). */
  id: string;
  /** The model's permaslug, as the answer named it. */
  model: string;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  reasoningTokens: number;
  finishReason: string;
  /** The endpoint the router chose (routing.ts). */
  tag: string;
  /** The endpoint that answered: the chosen one, or the one its `fallback` quirk handed the request to. */
  servedTag: string;
  /** The answer's `provider`: the display name of servedTag's provider. */
  servedBy: string;
  promptHash: number;
  seed: number | null;
  atMs: number;
  /** Whether this call shared an earlier call's noise draw (co-batched). */
  coBatched: boolean;
  /** The sampler the request asked for (absent fields at OpenRouter's defaults). */
  sampler: { temperature: number; top_p: number; top_k: number; min_p: number; presence_penalty: number; frequency_penalty: number };
  /** What the answer charged (usage.cost), exact, as text. */
  cost: string;
}

export interface ChatState {
  calls: ChatCall[];
  counters: Record<string, number>;
  /** How many requests the router has placed (routing.ts balances by it). */
  routeTurns: number;
  /** Behaviours changed since the replica started (POST /__replica/requantize, /__replica/behaviour), by tag. */
  overrides: Record<string, Partial<ChatBehaviour>>;
  /** The open batch of identical requests per endpoint and request: when it started and its noise draw. */
  batches: Record<string, { startMs: number; draw: NoiseDraw }>;
  /** Prompts each endpoint saw recently (its prefix cache): rendered text and when. */
  cache: Record<string, Array<{ text: string; atMs: number }>>;
}

export function freshChatState(): ChatState {
  return { calls: [], counters: {}, routeTurns: 0, overrides: {}, batches: {}, cache: {} };
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

/** The recorded models as the endpoints API serves them at poll 0, without patches. */
export function recordedModel(id: string): ChatModel | null {
  const model = REPLICA_MODELS.find((m) => m.id === id);
  return model ? { permaslug: model.permaslug, endpoints: modelEndpoints(model, 0, true, []).data.endpoints } : null;
}

export interface ChatAnswer {
  status: number;
  json: unknown;
}

const error = (code: number, message: string): ChatAnswer => ({ status: code, json: { error: { code, message } } });

function numberField(body: Record<string, unknown>, name: string, fallback: number, ok: (n: number) => boolean, rule: string): number | ChatAnswer {
  const value = body[name] === undefined || body[name] === null ? fallback : body[name];
  if (typeof value !== "number" || !ok(value)) return error(400, `${name} ${rule}`);
  return value;
}

/** The sampler fields of a request, or a 400 naming the bad one. */
function parseSampler(body: Record<string, unknown>): SamplerSettings | ChatAnswer {
  const fields = [
    numberField(body, "temperature", 1, (n) => n >= 0 && n <= 2, "must be between 0 and 2"),
    numberField(body, "top_p", 1, (n) => n > 0 && n <= 1, "must be in (0, 1]"),
    numberField(body, "top_k", 0, (n) => Number.isInteger(n) && n >= 0, "must be a non-negative integer"),
    numberField(body, "min_p", 0, (n) => n >= 0 && n <= 1, "must be between 0 and 1"),
    numberField(body, "presence_penalty", 0, (n) => n >= -2 && n <= 2, "must be between -2 and 2"),
    numberField(body, "frequency_penalty", 0, (n) => n >= -2 && n <= 2, "must be between -2 and 2"),
  ];
  const bad = fields.find((f): f is ChatAnswer => typeof f !== "number");
  if (bad) return bad;
  const [temperature, top_p, top_k, min_p, presence_penalty, frequency_penalty] = fields as number[];
  return { temperature, top_p, top_k, min_p, presence_penalty, frequency_penalty };
}

interface GeneratedToken {
  id: number;
  logprob: number;
  top: Array<{ id: number; logprob: number }>;
}

/**
 * The replica's chat completion as a function: what POST /api/v1/chat/completions answers for a
 * body at time nowMs (ms; decides co-batching and prompt-cache hits). It changes only `state`
 * (call counts, open batches, caches) and does no I/O, so a bench can call it in process.
 *
 * Randomness: sampling draws from the request's seed when it sends one (so a retried or resumed
 * request samples the same tokens), else from how many times this endpoint was asked this
 * request. Noise draws (the serving stack's numerics) never follow the seed: a fresh draw per call
 * from that count, shared by identical requests (any seed) within the endpoint's co-batch window.
 */
export function completeChat(state: ChatState, body: unknown, nowMs: number, findModel: (id: string) => ChatModel | null = recordedModel): ChatAnswer {
  if (!isRecord(body)) return error(400, "Request body must be a JSON object");
  if (typeof body.model !== "string") return error(400, "model is required");
  const model = findModel(body.model);
  if (!model) return error(400, `${body.model} is not a valid model ID`);
  const messages = parseMessages(body.messages);
  if (!messages) return error(400, "messages must be a non-empty array of {role: system | user | assistant, content: string}");
  const maxTokens = body.max_tokens === undefined ? 16 : body.max_tokens;
  if (typeof maxTokens !== "number" || !Number.isInteger(maxTokens) || maxTokens < 1) return error(400, "max_tokens must be a positive integer");
  const sampler = parseSampler(body);
  if ("status" in sampler) return sampler;
  const topLogprobs = body.top_logprobs === undefined || body.top_logprobs === null ? 0 : body.top_logprobs;
  if (typeof topLogprobs !== "number" || !Number.isInteger(topLogprobs) || topLogprobs < 0 || topLogprobs > 20) return error(400, "top_logprobs must be an integer from 0 to 20");
  const seed = typeof body.seed === "number" && Number.isInteger(body.seed) ? body.seed : null;

  // Routing: OpenRouter's provider preferences, applied by the replica's own router (routing.ts).
  const route = routeRequest(model.endpoints, body, state.routeTurns++);
  if (!route.ok) return error(route.status, route.message);
  let endpoint = route.attempts[0];
  const tagOf = (e: EndpointObject) => String(e.tag);

  const requestKey = JSON.stringify([messages, sampler, maxTokens, body.reasoning ?? null]);
  const promptHash = hashString(JSON.stringify(messages));
  const requestedTag = tagOf(endpoint);
  const counterKey = `${requestedTag}|${hashString(requestKey)}`;
  const call = (state.counters[counterKey] = (state.counters[counterKey] ?? 0) + 1);
  const drawKey = seed === null ? `call:${call}` : `seed:${seed}`;
  const behaviour = chatBehaviour(requestedTag, state.overrides);
  if (behaviour.fallback && hashString(`${promptHash}|${drawKey}|fallback`) % behaviour.fallback.every === 0) {
    endpoint = model.endpoints.find((e) => tagOf(e) === behaviour.fallback?.providerTag) ?? endpoint;
  }
  const servedTag = tagOf(endpoint);
  const served = chatBehaviour(servedTag, state.overrides);

  const prefilled = messages[messages.length - 1].role === "assistant";
  if (prefilled && served.prefill === "reject") return error(400, "This endpoint does not accept a trailing assistant message (prefill)");
  const continues = prefilled && served.prefill === "continue";
  const prompt = renderChat(messages, continues);

  // The serving stack's noise for this call: shared with identical requests in the same batch.
  const nondeterminism = served.variant.nondeterminism;
  const batchKey = `${servedTag}|${requestKey}`;
  const open = state.batches[batchKey];
  const coBatched = nondeterminism.coBatchWindowMs > 0 && open !== undefined && nowMs - open.startMs <= nondeterminism.coBatchWindowMs;
  const draw = coBatched ? open.draw : drawNoise(nondeterminism, seededRandom(hashString(`${servedTag}|${requestKey}|noise|${call}`)));
  if (!coBatched && nondeterminism.coBatchWindowMs > 0) state.batches[batchKey] = { startMs: nowMs, draw };
  const sampling = seededRandom(hashString(`${servedTag}|${promptHash}|${drawKey}`));

  // Kimi K2.5 thinks before answering unless asked not to; its thinking uses the token budget first.
  const reasoning = isRecord(body.reasoning) ? body.reasoning : {};
  const thinks = reasoning.enabled !== false && reasoning.effort !== "none";
  const reasoningTokens = thinks ? Math.min(maxTokens, 12) : 0;
  const contentTokens = Math.min(maxTokens - reasoningTokens, 256);
  const generated: GeneratedToken[] = [];
  const counts = new Map<number, number>();
  const tokens = prompt.slice();
  let stopped = false;
  for (let step = 0; step < contentTokens; step++) {
    const logits = servedLogits(served.variant, tokens, draw);
    const processed = processedLogprobs(logits, sampler, counts);
    const chosen = sampleFrom(processed, sampling());
    if (chosen === SPECIAL.end) {
      stopped = true;
      break;
    }
    const listed = served.logprobsKind === "raw" ? logSoftmax(logits) : processed;
    generated.push({ id: chosen, logprob: listed[chosen], top: topOf(listed, topLogprobs) });
    counts.set(chosen, (counts.get(chosen) ?? 0) + 1);
    tokens.push(chosen);
  }

  // Usage: prompt tokens as the recorded Kimi tokenizer counts them; cached tokens from this
  // endpoint's prefix cache (whole blocks of 16 tokens of the longest prefix seen within its TTL).
  // An endpoint that answers a trailing assistant message as a new turn closes that message and
  // opens another: its template's turn tokens are counted as well (how the probe recognises it).
  const promptTokens = countPromptTokens(messages, served.extraTemplateTokens + (prefilled && !continues ? NEW_TURN_TEMPLATE_TOKENS : 0));
  const promptText = JSON.stringify(messages);
  const cachedTokens = cachedPrefixTokens(state, servedTag, promptText, nowMs, served.cacheTtlMs, promptTokens);
  const completionTokens = reasoningTokens + generated.length;
  const pricing = isRecord(endpoint.pricing) ? endpoint.pricing : {};
  const cacheRead = pricing.input_cache_read ?? pricing.prompt ?? "0";
  const cost = new Decimal(String(pricing.prompt ?? "0"))
    .times(promptTokens - cachedTokens)
    .plus(new Decimal(String(cacheRead)).times(cachedTokens))
    .plus(new Decimal(String(pricing.completion ?? "0")).times(completionTokens))
    .plus(new Decimal(String(pricing.request ?? "0")));
  const wantsLogprobs = body.logprobs === true && served.logprobs;
  const generationId = `gen-${1764600000 + state.calls.length + 1}-replica${String(promptHash).slice(0, 6)}`;
  state.calls.push({
    id: generationId,
    model: model.permaslug,
    promptTokens,
    completionTokens,
    cachedTokens,
    reasoningTokens,
    finishReason: stopped ? "stop" : "length",
    tag: requestedTag,
    servedTag,
    servedBy: String(endpoint.provider_name),
    promptHash,
    seed,
    atMs: nowMs,
    coBatched,
    cost: cost.toFixed(),
    sampler: {
      temperature: sampler.temperature,
      top_p: sampler.top_p,
      top_k: sampler.top_k,
      min_p: sampler.min_p,
      presence_penalty: sampler.presence_penalty,
      frequency_penalty: sampler.frequency_penalty,
    },
  });

  const bytes = (text: string) => [...Buffer.from(text, "utf8")];
  const entry = (id: number, logprob: number) => ({ token: tokenText(id), logprob, bytes: bytes(tokenText(id)) });
  return {
    status: 200,
    json: {
      id: generationId,
      provider: endpoint.provider_name,
      model: model.permaslug,
      object: "chat.completion",
      created: 1764600000 + state.calls.length,
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: generated.map((t) => tokenText(t.id)).join(""),
            reasoning: thinks && reasoning.exclude !== true ? "Let me think about this." : null,
          },
          logprobs: wantsLogprobs ? { content: generated.map((t) => ({ ...entry(t.id, t.logprob), top_logprobs: t.top.map((c) => entry(c.id, c.logprob)) })) } : null,
          finish_reason: stopped ? "stop" : "length",
          native_finish_reason: stopped ? "stop" : "length",
        },
      ],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
        cost: cost.toNumber(),
        prompt_tokens_details: { cached_tokens: cachedTokens },
        completion_tokens_details: { reasoning_tokens: reasoningTokens },
      },
    },
  };
}

/** The k most likely tokens (finite logprobs only), most likely first, lowest id on a tie. */
function topOf(logprobs: Float64Array, k: number): Array<{ id: number; logprob: number }> {
  if (k === 0) return [];
  const ids: number[] = [];
  for (let i = 0; i < logprobs.length; i++) if (logprobs[i] > -Infinity) ids.push(i);
  return ids
    .sort((a, b) => logprobs[b] - logprobs[a] || a - b)
    .slice(0, k)
    .map((id) => ({ id, logprob: logprobs[id] }));
}

function cachedPrefixTokens(state: ChatState, tag: string, text: string, nowMs: number, ttlMs: number, promptTokens: number): number {
  if (ttlMs <= 0) return 0;
  const seen = (state.cache[tag] ?? []).filter((e) => nowMs - e.atMs <= ttlMs);
  let common = 0;
  for (const e of seen) {
    let i = 0;
    while (i < e.text.length && i < text.length && e.text[i] === text[i]) i++;
    common = Math.max(common, i);
  }
  state.cache[tag] = [...seen.filter((e) => e.text !== text), { text, atMs: nowMs }].slice(-256);
  const blocks = Math.floor(Math.min(Math.floor(common / 4), promptTokens - 1) / 16);
  return Math.max(0, blocks * 16);
}

/** Makes an endpoint serve its weights in another format from now on (null: its recorded behaviour). */
export function requantize(state: ChatState, tag: string, format: WeightFormat | null): void {
  if (format === null) {
    delete state.overrides[tag];
    return;
  }
  const recorded = chatBehaviour(tag);
  state.overrides[tag] = { ...state.overrides[tag], variant: { ...recorded.variant, name: `${tag}: ${format}`, weights: format } };
}

function parseMessages(value: unknown): Array<{ role: string; content: string }> | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const out: Array<{ role: string; content: string }> = [];
  for (const m of value) {
    if (!isRecord(m) || typeof m.role !== "string" || typeof m.content !== "string" || !["system", "user", "assistant"].includes(m.role)) return null;
    out.push({ role: m.role, content: m.content });
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export { NO_NOISE, BATCH_NOISE, CO_BATCHED, HEAVY_JUMPS };
