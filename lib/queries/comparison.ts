import "server-only";
import type { Db, DbOrTx } from "../db/engines";
import { listKnownQuantizations, type KnownQuantizationEntry } from "../known-quantization";
import { buildRoutingExport, type RoutingExport } from "../routing/export";
import { evaluateRules, type Verdict } from "../rules/evaluate";
import { endpointFacts } from "../rules/facts";
import { readComparisonState, toRuleSet, type ComparisonState } from "../view-state/comparison";
import { latestVerdicts, type LatestVerdict } from "./probe-verdicts";
import { latestProviders, type ProvidersSnapshot } from "./providers";

// Everything the comparison view of one model needs, from a link's query: the latest snapshot,
// the team's known quantizations, the verdicts under the link's rules and the routing export.
// Reading (two queries) and deciding (pure) are separate steps, so the reads can be shared
// between viewers (see cached.ts) while every link gets its own verdicts.

export interface ComparisonData {
  snapshot: ProvidersSnapshot;
  known: KnownQuantizationEntry[];
  /** Each endpoint's verdict in the model's latest completed fidelity probe. */
  probes: LatestVerdict[];
}

export interface Comparison extends ComparisonData {
  state: ComparisonState;
  ignored: string[];
  verdicts: Verdict[];
  routing: RoutingExport;
}

type LinkParams = Record<string, string | string[] | undefined> | URLSearchParams;

/** The stored facts of a model the comparison is decided on, or null when it is not watched. */
export async function readComparisonData(db: DbOrTx, modelId: string): Promise<ComparisonData | null> {
  const [snapshot, known, probes] = await Promise.all([latestProviders(db, modelId), listKnownQuantizations(db, modelId), latestVerdicts(db, modelId)]);
  return snapshot ? { snapshot, known, probes } : null;
}

/** The verdicts and routing export of a link's rules over the stored facts. */
export function compare(data: ComparisonData, params: LinkParams): Comparison {
  const { state, ignored } = readComparisonState(params);
  const rules = toRuleSet(state);
  const facts = endpointFacts(data.snapshot.endpoints, data.known, data.probes);
  const verdicts = evaluateRules(facts, rules);
  return { ...data, state, ignored, verdicts, routing: buildRoutingExport(facts, verdicts, rules, state.rsort) };
}
