import type { EndpointFacts, Verdict } from "./evaluate";

// Which endpoint is the model author's own: the one served by the lab that released the model
// (moonshotai/int4 for moonshotai/kimi-k2.5). It serves the weights as released, so it is the
// natural reference for what the model "really" is: some models are released quantized (Kimi
// K2.5's weights are INT4), and a rule excluding that quantization excludes the model as released.

/**
 * Provider slugs OpenRouter uses for an author whose provider slug differs from the author part
 * of its model ids. Authors not listed serve under their own slug (moonshotai, deepseek, z-ai).
 */
const AUTHOR_PROVIDER_SLUGS: Record<string, readonly string[]> = {
  mistralai: ["mistral"],
  "x-ai": ["xai"],
  google: ["google-vertex", "google-ai-studio"],
  qwen: ["alibaba"],
};

/** "moonshotai" for "moonshotai/kimi-k2.5". */
export function modelAuthor(modelId: string): string {
  return modelId.split("/")[0].toLowerCase();
}

/** Whether the endpoint with this tag ("moonshotai/int4") is served by the model's author. */
export function isAuthorEndpoint(modelId: string, tag: string): boolean {
  const author = modelAuthor(modelId);
  const providerSlug = tag.split("/")[0].toLowerCase();
  return providerSlug === author || (AUTHOR_PROVIDER_SLUGS[author] ?? []).includes(providerSlug);
}

/** Every endpoint of the model that its author serves, in the order given. */
export function authorEndpoints<T extends { tag: string }>(modelId: string, endpoints: readonly T[]): T[] {
  return endpoints.filter((e) => isAuthorEndpoint(modelId, e.tag));
}

/**
 * The author's own endpoint to use as a reference, or null when the author serves none: the
 * plain one ("moonshotai") before variants ("moonshotai/int4", "moonshotai/turbo"), then by tag.
 */
export function authorEndpoint<T extends { tag: string }>(modelId: string, endpoints: readonly T[]): T | null {
  const own = authorEndpoints(modelId, endpoints);
  const rank = (tag: string) => (tag.includes("/") ? 1 : 0);
  return [...own].sort((a, b) => rank(a.tag) - rank(b.tag) || a.tag.localeCompare(b.tag))[0] ?? null;
}

export interface AuthorEndpointExcluded {
  tag: string;
  provider: string;
  /** The quantization the rules used for it. */
  quantization: string;
  /** Still included because someone included it by hand over the rule. */
  includedByHand: boolean;
  /** The fidelity probe's default reference (authorEndpoint): excluding it excludes what the probe measures against. */
  isProbeReference: boolean;
}

/**
 * The author's endpoints that the quantization rules exclude (or would, but for a manual
 * include): what the rules panel warns about next to the quantization rules, naming the one the
 * fidelity probe uses as its reference.
 */
export function authorEndpointsExcludedByQuantization(
  modelId: string,
  endpoints: readonly Pick<EndpointFacts, "tag" | "provider">[],
  verdicts: readonly Verdict[],
): AuthorEndpointExcluded[] {
  const byTag = new Map(verdicts.map((v) => [v.tag, v]));
  const isQuantization = (kind: string) => kind === "quantization" || kind === "unknown";
  const reference = authorEndpoint(modelId, endpoints)?.tag;
  return authorEndpoints(modelId, endpoints).flatMap((e) => {
    const v = byTag.get(e.tag);
    if (!v) return [];
    const excluded = v.reasons.some((r) => isQuantization(r.kind));
    const overridden = v.overridden.some((r) => isQuantization(r.kind));
    return excluded || overridden ? [{ tag: e.tag, provider: e.provider, quantization: v.quantization, includedByHand: overridden, isProbeReference: e.tag === reference }] : [];
  });
}
