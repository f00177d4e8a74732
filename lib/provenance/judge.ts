// Provenance: one class for one imported generation, decided from the facts Routeboard held about
// the endpoint that served it at the time it was generated. Pure: the facts are gathered elsewhere
// (lib/provenance/facts.ts); this file only decides, so it can be tested with hand-written facts.
// A class and its reasons never name the generation's own time (the record carries it): so every
// generation of one time span between two facts gets the same judgement (lib/provenance/timeline.ts's
// spanJudge judges a span once).

/** `awaiting`: the record kept only its generation id and OpenRouter's /generation has not answered yet ("not yet looked up"). */
export const PROVENANCE_CLASSES = ["trusted", "unverified", "suspect", "excluded", "awaiting"] as const;
export type ProvenanceClass = (typeof PROVENANCE_CLASSES)[number];

/** How long a pipeline may keep an allow-list it fetched before refetching it (minutes), unless set. */
export const DEFAULT_ALLOWLIST_GRACE_MINUTES = 60;

export interface VerdictAt {
  verdict: string;
  /** When the probe run that gave it finished (ISO). */
  at: string;
  runId: number;
}

/** What the view said of one endpoint at one moment: the snapshot in force and the view's rules then. */
export interface ViewAnswer {
  included: boolean;
  /** The row's reasons (why excluded; empty when included). */
  reasons: string[];
  status: number | null;
  /** The quantization the rules used (the team's known one when recorded, else the reported one). */
  quantization: string;
  quantizationSource: "reported" | "team";
  /** The snapshot in force (ISO of its poll). */
  snapshotAt: string;
}

export interface CandidateFacts {
  tag: string;
  /** The view's answer at the generation's time; null when no snapshot of the model was in force. */
  atTime: ViewAnswer | null;
  /** When excluded at the time: until when, within the grace window before it, the view still included it (ISO). */
  includedWithinGraceAt: string | null;
  /** The endpoint's latest probe verdict finished before the generation, and its first after. */
  verdictBefore: VerdictAt | null;
  verdictAfter: VerdictAt | null;
}

export interface GenerationFacts {
  provider: string | null;
  /** The tag the record named, when it had one. */
  recordTag: string | null;
  modelId: string | null;
  occurredAt: string | null;
  /** The saved view the pipeline ran under (chosen per import, else per dataset); null: none chosen. */
  view: { slug: string; name: string; modelId: string } | null;
  /** The view's rules were recorded at the generation's time (views saved before revisions were kept may not be). */
  viewRulesKnown: boolean;
  /** A snapshot of the model was in force at the generation's time (a poll before it). */
  snapshotInForce: boolean;
  /** The endpoints of the record's provider (and tag, when it named one) for the model, each with its facts. */
  candidates: CandidateFacts[];
  graceMinutes: number;
  /** The lookup of a record imported without its provider (lib/provenance/lookup.ts); absent when it had one. */
  lookup?: { state: string; attempts: number; error: string | null } | null;
}

export interface Judgement {
  class: ProvenanceClass;
  /** The endpoint judged; null when none or when several could have served it. */
  tag: string | null;
  ambiguous: boolean;
  reasons: string[];
  verdictBefore: string | null;
  verdictAfter: string | null;
  included: boolean | null;
  status: number | null;
  quantization: string | null;
}

const RANK: Record<ProvenanceClass, number> = { trusted: 0, unverified: 1, awaiting: 1, suspect: 2, excluded: 3 };
const VERIFIED = new Set(["equivalent", "reference"]);

export function judgeGeneration(f: GenerationFacts): Judgement {
  const none = (cls: ProvenanceClass, reasons: string[]): Judgement => ({
    class: cls,
    tag: null,
    ambiguous: false,
    reasons,
    verdictBefore: null,
    verdictAfter: null,
    included: null,
    status: null,
    quantization: null,
  });
  if (!f.provider) {
    const l = f.lookup;
    if (l?.state === "pending") {
      const tried = l.attempts === 0 ? "not yet looked up" : `not yet found after ${l.attempts} lookup${l.attempts === 1 ? "" : "s"} (${l.error ?? "no answer yet"}); tried again later`;
      return none("awaiting", [`the record kept only its generation id: OpenRouter's /generation ${tried}`]);
    }
    if (l?.state === "not_found") return none("unverified", [`OpenRouter's /generation never knew this id (${l.attempts} lookups answered 404), so its provider is unknown`]);
    if (l?.state === "failed") return none("unverified", [`the lookup of its provider failed: ${l.error ?? "unknown error"}`]);
    return none("unverified", ["the record names no provider (enrich it from OpenRouter's /generation)"]);
  }
  if (!f.view) return none("unverified", ["no saved view is chosen for this import or dataset, so nothing says what the pipeline was allowed"]);
  if (!f.occurredAt) return none("unverified", ["the record has no time, so what was known then cannot be looked up"]);
  if (f.modelId && !sameModel(f.modelId, f.view.modelId)) {
    return none("unverified", [`the record's model ${f.modelId} is not the view's model ${f.view.modelId}`]);
  }
  if (!f.viewRulesKnown) return none("unverified", [`view “${f.view.name}”'s rules at the generation's time were not recorded (saved before its history was kept)`]);
  if (!f.snapshotInForce) return none("unverified", [`no snapshot of ${f.view.modelId} was taken before the generation`]);
  if (f.candidates.length === 0) {
    const what = f.recordTag ? `endpoint ${f.recordTag}` : `provider ${f.provider}`;
    return none("excluded", [`${what} had no endpoint of ${f.view.modelId} in the snapshot in force: view “${f.view.name}”'s allow-list never named it (a leak through fallbacks)`]);
  }
  const judged = f.candidates.map((c) => judgeCandidate(c, f));
  if (judged.length === 1) return judged[0];
  return combineAmbiguous(judged, f);
}

