import { evaluateRules, type ProbeFact } from "../rules/evaluate";
import { endpointFacts } from "../rules/facts";
import type { ProviderRow } from "../queries/providers";
import { readComparisonState, toRuleSet } from "../view-state/comparison";
import { judgeGeneration, type CandidateFacts, type GenerationFacts, type Judgement, type VerdictAt, type ViewAnswer } from "./judge";

// What one saved view said of every endpoint of its model over time: at every moment where a fact
// changed (a poll's snapshot, a revision of the view's rules, a finished probe) the rules engine is
// run once over the snapshot then in force, exactly as the model page would have run it then.
// Pure: the stored facts come in (lib/provenance/load.ts), a lookup by time comes out.

export type SnapshotRow = Pick<ProviderRow, "tag" | "provider" | "quantization" | "status" | "uptime5m" | "uptime30m" | "uptime1d" | "inputPricePerM" | "outputPricePerM">;

export interface TimelineInput {
  /** Successful polls of the model, oldest first, each with its snapshot's rows. */
  polls: Array<{ at: number; rows: SnapshotRow[] }>;
  /** The view's rules over time, oldest first. */
  revisions: Array<{ at: number; query: string }>;
  /** Finished probe runs of the model, oldest first, with each endpoint's verdict. */
  probes: Array<{ at: number; runId: number; results: Array<{ tag: string; verdict: string; reason: string }> }>;
  /** The team's known quantizations as they stand now (a correction applies to the past too: that is its point). */
  known: Array<{ tag: string; quantization: string }>;
}

interface Point {
  at: number;
  /** Each endpoint of the snapshot in force, by tag. */
  answers: Map<string, ViewAnswer & { provider: string }>;
}

export interface Timeline {
  /** The first moment the view's rules are known. */
  rulesFrom: number | null;
  points: Point[];
  verdicts: Map<string, VerdictAt[]>;
}

export function buildTimeline(input: TimelineInput): Timeline {
  const times = [...new Set([...input.polls.map((p) => p.at), ...input.revisions.map((r) => r.at), ...input.probes.map((p) => p.at)])].sort((a, b) => a - b);
  const points: Point[] = [];
  let poll = -1;
  let rev = -1;
  let probe = -1;
  for (const t of times) {
    while (poll + 1 < input.polls.length && input.polls[poll + 1].at <= t) poll++;
    while (rev + 1 < input.revisions.length && input.revisions[rev + 1].at <= t) rev++;
    while (probe + 1 < input.probes.length && input.probes[probe + 1].at <= t) probe++;
    if (poll < 0 || rev < 0) continue;
    const rules = toRuleSet(readComparisonState(new URLSearchParams(input.revisions[rev].query)).state);
    const run = probe >= 0 ? input.probes[probe] : null;
    const probeFacts: Array<ProbeFact & { tag: string }> = run
      ? run.results.map((r) => ({ tag: r.tag, verdict: r.verdict, reason: r.reason, finishedAt: new Date(run.at).toISOString() }))
      : [];
    const rows = input.polls[poll].rows;
    const facts = endpointFacts(rows as ProviderRow[], input.known, probeFacts);
    const verdicts = evaluateRules(facts, rules);
    const snapshotAt = new Date(input.polls[poll].at).toISOString();
    const answers = new Map<string, ViewAnswer & { provider: string }>();
    verdicts.forEach((v, i) => {
      answers.set(v.tag, {
        provider: rows[i].provider,
        included: v.included,
        reasons: v.reasons.map((r) => r.text),
        status: rows[i].status,
        quantization: v.quantization,
        quantizationSource: v.quantizationSource,
        snapshotAt,
      });
    });
    points.push({ at: t, answers });
  }
  const verdicts = new Map<string, VerdictAt[]>();
  for (const run of input.probes) {
    for (const r of run.results) {
      const list = verdicts.get(r.tag) ?? [];
      list.push({ verdict: r.verdict, at: new Date(run.at).toISOString(), runId: run.runId });
      verdicts.set(r.tag, list);
    }
  }
  return { rulesFrom: input.revisions[0]?.at ?? null, points, verdicts };
}

