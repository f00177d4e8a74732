import Decimal from "decimal.js";

// OpenRouter's provider routing (the `provider` object of a chat request, ProviderPreferences) as
// the replica's router applies it. Written from OpenRouter's documentation only
// (/work/shared/reference: openrouter-api.md "Routing preferences", openrouter-chat-keys-activity.md,
// and the ProviderPreferences schema of openrouter-openapi-excerpt.yaml), and on purpose without
// importing anything from lib/: the browser tests use this router as the judge of the routing
// export the app builds (lib/routing/export.ts), so it must not share the app's model of it.
//
// What the documentation says, and how it is applied here:
// - `only`, `ignore`: provider slugs. A slug names one endpoint by its tag (`deepinfra/turbo`) or,
//   as a base slug (`deepinfra`), every variant of that provider. `only` is an allow-list (an empty
//   list restricts nothing), `ignore` a deny-list. Matched without regard to case.
// - `quantizations`: an allow-list on the quantization the endpoint reports; an endpoint that
//   reports none counts as "unknown", so it is reachable only when "unknown" is listed.
// - `require_parameters`: when true, only endpoints whose supported_parameters list every
//   parameter the request sets.
// - `max_price`: USD per million tokens (prompt, completion) and per request; endpoints dearer on
//   any given field are left out.
// - `order`: the router tries the listed providers, in that order, among those left by the filters
//   above; with `allow_fallbacks` (default true) it goes on to the others after them, without it
//   only the listed ones are tried and the request fails when none is left.
// - `sort` (only when there is no `order`): price (cheapest first), throughput (highest p50 first)
//   or latency (lowest p50 first); no load balancing.
// - Neither: load balancing. OpenRouter weights endpoints by the inverse square of their price and
//   prefers those without recent outages; here endpoints with status 0 are balanced that way and
//   degraded ones (status below 0, "deprioritised" as openrouter-api.md infers) come only after them.
// - `allow_fallbacks: false` without `order`: only the primary (first) endpoint is tried.
// - `preferred_min_throughput` / `preferred_max_latency` (seconds): preferences, not filters;
//   endpoints meeting them are tried before those that do not.
// - `data_collection: "deny"`, `zdr: true` and `enforce_distillable_text: true` filter on facts the
//   endpoints list does not carry; the replica refuses them (400) rather than pretend to apply them.
// - Keys outside ProviderPreferences are refused (400): the schema allows no extra keys.

/** The fields of an endpoint (as the endpoints API lists it) that routing reads. */
export type RoutableEndpoint = Record<string, unknown>;

export type Route =
  | { ok: true; /** Endpoints to try, in order: the first serves unless it fails. */ attempts: RoutableEndpoint[] }
  | { ok: false; status: number; message: string };

const QUANTIZATIONS = ["int4", "int8", "fp4", "mxfp4", "nvfp4", "fp6", "fp8", "mxfp8", "fp16", "bf16", "fp32", "unknown"];
const SORTS = ["price", "throughput", "latency"];
const PREFERENCE_KEYS = [
  "allow_fallbacks", "data_collection", "enforce_distillable_text", "ignore", "max_price", "only", "order",
  "preferred_max_latency", "preferred_min_throughput", "quantizations", "require_parameters", "sort", "zdr",
];
/** Request fields that are sampling or output parameters, as supported_parameters names them. */
const PARAMETERS = [
  "max_tokens", "temperature", "top_p", "top_k", "min_p", "top_a", "presence_penalty", "frequency_penalty", "repetition_penalty",
  "stop", "seed", "tools", "tool_choice", "response_format", "structured_outputs", "reasoning", "include_reasoning",
  "logprobs", "top_logprobs", "logit_bias",
];

const refuse = (message: string): Route => ({ ok: false, status: 400, message });
const noEndpoint: Route = { ok: false, status: 404, message: "No endpoints found that match your provider routing preferences" };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const tagOf = (e: RoutableEndpoint) => String(e.tag).toLowerCase();
const slugMatches = (slug: string, e: RoutableEndpoint) => {
  const s = slug.toLowerCase();
  return s === tagOf(e) || s === tagOf(e).split("/")[0];
};
const reportedQuantization = (e: RoutableEndpoint) => (typeof e.quantization === "string" && e.quantization ? e.quantization : "unknown");
const perMillion = (e: RoutableEndpoint, field: string) => {
  const pricing = isObject(e.pricing) ? e.pricing : {};
  return new Decimal(String(pricing[field] ?? "0")).times(1_000_000);
};
const p50 = (e: RoutableEndpoint, field: string): number | null => {
  const stats = e[field];
  return isObject(stats) && typeof stats.p50 === "number" ? stats.p50 : null;
};