/** A record names the model as asked ("moonshotai/kimi-k2.5") or as answered, by its dated permaslug ("…-20260127"). */
export function sameModel(recorded: string, viewModel: string): boolean {
  return recorded === viewModel || (recorded.startsWith(`${viewModel}-`) && /^\d{8}$/.test(recorded.slice(viewModel.length + 1)));
}

function judgeCandidate(c: CandidateFacts, f: GenerationFacts): Judgement {
  const viewName = `view “${(f.view as { name: string }).name}”`;
  const base = {
    tag: c.tag,
    ambiguous: false,
    verdictBefore: c.verdictBefore?.verdict ?? null,
    verdictAfter: c.verdictAfter?.verdict ?? null,
    included: c.atTime?.included ?? null,
    status: c.atTime?.status ?? null,
    quantization: c.atTime?.quantization ?? null,
  };
  const judged = (cls: ProvenanceClass, reasons: string[]): Judgement => ({ ...base, class: cls, reasons });
  if (!c.atTime) return judged("unverified", [`no snapshot of ${c.tag} was in force at the generation's time`]);
  const a = c.atTime;
  const context = `${c.tag} at the snapshot of ${a.snapshotAt}: status ${a.status ?? "unknown"}, quantization ${a.quantization}${a.quantizationSource === "team" ? " (team's record)" : ""}`;
  if (!a.included) {
    const why = `${viewName} excluded ${c.tag}: ${a.reasons.join("; ") || "no reason recorded"}`;
    if (c.includedWithinGraceAt) {
      return judged("suspect", [
        why,
        `it was included until ${c.includedWithinGraceAt}, within the ${f.graceMinutes} min a pipeline may keep an old allow-list`,
        context,
      ]);
    }
    return judged("excluded", [why, context]);
  }
  const reasons = [`${viewName} included ${c.tag}`, context];
  const before = c.verdictBefore;
  const after = c.verdictAfter;
  if (after?.verdict === "differs") {
    return judged("suspect", [...reasons, `a later probe (run ${after.runId}, ${after.at}) found it differs`, beforeText(before)]);
  }
  if (before?.verdict === "differs") return judged("suspect", [...reasons, `the probe before (run ${before.runId}, ${before.at}) found it differs`]);
  if (before && VERIFIED.has(before.verdict)) {
    const afterText = after ? `the next probe (run ${after.runId}, ${after.at}) says ${after.verdict}` : "no probe since";
    return judged("trusted", [...reasons, `verified ${before.verdict} by the probe before (run ${before.runId}, ${before.at})`, afterText]);
  }
  return judged("unverified", [...reasons, beforeText(before)]);
}

function beforeText(before: VerdictAt | null): string {
  return before ? `probe before (run ${before.runId}, ${before.at}): ${before.verdict}` : "never probed before the generation";
}

/**
 * Several endpoints of the provider could have served it and the record does not say which: the
 * class is the least trusted of theirs, except that it is `excluded` only when every one of them
 * was (one that may have been allowed makes it `suspect`, not a certain leak).
 */
function combineAmbiguous(judged: Judgement[], f: GenerationFacts): Judgement {
  const worst = judged.reduce((w, j) => (RANK[j.class] > RANK[w.class] ? j : w));
  const allExcluded = judged.every((j) => j.class === "excluded");
  const cls: ProvenanceClass = worst.class === "excluded" && !allExcluded ? "suspect" : worst.class;
  const same = judged.every((j) => j.class === judged[0].class);
  return {
    class: cls,
    tag: null,
    ambiguous: true,
    reasons: [
      `ambiguous endpoint: ${f.provider} had ${judged.length} endpoints (${judged.map((j) => j.tag).join(", ")}) and the record has no tag; ${same ? "all give the same class" : "judged by the least trusted"}`,
      ...judged.map((j) => `${j.tag}: ${j.class} (${j.reasons.join("; ")})`),
    ],
    verdictBefore: same ? judged[0].verdictBefore : null,
    verdictAfter: same ? judged[0].verdictAfter : null,
    included: judged.every((j) => j.included === true) ? true : judged.every((j) => j.included === false) ? false : null,
    status: null,
    quantization: null,
  };
}