/** Index of the last element whose time is at or before t (-1: none). */
export function lastAtOrBefore<T>(list: readonly T[], t: number, at: (x: T) => number): number {
  let lo = 0;
  let hi = list.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (at(list[mid]) <= t) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

export interface GenerationRecord {
  provider: string | null;
  tag: string | null;
  modelId: string | null;
  occurredAt: Date | null;
}

/** The facts of one generation under a view, looked up in its timeline. */
export function generationFacts(
  record: GenerationRecord,
  view: GenerationFacts["view"],
  timeline: Timeline | null,
  graceMinutes: number,
): GenerationFacts {
  const base: GenerationFacts = {
    provider: record.provider,
    recordTag: record.tag,
    modelId: record.modelId,
    occurredAt: record.occurredAt?.toISOString() ?? null,
    view,
    viewRulesKnown: true,
    snapshotInForce: true,
    candidates: [],
    graceMinutes,
  };
  if (!view || !timeline || !record.occurredAt || !record.provider) return base;
  const t = record.occurredAt.getTime();
  if (timeline.rulesFrom === null || t < timeline.rulesFrom) return { ...base, viewRulesKnown: false };
  const i = lastAtOrBefore(timeline.points, t, (p) => p.at);
  if (i < 0) return { ...base, snapshotInForce: false };
  const provider = record.provider.toLowerCase();
  const candidates: CandidateFacts[] = [];
  for (const [tag, answer] of timeline.points[i].answers) {
    if (answer.provider.toLowerCase() !== provider || (record.tag !== null && record.tag !== tag)) continue;
    const { provider: _provider, ...atTime } = answer;
    void _provider;
    candidates.push({
      tag,
      atTime,
      includedWithinGraceAt: atTime.included ? null : includedUntil(timeline, i, tag, t - graceMinutes * 60_000),
      ...verdictsAround(timeline.verdicts.get(tag) ?? [], t),
    });
  }
  return { ...base, candidates };
}

/**
 * The latest moment before point i, no earlier than `since`, when the view included the tag: the
 * end of the last span that included it (a pipeline that fetched its allow-list then may still use it).
 */
function includedUntil(timeline: Timeline, i: number, tag: string, since: number): string | null {
  for (let j = i - 1; j >= 0; j--) {
    if (timeline.points[j + 1].at <= since) break;
    if (timeline.points[j].answers.get(tag)?.included) return new Date(timeline.points[j + 1].at).toISOString();
  }
  return null;
}

function verdictsAround(list: VerdictAt[], t: number): { verdictBefore: VerdictAt | null; verdictAfter: VerdictAt | null } {
  const i = lastAtOrBefore(list, t, (v) => Date.parse(v.at));
  return { verdictBefore: i >= 0 ? list[i] : null, verdictAfter: list[i + 1] ?? null };
}

/**
 * The moments at which a generation's facts under this timeline can change: the view's first
 * rules, every point (a poll, a revision, a probe), every point plus the grace (a pipeline's old
 * allow-list runs out), every verdict. Between two of them, generations of one provider, tag and
 * model have the same facts but their time.
 */
export function timelineBreaks(timeline: Timeline, graceMinutes: number): number[] {
  const grace = graceMinutes * 60_000;
  const breaks = new Set<number>();
  if (timeline.rulesFrom !== null) breaks.add(timeline.rulesFrom);
  for (const p of timeline.points) {
    breaks.add(p.at);
    breaks.add(p.at + grace);
  }
  for (const list of timeline.verdicts.values()) for (const v of list) breaks.add(Date.parse(v.at));
  return [...breaks].sort((a, b) => a - b);
}

export interface SpanJudgeInput extends GenerationRecord {
  /** Any value that tells the views apart (their id). */
  viewKey: number | null;
  lookup?: GenerationFacts["lookup"];
}

/**
 * judgeGeneration(generationFacts(...)) for many records, judged once per time span: a record's
 * judgement is looked up by its view, provider, tag, model, lookup and the span between two of its
 * timeline's breaks its time falls in. A million records of a few spans cost a few judgements and
 * a binary search each. At most `maxEntries` judgements are kept (then the memo starts again).
 */
export function spanJudge(
  views: ReadonlyMap<number, { view: GenerationFacts["view"]; timeline: Timeline | null }>,
  graceMinutes: number,
  maxEntries = 100_000,
): (record: SpanJudgeInput) => Judgement {
  const breaks = new Map<number, number[]>();
  for (const [key, v] of views) if (v.timeline) breaks.set(key, timelineBreaks(v.timeline, graceMinutes));
  const memo = new Map<string, Judgement>();
  return (record) => {
    const v = record.viewKey === null ? undefined : views.get(record.viewKey);
    const list = record.viewKey === null ? undefined : breaks.get(record.viewKey);
    const t = record.occurredAt?.getTime();
    const span = list && t !== undefined ? lastAtOrBefore(list, t, (b) => b) : -2;
    const l = record.lookup;
    const key = JSON.stringify([record.viewKey, record.provider, record.tag, record.modelId, t === undefined, span, l?.state ?? null, l?.attempts ?? null, l?.error ?? null]);
    let judgement = memo.get(key);
    if (!judgement) {
      const facts = generationFacts(record, v?.view ?? null, v?.timeline ?? null, graceMinutes);
      if (l) facts.lookup = l;
      judgement = judgeGeneration(facts);
      if (memo.size >= maxEntries) memo.clear();
      memo.set(key, judgement);
    }
    return judgement;
  };
}