function slugList(provider: Record<string, unknown>, name: string): string[] | null | Route {
  const value = provider[name];
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.some((s) => typeof s !== "string")) return refuse(`provider.${name} must be an array of provider slugs`);
  return value as string[];
}

/** A uniform number in [0, 1) for the n-th balanced request (mulberry32), so balancing is reproducible. */
function uniform(n: number): number {
  let t = (n * 0x9e3779b9 + 0x6d2b79f5) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/**
 * Where a chat request goes: the endpoints to try, in order, or why none may serve it.
 * `turn` counts balanced requests (the caller keeps it), so that many requests spread over the
 * endpoints by their weights.
 */
export function routeRequest(endpoints: readonly RoutableEndpoint[], body: Record<string, unknown>, turn: number): Route {
  const provider = body.provider === undefined || body.provider === null ? {} : body.provider;
  if (!isObject(provider)) return refuse("provider must be an object");
  const unknownKey = Object.keys(provider).find((k) => !PREFERENCE_KEYS.includes(k));
  if (unknownKey) return refuse(`provider.${unknownKey} is not a routing preference`);

  const lists: Record<string, string[] | null> = {};
  for (const name of ["only", "ignore", "order"]) {
    const list = slugList(provider, name);
    if (list !== null && !Array.isArray(list)) return list;
    lists[name] = list;
  }
  const quantizations = provider.quantizations ?? null;
  if (quantizations !== null && (!Array.isArray(quantizations) || quantizations.some((q) => !QUANTIZATIONS.includes(q as string)))) {
    return refuse(`provider.quantizations must list values from ${QUANTIZATIONS.join(", ")}`);
  }
  for (const flag of ["allow_fallbacks", "require_parameters", "zdr", "enforce_distillable_text"]) {
    const v = provider[flag];
    if (v !== undefined && v !== null && typeof v !== "boolean") return refuse(`provider.${flag} must be a boolean`);
  }
  if (provider.data_collection !== undefined && provider.data_collection !== null && !["allow", "deny"].includes(provider.data_collection as string)) {
    return refuse('provider.data_collection must be "allow" or "deny"');
  }
  if (provider.data_collection === "deny" || provider.zdr === true || provider.enforce_distillable_text === true) {
    return refuse("The replica does not model data policies: provider.data_collection deny, zdr and enforce_distillable_text are not supported here");
  }
  const sortValue = isObject(provider.sort) ? provider.sort.by : provider.sort;
  if (sortValue !== undefined && sortValue !== null && !SORTS.includes(sortValue as string)) {
    return refuse(`provider.sort must be one of ${SORTS.join(", ")} (the replica does not model "exacto")`);
  }
  const maxPrice = provider.max_price ?? null;
  if (maxPrice !== null && !isObject(maxPrice)) return refuse("provider.max_price must be an object");
  const limits: Array<[string, Decimal]> = [];
  for (const [field, pricingField] of [["prompt", "prompt"], ["completion", "completion"], ["request", "request"]] as const) {
    const limit = maxPrice?.[field];
    if (limit === undefined || limit === null) continue;
    if (!/^\d+(\.\d+)?$/.test(String(limit))) return refuse(`provider.max_price.${field} must be a non-negative number`);
    limits.push([pricingField, new Decimal(String(limit))]);
  }
  for (const name of ["preferred_min_throughput", "preferred_max_latency"]) {
    const v = provider[name];
    if (v !== undefined && v !== null && (typeof v !== "number" || v < 0)) return refuse(`provider.${name} must be a non-negative number`);
  }

  // The filters: what may serve at all.
  const requested = PARAMETERS.filter((p) => body[p] !== undefined && body[p] !== null && body[p] !== false);
  const candidates = endpoints.filter((e) => {
    if (lists.only && lists.only.length > 0 && !lists.only.some((s) => slugMatches(s, e))) return false;
    if (lists.ignore && lists.ignore.some((s) => slugMatches(s, e))) return false;
    if (quantizations !== null && !(quantizations as string[]).includes(reportedQuantization(e))) return false;
    if (provider.require_parameters === true) {
      const supported = Array.isArray(e.supported_parameters) ? e.supported_parameters : [];
      if (!requested.every((p) => supported.includes(p))) return false;
    }
    // max_price request is per request, in USD (not per million).
    if (limits.some(([field, limit]) => (field === "request" ? perMillion(e, field).div(1_000_000) : perMillion(e, field)).greaterThan(limit))) return false;
    return true;
  });
  if (candidates.length === 0) return noEndpoint;

  // Preferences: endpoints meeting them are tried first.
  const minThroughput = typeof provider.preferred_min_throughput === "number" ? provider.preferred_min_throughput : null;
  const maxLatencyMs = typeof provider.preferred_max_latency === "number" ? provider.preferred_max_latency * 1000 : null;
  const meetsPreferences = (e: RoutableEndpoint) =>
    (minThroughput === null || (p50(e, "throughput_last_30m") ?? 0) >= minThroughput) &&
    (maxLatencyMs === null || (p50(e, "latency_last_30m") ?? Infinity) <= maxLatencyMs);

  const price = (e: RoutableEndpoint) => perMillion(e, "prompt").plus(perMillion(e, "completion"));
  const bySort = (sort: string) => (a: RoutableEndpoint, b: RoutableEndpoint) => {
    if (sort === "price") return price(a).comparedTo(price(b));
    if (sort === "throughput") return (p50(b, "throughput_last_30m") ?? -Infinity) - (p50(a, "throughput_last_30m") ?? -Infinity);
    return (p50(a, "latency_last_30m") ?? Infinity) - (p50(b, "latency_last_30m") ?? Infinity);
  };
  const arrangeOne = (pool: RoutableEndpoint[]) => (typeof sortValue === "string" ? [...pool].sort(bySort(sortValue)) : balanced(pool, turn, price));
  const arranged = (pool: RoutableEndpoint[]): RoutableEndpoint[] => [
    ...arrangeOne(pool.filter(meetsPreferences)),
    ...arrangeOne(pool.filter((e) => !meetsPreferences(e))),
  ];

  const allowFallbacks = provider.allow_fallbacks !== false;
  const order = lists.order ?? [];
  if (order.length > 0) {
    const listed: RoutableEndpoint[] = [];
    for (const slug of order) for (const e of candidates) if (slugMatches(slug, e) && !listed.includes(e)) listed.push(e);
    const attempts = allowFallbacks ? [...listed, ...arranged(candidates.filter((e) => !listed.includes(e)))] : listed;
    return attempts.length > 0 ? { ok: true, attempts } : noEndpoint;
  }
  const attempts = arranged(candidates);
  return { ok: true, attempts: allowFallbacks ? attempts : attempts.slice(0, 1) };
}

/**
 * Load balancing: among the healthy endpoints (status 0, or no status), one drawn with weight
 * 1/price², then the rest cheapest first, then the degraded ones cheapest first.
 */
function balanced(pool: RoutableEndpoint[], turn: number, price: (e: RoutableEndpoint) => Decimal): RoutableEndpoint[] {
  const degraded = (e: RoutableEndpoint) => typeof e.status === "number" && e.status < 0;
  const cheapestFirst = (list: RoutableEndpoint[]) => [...list].sort((a, b) => price(a).comparedTo(price(b)));
  const healthy = cheapestFirst(pool.filter((e) => !degraded(e)));
  const rest = cheapestFirst(pool.filter(degraded));
  if (healthy.length === 0) return rest;
  const weights = healthy.map((e) => {
    const p = price(e).toNumber();
    return p > 0 ? 1 / (p * p) : 1e12;
  });
  const total = weights.reduce((a, b) => a + b, 0);
  let pick = uniform(turn) * total;
  let chosen = healthy.length - 1;
  for (let i = 0; i < healthy.length; i++) {
    pick -= weights[i];
    if (pick < 0) {
      chosen = i;
      break;
    }
  }
  return [healthy[chosen], ...healthy.filter((_, i) => i !== chosen), ...rest];
}
