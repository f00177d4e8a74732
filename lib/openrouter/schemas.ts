import Decimal from "decimal.js";
import { z } from "zod";
import { KNOWN_QUANTIZATIONS, type KnownQuantization } from "../rules/vocabulary";

// zod schemas for the parts of OpenRouter's API that Routeboard reads. Unknown keys are kept
// (looseObject), optional ones may be missing, and nothing is coerced into a value it was not:
// a quantization outside the known list stays as it came, a bad price becomes null with the raw
// string kept in the stored pricing object.

const percentiles = z
  .looseObject({
    p50: z.number().nullish(),
    p75: z.number().nullish(),
    p90: z.number().nullish(),
    p99: z.number().nullish(),
  })
  .nullish();

/** OpenRouter documents status as an integer; one SDK doc showed a string. Accept both. */
const status = z
  .union([z.number(), z.string()])
  .nullish()
  .transform((v) => {
    if (v === null || v === undefined) return null;
    const n = typeof v === "number" ? v : Number(v.trim());
    return Number.isInteger(n) ? n : null;
  });

const priceString = z.union([z.string(), z.number()]).transform((v) => String(v));

export const pricingSchema = z.looseObject({
  prompt: priceString,
  completion: priceString,
  request: priceString.optional(),
  image: priceString.optional(),
  input_cache_read: priceString.optional(),
  input_cache_write: priceString.optional(),
  internal_reasoning: priceString.optional(),
  web_search: priceString.optional(),
  discount: z.number().optional(),
  overrides: z.array(z.looseObject({})).optional(),
});

export const endpointSchema = z.looseObject({
  name: z.string(),
  model_id: z.string(),
  model_name: z.string().optional(),
  provider_name: z.string(),
  tag: z.string().min(1),
  context_length: z.number().int().nullish(),
  max_completion_tokens: z.number().int().nullish(),
  max_prompt_tokens: z.number().int().nullish(),
  pricing: pricingSchema,
  quantization: z.string().nullish(),
  status,
  uptime_last_5m: z.number().nullish(),
  uptime_last_30m: z.number().nullish(),
  uptime_last_1d: z.number().nullish(),
  latency_last_30m: percentiles,
  throughput_last_30m: percentiles,
  supported_parameters: z.array(z.string()).nullish(),
  supports_implicit_caching: z.boolean().nullish(),
});
export type OpenRouterEndpoint = z.infer<typeof endpointSchema>;

export const endpointsResponseSchema = z.looseObject({
  data: z.looseObject({
    id: z.string(),
    name: z.string(),
    created: z.number().optional(),
    description: z.string().nullish(),
    architecture: z.looseObject({}).nullish(),
    endpoints: z.array(endpointSchema),
  }),
});
export type EndpointsResponse = z.infer<typeof endpointsResponseSchema>;

export const modelsResponseSchema = z.looseObject({
  data: z.array(
    z.looseObject({
      id: z.string(),
      canonical_slug: z.string().nullish(),
      name: z.string(),
      created: z.number().optional(),
      context_length: z.number().nullish(),
      pricing: z.looseObject({}).nullish(),
    }),
  ),
});
export type ModelsResponse = z.infer<typeof modelsResponseSchema>;

export const keyResponseSchema = z.looseObject({
  data: z.looseObject({
    label: z.string().nullish(),
    limit: z.number().nullish(),
    limit_remaining: z.number().nullish(),
    limit_reset: z.string().nullish(),
    usage: z.number(),
    usage_daily: z.number().nullish(),
    usage_weekly: z.number().nullish(),
    usage_monthly: z.number().nullish(),
    is_free_tier: z.boolean().nullish(),
    is_management_key: z.boolean().nullish(),
  }),
});
export type KeyResponse = z.infer<typeof keyResponseSchema>;

export const creditsResponseSchema = z.looseObject({
  data: z.looseObject({
    total_credits: z.number(),
    total_usage: z.number(),
  }),
});
export type CreditsResponse = z.infer<typeof creditsResponseSchema>;

const MILLION = new Decimal(1_000_000);

/**
 * USD per token (OpenRouter's string) to USD per million tokens, exactly. Returns null for a
 * missing value, the router sentinel "-1", any negative, or anything that is not a number.
 */
export function pricePerMillion(perToken: string | undefined | null): Decimal | null {
  if (perToken === undefined || perToken === null) return null;
  const text = perToken.trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) return null;
  const value = new Decimal(text);
  if (value.isNegative()) return null;
  return value.times(MILLION);
}

export function isKnownQuantization(q: string): q is KnownQuantization {
  return (KNOWN_QUANTIZATIONS as readonly string[]).includes(q);
}
