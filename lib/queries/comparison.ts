import type { Db } from "../db/engines";
import { listKnownQuantizations, type KnownQuantizationEntry } from "../known-quantization";
import { buildRoutingExport, type RoutingExport } from "../routing/export";
import { evaluateRules, type Verdict } from "../rules/evaluate";
import { endpointFacts } from "../rules/facts";
import { readComparisonState, toRuleSet, type ComparisonState } from "../view-state/comparison";
import { latestProviders, type ProvidersSnapshot } from "./providers";

// Everything the comparison view of one model needs, from a link's query: the latest snapshot,
// the team's known quantizations, the verdicts under the link's rules and the routing export.

export interface Comparison {
  snapshot: ProvidersSnapshot;
  known: KnownQuantizationEntry[];
  state: ComparisonState;
  ignored: string[];
  verdicts: Verdict[];
  routing: RoutingExport;
}

export async function loadComparison(
  db: Db,
  modelId: string,
  params: Record<string, string | string[] | undefined> | URLSearchParams,
): Promise<Comparison | null> {
  const [snapshot, known] = await Promise.all([latestProviders(db, modelId), listKnownQuantizations(db, modelId)]);
  if (!snapshot) return null;
  const { state, ignored } = readComparisonState(params);
  const rules = toRuleSet(state);
  const facts = endpointFacts(snapshot.endpoints, known);
  const verdicts = evaluateRules(facts, rules);
  return { snapshot, known, state, ignored, verdicts, routing: buildRoutingExport(facts, verdicts, rules, state.rsort) };
}
