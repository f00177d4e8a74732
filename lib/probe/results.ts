import Decimal from "decimal.js";
import { probeMethod } from "./methods";
import { DRAFT_ROLE, NO_DRAFT_ERROR } from "./methods/on-policy";
import type { MethodAnswer } from "./methods/types";
import type { PlannedEndpoint } from "./plan";
import { waveOf, type SequentialDesign } from "./sequential";
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
  error?: string | null;
}
export interface RunFacts {
  id: number;
  referenceTag: string;
  referenceProvider: string;
  endpoints: PlannedEndpoint[];
  promptCount: number;
  /** The margin, nats/token of KL. */
  deltaNats: number;
  /** The run's sequential design (lib/probe/sequential.ts); absent or null: one look at 95%. */
  design?: SequentialDesign | null;
}

export interface EndpointResult extends EndpointVerdict {
  provider: string;
  servedBy: string[];
  costUsd: Decimal;
}

/**
 * A verdict that ends an endpoint's run at an early look: its interval cleared Δ, or an answer
 * already showed it serves another prompt format or another provider (more answers cannot undo that).
 */
const decisive = (verdict: string) => verdict === "equivalent" || verdict === "differs" || verdict === "prompt-format" || verdict === "not-pinned";

/**
 * Every endpoint's result. A sequential run is read look by look, as the runner read it: at look j
 * only the prompts of waves 0..j count, at that look's level; an endpoint whose verdict there is
 * decisive keeps it (its later requests were never sent), the rest go on to the
 * next look, and the last look decides them all.
 */
export function computeResults(run: RunFacts, answers: AnswerRow[]): EndpointResult[] {
  const design = run.design ?? null;
  const looks = design?.alphas.length ?? 1;
  if (!design || looks === 1) return resultsOnPrompts(run, answers, { confidence: 1 - (design?.alphas[0] ?? 0.05), promptsPlanned: run.promptCount, look: null });
  return resultsByLook(run, answers, design, looks - 1).results;
}

/**
 * The endpoints decided at the interim looks 0..lastLook (0-based) of a sequential run, with the
 * look that decided each: what the runner asks after each wave, to stop sending their requests.
 */
export function decidedByLook(run: RunFacts & { design: SequentialDesign }, answers: AnswerRow[], lastLook: number): Map<string, number> {
  const interim = Math.min(lastLook, run.design.alphas.length - 2);
  return interim < 0 ? new Map() : resultsByLook(run, answers, run.design, interim).decidedAt;
}

function resultsByLook(run: RunFacts, answers: AnswerRow[], design: SequentialDesign, lastLook: number) {
  const looks = design.alphas.length;
  const chosen = new Map<string, EndpointResult>();
  const decidedAt = new Map<string, number>();
  let latest: EndpointResult[] = [];
  for (let j = 0; j <= lastLook; j++) {
    const inLook = (promptIndex: number) => waveOf(design, promptIndex) <= j;
    const promptsPlanned = design.waveOfPrompt.filter((w) => w <= j).length;
    latest = resultsOnPrompts(
      run,
      answers.filter((a) => inLook(a.promptIndex)),
      { confidence: 1 - design.alphas[j], promptsPlanned, look: { at: j + 1, of: looks, prompts: promptsPlanned } },
    );
    for (const r of latest) {
      if (chosen.has(r.tag)) continue;
      if (j === looks - 1) chosen.set(r.tag, r);
      else if (decisive(r.verdict)) {
        decidedAt.set(r.tag, j);
        chosen.set(r.tag, { ...r, reason: `${r.reason}; decided early, at look ${j + 1} of ${looks} (${promptsPlanned} of ${run.promptCount} prompts): its later requests were not sent` });
      }
    }
  }
  // What each endpoint cost and who served it: over all its answers, whatever look decided it. The
  // last look reads every prompt, so its results have them (the interim looks' are not used).
  const results = latest.map((r) => ({ ...(chosen.get(r.tag) ?? r), provider: r.provider, servedBy: r.servedBy, costUsd: r.costUsd }));
  return { results, decidedAt };
}

interface LookSettings {
  /** Two-sided level of the intervals. */
  confidence: number;
  /** Prompts planned up to this look (the share-compared gate counts against it). */
  promptsPlanned: number;
  look: { at: number; of: number; prompts: number } | null;
}

function resultsOnPrompts(run: RunFacts, answers: AnswerRow[], settings: LookSettings): EndpointResult[] {
  const providerOf = new Map(run.endpoints.map((e) => [e.tag, e.provider]));
  providerOf.set(run.referenceTag, run.referenceProvider);
  // Only answers served by the pinned provider, without reasoning in them, are ever compared.
  const valid = (a: AnswerRow) => a.status === "done" && a.servedProvider === providerOf.get(a.tag) && !(a.reasoningTokens && a.reasoningTokens > 0);
  const of = (tag: string, role: string, method: string) => answers.filter((a) => a.tag === tag && a.role === role && a.method === method && valid(a));
  const referenceTokens = new Map<number, number | null>();
  for (const a of answers) {
    if (a.tag === run.referenceTag && a.role === "reference" && !a.cut && valid(a) && a.promptTokens !== null && !referenceTokens.has(a.promptIndex)) referenceTokens.set(a.promptIndex, a.promptTokens);
  }
  // The reference's answers per method, gathered once: the same array for every endpoint, so a
  // method computes what depends only on the reference once per look (compareLogprobs).
  const referenceAnswers = new Map<string, ReturnType<typeof of>>();
  const referenceOf = (method: string) => {
    let answers = referenceAnswers.get(method);
    if (!answers) {
      // The reference's drafts too: the on-policy reads check that the reference continues them.
      answers = [...of(run.referenceTag, "reference", method), ...of(run.referenceTag, "reference-repeat", method), ...of(run.referenceTag, DRAFT_ROLE, method)];
      referenceAnswers.set(method, answers);
    }
    return answers;
  };
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
    // The prompt as planned (a prefilled read sends more: compared apart, lib/probe/methods/on-policy.ts).
    for (const a of done) if (!a.cut && valid(a) && a.promptTokens !== null && !endpointTokens.has(a.promptIndex)) endpointTokens.set(a.promptIndex, a.promptTokens);
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
        confidence: settings.confidence,
        reference: referenceOf(method.name),
        endpoint: of(endpoint.tag, "endpoint", method.name),
      });
    }
    if (test?.divergence) {
      // No prefilled read answered: refused (its requests failed) rather than not read.
      const refused = test.divergence.prefill === "not-read" && own.some((a) => a.cut && a.status === "error" && a.error !== NO_DRAFT_ERROR);
      test = { ...test, divergence: { ...test.divergence, look: settings.look, ...(refused ? { prefill: "refused" as const } : {}) } };
    }
    evidence.push({
      tag: endpoint.tag,
      isReference,
      servedByOthers,
      promptTokenMismatches: mismatches,
      promptTokensCompared: compared,
      promptsPlanned: settings.promptsPlanned,
      method: isReference || !endpoint.method ? null : (endpoint.method as EndpointEvidence["method"]),
      test,
    });
  }
  const verdicts = decideVerdicts(evidence, { ...DEFAULT_VERDICT_OPTIONS, minPrompts: Math.min(DEFAULT_VERDICT_OPTIONS.minPrompts, settings.promptsPlanned) });
  return verdicts.map((v, i) => ({ ...v, ...extras[i] }));
}
