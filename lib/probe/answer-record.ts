import Decimal from "decimal.js";
import type { ChatCompletion } from "../openrouter/chat-schemas";

// What is kept of one answer: the runner stores it, the bench reads answers the same way.

export interface AnswerRecord {
  servedProvider: string | null;
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number | null;
  cachedTokens: number | null;
  text: string | null;
  /** Every generated token with its logprob and, when listed, its position's top logprobs. */
  tokens: Array<{ token: string; logprob: number; top?: Array<{ token: string; logprob: number }> }> | null;
  /** The first position's top logprobs (kept as before, for readers of older runs). */
  topLogprobs: Array<{ token: string; logprob: number }> | null;
  /** usage.cost as the exact decimal OpenRouter sent; null when it sent none. */
  cost: Decimal | null;
  generationId: string;
  finishReason: string | null;
}

export function answerRecord(answer: ChatCompletion): AnswerRecord {
  const choice = answer.choices[0];
  const content = choice.logprobs?.content ?? null;
  const cost = answer.usage.cost === null || answer.usage.cost === undefined ? null : new Decimal(String(answer.usage.cost));
  const top = (list: Array<{ token: string; logprob: number }> | null | undefined) => (list ? list.map((t) => ({ token: t.token, logprob: t.logprob })) : undefined);
  return {
    servedProvider: answer.provider ?? null,
    promptTokens: answer.usage.prompt_tokens,
    completionTokens: answer.usage.completion_tokens,
    reasoningTokens: answer.usage.completion_tokens_details?.reasoning_tokens ?? null,
    cachedTokens: answer.usage.prompt_tokens_details?.cached_tokens ?? null,
    text: choice.message?.content ?? null,
    tokens: content ? content.map((t) => ({ token: t.token, logprob: t.logprob, ...(t.top_logprobs ? { top: top(t.top_logprobs) } : {}) })) : null,
    topLogprobs: content?.[0]?.top_logprobs ? (top(content[0].top_logprobs) ?? null) : null,
    cost,
    generationId: answer.id,
    finishReason: choice.finish_reason ?? null,
  };
}
