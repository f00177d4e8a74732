import Decimal from "decimal.js";
import { routeRequest, type RoutableEndpoint } from "@/replica/routing";

// The judge of a routing export: the replica's router (replica/routing.ts, written from
// OpenRouter's documentation and sharing no code with lib/), asked for each endpoint whether a
// request carrying the exported `provider` object, with that endpoint put first in `order` and no
// fallbacks, is placed on it. An endpoint the filters (`only`, `ignore`, `quantizations`, ...) leave
// out cannot be placed anywhere that way, so the answer is exactly the set the export admits.

const MODEL = "moonshotai/kimi-k2.5";

/** The tags a request with this `provider` object can reach, in the endpoints' order. */
export function tagsReachable(endpoints: readonly RoutableEndpoint[], provider: Record<string, unknown>): string[] {
  return endpoints
    .map((e) => String(e.tag))
    .filter((tag) => {
      const route = routeRequest(endpoints, { model: MODEL, provider: { ...provider, order: [tag], allow_fallbacks: false } }, 0);
      return route.ok && String(route.attempts[0].tag) === tag;
    });
}

/** An endpoint in OpenRouter's shape (the fields routing reads) from the rules engine's facts. */
export function endpointFromFacts(e: { tag: string; provider: string; quantization: string | null; status: number | null; inputPricePerM: string | null; outputPricePerM: string | null }): RoutableEndpoint {
  const perToken = (perM: string | null) => (perM === null ? "0" : new Decimal(perM).div(1_000_000).toFixed());
  return {
    tag: e.tag,
    provider_name: e.provider,
    quantization: e.quantization,
    status: e.status,
    pricing: { prompt: perToken(e.inputPricePerM), completion: perToken(e.outputPricePerM) },
  };
}
