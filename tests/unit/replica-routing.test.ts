import { describe, expect, it } from "vitest";
import { routeRequest, type RoutableEndpoint } from "@/replica/routing";

// The replica's router against OpenRouter's documented provider preferences, on endpoints written
// here by hand (prices in USD per token, as the endpoints API lists them).

const endpoint = (tag: string, provider: string, quantization: string | null, prompt: string, completion: string, over: Partial<RoutableEndpoint> = {}): RoutableEndpoint => ({
  tag,
  provider_name: provider,
  quantization,
  status: 0,
  pricing: { prompt, completion, request: "0" },
  supported_parameters: ["max_tokens", "temperature", "logprobs", "top_logprobs"],
  ...over,
});

// $/M: deepinfra 0.45/2.25 (sum 2.70), deepinfra/turbo 0.30/1.20 (1.50), chutes 0.40/2.20 (2.60),
// together 0.50/2.80 (3.30), baseten 0.60/3.00 (3.60, degraded).
const ENDPOINTS = [
  endpoint("deepinfra", "DeepInfra", "unknown", "0.00000045", "0.00000225", { throughput_last_30m: { p50: 41 }, latency_last_30m: { p50: 890 } }),
  endpoint("deepinfra/turbo", "DeepInfra", "fp4", "0.0000003", "0.0000012", { throughput_last_30m: { p50: 70 }, latency_last_30m: { p50: 400 } }),
  endpoint("chutes/int4", "Chutes", "int4", "0.0000004", "0.0000022", { supported_parameters: ["max_tokens", "temperature"], throughput_last_30m: { p50: 38 }, latency_last_30m: { p50: 1850 } }),
  endpoint("together", "Together", null, "0.0000005", "0.0000028", { throughput_last_30m: { p50: 58 }, latency_last_30m: { p50: 760 } }),
  endpoint("baseten/fp4", "BaseTen", "fp4", "0.0000006", "0.000003", { status: -5, throughput_last_30m: { p50: 12 }, latency_last_30m: { p50: 4200 } }),
];

const route = (provider: Record<string, unknown>, extra: Record<string, unknown> = {}, turn = 0) => routeRequest(ENDPOINTS, { model: "m", provider, ...extra }, turn);
const tags = (r: ReturnType<typeof routeRequest>) => (r.ok ? r.attempts.map((e) => e.tag) : r);
/** Every endpoint a request may end up on (fallbacks on, all attempts). */
const admitted = (provider: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
  const r = route({ ...provider, allow_fallbacks: true }, extra);
  return r.ok ? r.attempts.map((e) => String(e.tag)).sort() : [];
};

