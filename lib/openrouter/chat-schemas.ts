import { z } from "zod";

// POST /chat/completions: the request the probe sends and the answer as OpenRouter documents it
// (../shared/reference/openrouter-chat-keys-activity.md). Unknown keys are accepted and kept.

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  max_tokens: number;
  temperature: number;
  top_p?: number;
  top_k?: number;
  min_p?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  seed?: number;
  logprobs?: boolean;
  top_logprobs?: number;
  reasoning?: { enabled?: boolean; exclude?: boolean };
  provider: { only: string[]; allow_fallbacks: boolean };
  stream?: false;
}

const topLogprobSchema = z.object({ token: z.string(), logprob: z.number() }).loose();

const tokenLogprobSchema = z
  .object({
    token: z.string(),
    logprob: z.number(),
    top_logprobs: z.array(topLogprobSchema).nullish(),
  })
  .loose();

export const chatCompletionSchema = z
  .object({
    id: z.string(),
    provider: z.string().nullish(),
    model: z.string().nullish(),
    choices: z
      .array(
        z
          .object({
            message: z
              .object({ role: z.string().nullish(), content: z.string().nullish(), reasoning: z.string().nullish() })
              .loose()
              .nullish(),
            logprobs: z.object({ content: z.array(tokenLogprobSchema).nullish() }).loose().nullish(),
            finish_reason: z.string().nullish(),
            error: z.object({ message: z.string().nullish() }).loose().nullish(),
          })
          .loose(),
      )
      .min(1),
    usage: z
      .object({
        prompt_tokens: z.number().int().nonnegative(),
        completion_tokens: z.number().int().nonnegative(),
        cost: z.number().nullish(),
        completion_tokens_details: z.object({ reasoning_tokens: z.number().nullish() }).loose().nullish(),
        prompt_tokens_details: z.object({ cached_tokens: z.number().nullish() }).loose().nullish(),
      })
      .loose(),
  })
  .loose();

export type ChatCompletion = z.output<typeof chatCompletionSchema>;
