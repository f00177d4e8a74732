import Decimal from "decimal.js";
import type { ChatMessage, ChatRequest } from "../openrouter/chat-schemas";
import type { ProbePrompt } from "./prompts";
import { hashString, seededRandom } from "./random";
import type { SamplerSettings } from "./settings";
import { methodFor, probeMethod, PROBE_METHODS, type ProbeMethod } from "./methods";
import { DRAFT_ROLE, PREFILL_MAX_BYTES } from "./methods/on-policy";

// What a run will send, planned before anything is sent: every request with its worst-case cost,
// and the estimate shown to the user. Pure.

export interface PlanEndpoint {
  tag: string;
  provider: string;
  /** USD per million tokens, as decimal strings. */
  inputPricePerM: string;
  outputPricePerM: string;
  supportsLogprobs: boolean;
}

export interface PlanSettings {
  /** Completions per prompt and side on the samples path. */
  samplesPerPrompt: number;
  /** Tokens per completion on the samples path. */
  sampleMaxTokens: number;
  topLogprobs: number;
}

export const DEFAULT_PLAN_SETTINGS: PlanSettings = { samplesPerPrompt: 6, sampleMaxTokens: 8, topLogprobs: 20 };

export type ProbeRole = "endpoint" | "reference" | "reference-repeat" | typeof DRAFT_ROLE;

export interface PlannedRequest {
  tag: string;
  role: ProbeRole;
  method: ProbeMethod;
  promptIndex: number;
  sample: number;
  /** 0: read from the prompt; n ≥ 1: read after cut n of the reference's draft for this prompt (lib/probe/methods/on-policy.ts). */
  cut: number;
  maxTokens: number;
  estimateUsd: Decimal;
  worstCaseUsd: Decimal;
}

export interface PlannedEndpoint {
  tag: string;
  provider: string;
  method: ProbeMethod;
}

export interface Plan {
  endpoints: PlannedEndpoint[];
  requests: PlannedRequest[];
  estimateUsd: Decimal;
}

/** A typical count (about four characters a token) plus the chat template's tokens per message. */
export function estimatePromptTokens(messages: ChatMessage[]): number {
  return messages.reduce((sum, m) => sum + 4 + Math.ceil(m.content.length / 4), 3);
}

/**
 * An upper bound: a byte-level tokenizer never makes more tokens than UTF-8 bytes, plus a generous
 * template allowance per message. The cap check uses this, so no request can pass the cap.
 */
export function worstCasePromptTokens(messages: ChatMessage[]): number {
  return messages.reduce((sum, m) => sum + 16 + Buffer.byteLength(m.content, "utf8"), 32);
}

function cost(endpoint: PlanEndpoint, promptTokens: number, completionTokens: number): Decimal {
  return new Decimal(endpoint.inputPricePerM).times(promptTokens).plus(new Decimal(endpoint.outputPricePerM).times(completionTokens)).div(1_000_000);
}

export { methodFor };