describe("the replica's provider routing (OpenRouter's documented semantics)", () => {
  it("only: a tag admits that endpoint, a base slug all its variants; an empty list restricts nothing", () => {
    expect(admitted({ only: ["deepinfra/turbo"] })).toEqual(["deepinfra/turbo"]);
    expect(admitted({ only: ["deepinfra"] })).toEqual(["deepinfra", "deepinfra/turbo"]);
    expect(admitted({ only: ["Chutes"] })).toEqual(["chutes/int4"]); // slugs match without regard to case
    expect(admitted({ only: [] })).toHaveLength(5);
  });

  it("ignore removes by tag or base slug, also from what only admitted", () => {
    expect(admitted({ only: ["deepinfra"], ignore: ["deepinfra/turbo"] })).toEqual(["deepinfra"]);
    expect(admitted({ ignore: ["deepinfra", "chutes"] })).toEqual(["baseten/fp4", "together"]);
  });

  it("quantizations is an allow-list on the reported value; none reported counts as unknown", () => {
    expect(admitted({ quantizations: ["fp4"] })).toEqual(["baseten/fp4", "deepinfra/turbo"]);
    expect(admitted({ quantizations: ["unknown"] })).toEqual(["deepinfra", "together"]);
    expect(admitted({ quantizations: ["fp8"] })).toEqual([]);
  });

  it("no endpoint left is a 404 with OpenRouter's message; bad preferences are a 400 naming the field", () => {
    expect(route({ quantizations: ["fp8"] })).toEqual({ ok: false, status: 404, message: "No endpoints found that match your provider routing preferences" });
    expect(route({ quantizations: ["fp7"] })).toMatchObject({ ok: false, status: 400, message: expect.stringContaining("provider.quantizations") });
    expect(route({ onlyy: ["x"] })).toEqual({ ok: false, status: 400, message: "provider.onlyy is not a routing preference" });
    expect(route({ sort: "exacto" })).toMatchObject({ status: 400, message: expect.stringContaining("provider.sort") });
    expect(route({ data_collection: "deny" })).toMatchObject({ status: 400, message: expect.stringContaining("data_collection") });
  });

  it("order: the listed providers first, in that order; with fallbacks the rest after; without, only them", () => {
    expect(tags(route({ order: ["together", "chutes/int4"], allow_fallbacks: false }))).toEqual(["together", "chutes/int4"]);
    const withFallbacks = tags(route({ order: ["together", "chutes/int4"] }));
    expect((withFallbacks as string[]).slice(0, 2)).toEqual(["together", "chutes/int4"]);
    expect([...(withFallbacks as string[])].sort()).toEqual(["baseten/fp4", "chutes/int4", "deepinfra", "deepinfra/turbo", "together"]);
    // order picks among what the filters left: an ignored provider is not reached by naming it.
    expect(route({ order: ["chutes"], ignore: ["chutes"], allow_fallbacks: false })).toMatchObject({ ok: false, status: 404 });
    expect(tags(route({ order: ["chutes"], ignore: ["chutes"] }))).not.toContain("chutes/int4");
  });

  it("sort: price cheapest first (prompt + completion), throughput highest first, latency lowest first", () => {
    expect(tags(route({ sort: "price" }))).toEqual(["deepinfra/turbo", "chutes/int4", "deepinfra", "together", "baseten/fp4"]);
    expect(tags(route({ sort: "throughput" }))).toEqual(["deepinfra/turbo", "together", "deepinfra", "chutes/int4", "baseten/fp4"]);
    expect(tags(route({ sort: { by: "latency" } }))).toEqual(["deepinfra/turbo", "together", "deepinfra", "chutes/int4", "baseten/fp4"]);
    // Without fallbacks only the first is tried; order wins over sort.
    expect(tags(route({ sort: "price", allow_fallbacks: false }))).toEqual(["deepinfra/turbo"]);
    expect(tags(route({ sort: "price", order: ["together"], allow_fallbacks: false }))).toEqual(["together"]);
  });

  it("require_parameters keeps only endpoints listing every parameter the request sets", () => {
    expect(admitted({ require_parameters: true }, { logprobs: true, top_logprobs: 5 })).toEqual(["baseten/fp4", "deepinfra", "deepinfra/turbo", "together"]);
    expect(admitted({ require_parameters: true }, { temperature: 1 })).toHaveLength(5);
    expect(admitted({}, { logprobs: true })).toHaveLength(5); // not required: sent anyway, ignored where unsupported
  });

  it("max_price ($/M) leaves out endpoints dearer on a given field", () => {
    expect(admitted({ max_price: { prompt: "0.45" } })).toEqual(["chutes/int4", "deepinfra", "deepinfra/turbo"]);
    expect(admitted({ max_price: { prompt: "0.45", completion: 2.2 } })).toEqual(["chutes/int4", "deepinfra/turbo"]);
  });

  it("preferred_min_throughput and preferred_max_latency (seconds) put endpoints meeting them first", () => {
    expect(tags(route({ sort: "price", preferred_min_throughput: 50 }))).toEqual(["deepinfra/turbo", "together", "chutes/int4", "deepinfra", "baseten/fp4"]);
    expect(tags(route({ sort: "price", preferred_max_latency: 0.9 }))).toEqual(["deepinfra/turbo", "deepinfra", "together", "chutes/int4", "baseten/fp4"]);
  });

  it("load balancing (no order, no sort) spreads requests by 1/price² over healthy endpoints; degraded ones only as fallback", () => {
    const counts: Record<string, number> = {};
    const runs = 4_000;
    for (let turn = 0; turn < runs; turn++) {
      const r = route({ allow_fallbacks: false }, {}, turn);
      if (!r.ok) throw new Error(r.message);
      expect(r.attempts).toHaveLength(1);
      counts[String(r.attempts[0].tag)] = (counts[String(r.attempts[0].tag)] ?? 0) + 1;
    }
    expect(counts["baseten/fp4"]).toBeUndefined();
    // Weights 1/1.5², 1/2.6², 1/2.7², 1/3.3² ($/M, prompt + completion): shares of about 54%, 18%, 17% and 11%.
    const weights = { "deepinfra/turbo": 1 / 1.5 ** 2, "chutes/int4": 1 / 2.6 ** 2, deepinfra: 1 / 2.7 ** 2, together: 1 / 3.3 ** 2 };
    const total = Object.values(weights).reduce((a, b) => a + b, 0);
    for (const [tag, w] of Object.entries(weights)) {
      const p = w / total;
      // Within five standard deviations of the binomial count (the draws are seeded by the turn, so this is fixed).
      expect(Math.abs(counts[tag] - runs * p), tag).toBeLessThan(5 * Math.sqrt(runs * p * (1 - p)));
    }
    // Only degraded endpoints left: they serve.
    expect(tags(route({ only: ["baseten"] }))).toEqual(["baseten/fp4"]);
  });
});
