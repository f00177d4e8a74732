import Decimal from "decimal.js";
import { probeMethod } from "./methods";
import type { MethodAnswer } from "./methods/types";
import type { PlannedEndpoint } from "./plan";
import { DEFAULT_VERDICT_OPTIONS, decideVerdicts, type EndpointEvidence, type EndpointVerdict } from "./verdicts";

// From a run's stored answers to each endpoint's verdict. Pure: the runner stores what it returns.
// Each endpoint is compared by its planned method (lib/probe/methods/).

export interface AnswerRow extends MethodAnswer {
  tag: string;
  role: string;
  method: string;
  status: string;
  servedProvider: string | null;
  promptTokens: number | null;
  reasoningTokens: number | null;
  costUsd: Decimal.Value | null;
}
export interface RunFacts {
  id: number;
  referenceTag: string;
  referenceProvider: string;
  endpoints: PlannedEndpoint[];
  promptCount: number;
  /** The margin, nats/token of KL. */
  deltaNats: number;
}

export interface EndpointResult extends EndpointVerdict {
  provider: string;
  servedBy: string[];
  costUsd: Decimal;
}

export function computeResults(run: RunFacts, answers: AnswerRow[]): EndpointResult[] {
  const providerOf = new Map(run.endpoints.map((e) => [e.tag, e.provider]));
  providerOf.set(run.referenceTag, run.referenceProvider);
  // Only answers served by the pinned provider, without reasoning in them, are ever compared.
  const valid = (a: AnswerRow) => a.status === "done" && a.servedProvider === providerOf.get(a.tag) && !(a.reasoningTokens && a.reasoningTokens > 0);
  const of = (tag: string, role: string, method: string) => answers.filter((a) => a.tag === tag && a.role === role && a.method === method && valid(a));
  const referenceTokens = new Map<number, number | null>();
  for (const a of answers) {
    if (a.tag === run.referenceTag && a.role === "reference" && valid(a) && a.promptTokens !== null && !referenceTokens.has(a.promptIndex)) referenceTokens.set(a.promptIndex, a.promptTokens);
  }
  const evidence: EndpointEvidence[] = [];
  const extras: Array<Pick<EndpointResult, "provider" | "servedBy" | "costUsd">> = [];
  const all = [{ tag: run.referenceTag, provider: run.referenceProvider, method: null }, ...run.endpoints];
  for (const endpoint of all) {
    const isReference = endpoint.tag === run.referenceTag;
    const own = answers.filter((a) => a.tag === endpoint.tag && (isReference ? a.role !== "endpoint" : a.role === "endpoint"));
    const done = own.filter((a) => a.status === "done");
    const servedBy = [...new Set(done.map((a) => a.servedProvider ?? "?"))].sort();
    const servedByOthers = done.filter((a) => a.servedProvider !== endpoint.provider).length;
    const costUsd = own.reduce((sum, a) => (a.costUsd === null ? sum : sum.plus(a.costUsd)), new Decimal(0));
    extras.push({ provider: endpoint.provider, servedBy, costUsd });

    const endpointTokens = new Map<number, number | null>();
    for (const a of done) if (valid(a) && a.promptTokens !== null && !endpointTokens.has(a.promptIndex)) endpointTokens.set(a.promptIndex, a.promptTokens);
    let compared = 0;
    let mismatches = 0;
    for (const [i, tokens] of endpointTokens) {
      if (!referenceTokens.has(i)) continue;
      compared++;
      if (referenceTokens.get(i) !== tokens) mismatches++;
    }
    let test: EndpointEvidence["test"] = null;
    const method = !isReference && endpoint.method ? probeMethod(endpoint.method) : null;
    if (method) {
      test = method.compare({
        runId: run.id,
        deltaNats: run.deltaNats,
        reference: [...of(run.referenceTag, "reference", method.name), ...of(run.referenceTag, "reference-repeat", method.name)],
        endpoint: of(endpoint.tag, "endpoint", method.name),
      });
    }
    evidence.push({
      tag: endpoint.tag,
      isReference,
      servedByOthers,
      promptTokenMismatches: mismatches,
      promptTokensCompared: compared,
      promptsPlanned: run.promptCount,
      method: isReference || !endpoint.method ? null : (endpoint.method as EndpointEvidence["method"]),
      test,
    });
  }
  const verdicts = decideVerdicts(evidence, { ...DEFAULT_VERDICT_OPTIONS, minPrompts: Math.min(DEFAULT_VERDICT_OPTIONS.minPrompts, run.promptCount) });
  return verdicts.map((v, i) => ({ ...v, ...extras[i] }));
}