export function planProbe(prompts: ProbePrompt[], reference: PlanEndpoint, endpoints: PlanEndpoint[], settings: PlanSettings = DEFAULT_PLAN_SETTINGS): Plan {
  const planned = endpoints.map((e) => ({ tag: e.tag, provider: e.provider, method: methodFor(reference, e) }));
  const needs = new Set(planned.map((p) => p.method));
  const requests: PlannedRequest[] = [];
  const add = (endpoint: PlanEndpoint, role: ProbeRole, method: ProbeMethod, promptIndex: number, cut = 0) => {
    const messages = prompts[promptIndex].messages;
    const shape = methodDefinition(method).plan(settings);
    const count = role === "endpoint" ? shape.perPrompt : role === DRAFT_ROLE ? 1 : shape.referencePerRole;
    const maxTokens = role === DRAFT_ROLE ? (shape.onPolicy?.draftTokens ?? shape.maxTokens) : cut > 0 ? (shape.onPolicy?.readTokens ?? shape.maxTokens) : shape.maxTokens;
    // A prefilled read also sends the draft's prefix: about a token per four characters of at most
    // PREFILL_MAX_BYTES (the estimate: half of that), every byte a token in the worst case.
    const prefix = cut > 0 ? PREFILL_MAX_BYTES : 0;
    for (let sample = 0; sample < count; sample++) {
      requests.push({
        tag: endpoint.tag,
        role,
        method,
        promptIndex,
        sample,
        cut,
        maxTokens,
        estimateUsd: cost(endpoint, estimatePromptTokens(messages) + (prefix ? 4 + prefix / 8 : 0), maxTokens),
        worstCaseUsd: cost(endpoint, worstCasePromptTokens(messages) + (prefix ? 16 + prefix : 0), maxTokens),
      });
    }
  };
  // Prompt by prompt; the runner sends them in the order of orderForSending. A method with
  // on-policy reads adds the reference's draft and, per cut, the same replicates read after it.
  for (let i = 0; i < prompts.length; i++) {
    for (const { name: method } of PROBE_METHODS) {
      if (!needs.has(method)) continue;
      add(reference, "reference", method, i);
      add(reference, "reference-repeat", method, i);
      const onPolicy = methodDefinition(method).plan(settings).onPolicy;
      if (!onPolicy) continue;
      add(reference, DRAFT_ROLE, method, i);
      for (let cut = 1; cut <= onPolicy.cuts; cut++) {
        add(reference, "reference", method, i, cut);
        add(reference, "reference-repeat", method, i, cut);
        endpoints.forEach((e, j) => {
          if (planned[j].method === method) add(e, "endpoint", method, i, cut);
        });
      }
    }
    endpoints.forEach((e, j) => add(e, "endpoint", planned[j].method, i));
  }
  const estimateUsd = requests.reduce((sum, r) => sum.plus(r.estimateUsd), new Decimal(0));
  return { endpoints: planned, requests, estimateUsd };
}

/** Each request's seed: distinct per run and request, so the reference's two calls are independent draws. */
export function requestSeed(runId: number, r: Pick<PlannedRequest, "tag" | "role" | "method" | "promptIndex" | "sample"> & { cut?: number }): number {
  const cut = r.cut ? `|cut${r.cut}` : "";
  return hashString(`${runId}|${r.tag}|${r.role}|${r.method}|${r.promptIndex}|${r.sample}${cut}`) & 0x7fffffff;
}

function methodDefinition(name: string) {
  const method = probeMethod(name);
  if (!method) throw new Error(`unknown probe method ${name}`);
  return method;
}

/**
 * The order requests are sent in: a seeded shuffle of the whole run, so that no two replicates of a
 * prompt go out together (servers batch identical concurrent requests and share prefix caches,
 * which would make a side's replicates agree more than its answers do) and the reference's
 * replicates fall at separated random times across the run (its early and late halves are the A/A).
 */
export function orderForSending<T>(requests: readonly T[], seed: number): T[] {
  const random = seededRandom(seed);
  const out = [...requests];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * The request as sent. Every endpoint gets the same body but for its pin: the model's sampler and
 * thinking mode (lib/probe/settings.ts), with what the endpoint's method sets on top (the greedy
 * path's temperature 0, logprobs: lib/probe/methods/).
 */
export function chatRequestFor(
  modelId: string,
  messages: ChatMessage[],
  r: { tag: string; method: string; maxTokens: number; seed: number; role?: string; prefill?: string | null },
  sampler: SamplerSettings,
  topLogprobs = DEFAULT_PLAN_SETTINGS.topLogprobs,
): ChatRequest {
  const method = methodDefinition(r.method);
  const fields = r.role === DRAFT_ROLE && method.draftBody ? method.draftBody({ topLogprobs, sampler }) : method.body({ topLogprobs, sampler });
  const { temperature, ...extra } = fields;
  return {
    model: modelId,
    messages: r.prefill ? [...messages, { role: "assistant", content: r.prefill }] : messages,
    max_tokens: r.maxTokens,
    temperature,
    seed: r.seed,
    ...extra,
    reasoning: { enabled: sampler.thinking },
    provider: { only: [r.tag], allow_fallbacks: false },
    stream: false,
  };
}
