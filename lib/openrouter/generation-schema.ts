import { z } from "zod";

// GET /generation?id=: one completion's stats, wrapped in `data`, as OpenRouter documents them
// (../shared/reference/openrouter-chat-keys-activity.md). It often answers 404 for a few seconds
// after the completion. Unknown keys are accepted and kept; what provenance needs is required.

/** An OpenRouter generation id, as /generation?id= takes it. */
export const GENERATION_ID = /^gen-[A-Za-z0-9_-]{1,196}$/;

const count = z.number().int().nonnegative().nullish();

export const generationResponseSchema = z
  .object({
    data: z
      .object({
        id: z.string(),
        created_at: z.string().nullish(),
        model: z.string().nullish(),
        total_cost: z.number().nonnegative(),
        provider_name: z.string().min(1),
        upstream_id: z.string().nullish(),
        tokens_prompt: count,
        tokens_completion: count,
        native_tokens_prompt: count,
        native_tokens_completion: count,
        native_tokens_reasoning: count,
        native_tokens_cached: count,
        latency: z.number().nullish(),
        generation_time: z.number().nullish(),
        finish_reason: z.string().nullish(),
        cancelled: z.boolean().nullish(),
        provider_responses: z.array(z.object({ status: z.number().nullish() }).loose()).nullish(),
      })
      .loose(),
  })
  .loose();

export type GenerationResponse = z.output<typeof generationResponseSchema>;
