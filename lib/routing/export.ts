import { KNOWN_QUANTIZATIONS } from "../rules/vocabulary";
import type { EndpointFacts, RuleSet, Verdict } from "../rules/evaluate";
import { effectiveQuantization } from "../rules/quantization";
import type { RoutingSort } from "../view-state/comparison";

// Turns the included set into the exact `provider` object of an OpenRouter chat request
// (ProviderPreferences). `only` lists the included endpoints' tags; because a base slug in
// `only` also admits that provider's other variants ("deepinfra" admits "deepinfra/turbo"),
// excluded variants that share a base with an included tag are named in `ignore`.

export interface ProviderPreferences {
  only: string[];
  ignore?: string[];
  quantizations?: string[];
  allow_fallbacks: false;
  sort?: Exclude<RoutingSort, "none">;
}

export interface RoutingExport {
  provider: ProviderPreferences;
}

export function baseSlug(tag: string): string {
  return tag.split("/")[0];
}

export function buildRoutingExport(
  endpoints: readonly EndpointFacts[],
  verdicts: readonly Verdict[],
  rules: RuleSet,
  sort: RoutingSort,
): RoutingExport {
  const included = verdicts.filter((v) => v.included).map((v) => v.tag);
  const excluded = verdicts.filter((v) => !v.included).map((v) => v.tag);
  const includedSet = new Set(included);
  const only = [...included].sort();
  const ignore = excluded.filter((tag) => only.includes(baseSlug(tag)) && !includedSet.has(tag)).sort();

  const provider: ProviderPreferences = { only, allow_fallbacks: false };
  if (ignore.length) provider.ignore = ignore;

  const quantizationRulesSet = rules.excludedQuantizations.length > 0 || !rules.acceptUnknown;
  if (quantizationRulesSet) {
    const allowed = new Set<string>(
      KNOWN_QUANTIZATIONS.filter((q) => !rules.excludedQuantizations.includes(q)),
    );
    if (!rules.acceptUnknown) allowed.delete("unknown");
    // OpenRouter filters on the quantization it reports, so an endpoint included by hand (or one
    // whose reported value differs from what the team recorded) must have its reported value
    // allowed, or `only` would name an endpoint the filter then removes.
    for (const e of endpoints) {
      if (includedSet.has(e.tag)) allowed.add(effectiveQuantization(e.quantization));
    }
    provider.quantizations = KNOWN_QUANTIZATIONS.filter((q) => allowed.has(q));
  }
  if (sort !== "none") provider.sort = sort;
  return { provider };
}
