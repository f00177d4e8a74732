import { diffSnapshots, type EndpointState } from "../history/changes";
import type { Comparison } from "../queries/comparison";
import { routingAnswer } from "../routing/answer";
import type { UptimeWindow } from "../rules/vocabulary";
import type { AlertKind } from "./outbox";

// The view alerts, decided: what a saved view answers on the snapshot just written (its verdicts,
// its routing export, its endpoints' facts, the probe verdicts, how long each endpoint's uptime
// has been on one side of the threshold), compared with what it answered when last evaluated.
// Pure: lib/alerts/detect-views.ts reads the view and its stored state inside the transaction that
// writes the snapshot (or the probe results), calls evaluateView and writes what it returns.

export interface ViewConditions {
  includedSet: boolean;
  routing: boolean;
  endpointChange: boolean;
  uptime: boolean;
  probeVerdict: boolean;
  /** Uptime (%) of the uptime condition; null: the view's own uptime rule, else 95. */
  uptimeThreshold: number | null;
}

export const DEFAULT_ALERT_UPTIME = 95;
/** Polls in a row on the other side of the threshold that open (or close) an uptime alert. */
export const UPTIME_POLLS = 2;

export interface UptimeTrack {
  /** Polls in a row below the threshold while closed, above it while open. */
  streak: number;
  open: boolean;
  /** The uptimes of the current streak, oldest first. */
  values: number[];
}

export interface ViewAlertState {
  version: 1;
  /** The snapshot last evaluated (an uptime streak moves once per snapshot, not per evaluation). */
  snapshotAt: string | null;
  verdicts: Record<string, { provider: string; included: boolean; label: string }>;
  /** The routing answer, without its snapshotAt (which moves every poll). */
  routing: { status: number; body?: Record<string, unknown>; error?: string };
  endpoints: EndpointState[];
  uptime: Record<string, UptimeTrack>;
  /** Each endpoint's last known probe verdict (kept when a later run did not probe it). */
  probes: Record<string, string>;
}

export interface AlertDraft {
  kind: AlertKind;
  summary: string;
  data: Record<string, unknown>;
}

export interface RoutingDiffLine {
  path: string;
  added?: string[];
  removed?: string[];
  old?: unknown;
  new?: unknown;
}

/** The uptime threshold and window the view's uptime condition uses. */
export function uptimeRule(conditions: Pick<ViewConditions, "uptimeThreshold">, comparison: Pick<Comparison, "state">): { threshold: number; window: UptimeWindow } {
  const own = comparison.state.upmin > 0 ? comparison.state.upmin : null;
  return { threshold: conditions.uptimeThreshold ?? own ?? DEFAULT_ALERT_UPTIME, window: comparison.state.upw };
}

function uptimeOf(row: { uptime5m: number | null; uptime30m: number | null; uptime1d: number | null }, window: UptimeWindow): number | null {
  return window === "5m" ? row.uptime5m : window === "1d" ? row.uptime1d : row.uptime30m;
}

/** The parts of the state that depend on this snapshot alone (uptime streaks excluded). */
export function viewAnswer(comparison: Comparison): Omit<ViewAlertState, "uptime"> {
  const provider = new Map(comparison.snapshot.endpoints.map((e) => [e.tag, e.provider]));
  const verdicts: ViewAlertState["verdicts"] = {};
  for (const v of comparison.verdicts) verdicts[v.tag] = { provider: provider.get(v.tag) ?? v.tag, included: v.included, label: v.label };
  const answer = routingAnswer(comparison);
  let routing: ViewAlertState["routing"];
  if (answer.status === 200) {
    const { snapshotAt: _moves, ...body } = answer.body;
    routing = { status: 200, body };
  } else {
    routing = { status: answer.status, error: answer.error };
  }
  const probes: Record<string, string> = {};
  for (const p of comparison.probes) probes[p.tag] = p.verdict;
  return {
    version: 1,
    snapshotAt: comparison.snapshot.polledAt,
    verdicts,
    routing,
    endpoints: comparison.snapshot.endpoints.map((e) => ({
      tag: e.tag,
      provider: e.provider,
      quantization: e.quantization,
      status: e.status,
      inputPricePerM: e.inputPricePerM,
      outputPricePerM: e.outputPricePerM,
      uptime30m: e.uptime30m,
    })),
    probes,
  };
}

const name = (provider: string, tag: string) => (provider.toLowerCase() === tag ? provider : `${provider} (${tag})`);

/**
 * The view's new state and the events since `previous`. No previous state (alerts just turned on)
 * records the state and says nothing.
 */
export function evaluateView(
  previous: ViewAlertState | null,
  comparison: Comparison,
  conditions: ViewConditions,
  view: { name: string },
): { state: ViewAlertState; events: AlertDraft[] } {
  const answer = viewAnswer(comparison);
  const demo = comparison.snapshot.demo;
  const withDemo = (data: Record<string, unknown>) => (demo ? { ...data, demo: true } : data);
  const rule = uptimeRule(conditions, comparison);
  const uptime = nextUptime(previous, comparison, answer, rule);
  // Each endpoint's last known decisive probe verdict: the latest run may have probed other
  // endpoints only, and a verdict must not be forgotten (its next change would then pass as a first
  // verdict). `cannot tell` decides nothing, so it does not replace a known verdict: equivalent →
  // cannot tell → equivalent is no news; equivalent → cannot tell → differs is one alert.
  const probes = previous?.version === 1 ? mergeProbeVerdicts(previous.probes, answer.probes) : answer.probes;
  const state: ViewAlertState = { ...answer, probes, uptime: uptime.tracks };
  if (!previous || previous.version !== 1) return { state, events: [] };

  const events: AlertDraft[] = [];
  const wasIncluded = (tag: string) => previous.verdicts[tag]?.included === true;
  const isIncluded = (tag: string) => answer.verdicts[tag]?.included === true;

  if (conditions.includedSet) {
    const tags = [...new Set([...Object.keys(previous.verdicts), ...Object.keys(answer.verdicts)])].sort();
    for (const tag of tags) {
      const before = wasIncluded(tag);
      const after = isIncluded(tag);
      if (before === after) continue;
      const now = answer.verdicts[tag];
      const provider = now?.provider ?? previous.verdicts[tag]?.provider ?? tag;
      const reason = now ? now.label : "No longer listed by OpenRouter";
      events.push({
        kind: "included",
        summary: `${name(provider, tag)} ${after ? "entered" : "left"} the included set of “${view.name}”: ${reason}`,
        data: withDemo({
          tag,
          provider,
          change: after ? "entered" : "left",
          reason,
          old: { included: before, verdict: previous.verdicts[tag]?.label ?? null },
          new: { included: after, verdict: now?.label ?? null },
        }),
      });
    }
  }

  // Compared member by member: the stored state comes back from a jsonb column in another key order.
  const diff = conditions.routing ? routingDiff(previous.routing, answer.routing) : [];
  if (diff.length) {
    events.push({
      kind: "routing",
      summary: `The routing export of “${view.name}” changed: ${diff.map(diffText).join("; ")}`,
      data: withDemo({ old: previous.routing, new: answer.routing, diff, diffText: diff.map(diffText) }),
    });
  }

  if (conditions.endpointChange) {
    const kinds = new Set(["price", "quantization", "status", "tag"]);
    const before = new Map(previous.endpoints.map((e) => [e.tag, e]));
    const after = new Map(answer.endpoints.map((e) => [e.tag, e]));
    for (const change of diffSnapshots(previous.endpoints, answer.endpoints, rule.threshold)) {
      if (!kinds.has(change.kind)) continue;
      const oldTag = change.kind === "tag" ? (change.before as string) : change.tag;
      if (!wasIncluded(oldTag) && !isIncluded(change.tag)) continue;
      const was = before.get(oldTag) as EndpointState;
      const now = after.get(change.tag) as EndpointState;
      let old: unknown = change.before;
      let next: unknown = change.after;
      if (change.kind === "price") {
        old = { inputPricePerM: was.inputPricePerM, outputPricePerM: was.outputPricePerM };
        next = { inputPricePerM: now.inputPricePerM, outputPricePerM: now.outputPricePerM };
      } else if (change.kind === "status") {
        old = was.status;
        next = now.status;
      }
      const what = change.kind === "price" ? "price ($/M input / output)" : change.kind;
      events.push({
        kind: "endpoint",
        summary: `${name(change.provider, change.tag)} in “${view.name}” changed its ${what}: ${change.before ?? "none"} → ${change.after ?? "none"}`,
        data: withDemo({ tag: change.tag, provider: change.provider, change: change.kind, old, new: next }),
      });
    }
  }

  if (conditions.uptime) {
    for (const e of uptime.events) {
      const who = name(e.provider, e.tag);
      const values = e.values.map((v) => `${v}%`).join(", ");
      events.push({
        kind: e.open ? "uptime-down" : "uptime-recovered",
        summary: e.open
          ? `${who} in “${view.name}” has been below ${rule.threshold}% uptime (${rule.window}) for ${UPTIME_POLLS} polls: ${values}`
          : `${who} in “${view.name}” recovered: uptime (${rule.window}) at or above ${rule.threshold}% for ${UPTIME_POLLS} polls: ${values}`,
        data: withDemo({
          tag: e.tag,
          provider: e.provider,
          threshold: rule.threshold,
          window: rule.window,
          polls: e.values,
          old: e.open ? "up" : "down",
          new: e.open ? "down" : "up",
        }),
      });
    }
  }

  if (conditions.probeVerdict) {
    for (const [tag, verdict] of Object.entries(probes).sort(([a], [b]) => a.localeCompare(b))) {
      const was = previous.probes[tag];
      if (was === undefined || was === verdict || sameMeaning(was, verdict) || (!wasIncluded(tag) && !isIncluded(tag))) continue;
      const provider = answer.verdicts[tag]?.provider ?? tag;
      events.push({
        kind: "probe",
        summary: `The fidelity probe verdict of ${name(provider, tag)} in “${view.name}” changed: ${was} → ${verdict}`,
        data: withDemo({ tag, provider, old: was, new: verdict }),
      });
    }
  }
  return { state, events };
}

/** Verdicts that decide nothing about the endpoint (the new `cannot tell`, the old `inconclusive`). */
const UNDECIDED = new Set(["cannot tell", "inconclusive"]);

function mergeProbeVerdicts(previous: Record<string, string>, latest: Record<string, string>): Record<string, string> {
  const merged = { ...previous };
  for (const [tag, verdict] of Object.entries(latest)) if (!(UNDECIDED.has(verdict) && tag in previous)) merged[tag] = verdict;
  return merged;
}

/** A run before the equivalence probe said `matches`; the same endpoint now `equivalent` is no change. */
function sameMeaning(was: string, now: string): boolean {
  return was === "matches" && now === "equivalent";
}

interface UptimeEvent {
  tag: string;
  provider: string;
  open: boolean;
  values: number[];
}

/**
 * Hysteresis: an endpoint of the view below the threshold for UPTIME_POLLS polls in a row opens
 * an alert; once open, UPTIME_POLLS polls in a row at or above it close it. An endpoint is followed
 * while it is included, while a streak runs and while its alert is open. The same snapshot
 * evaluated twice (a probe finishing between polls) does not move a streak.
 */
function nextUptime(
  previous: ViewAlertState | null,
  comparison: Comparison,
  answer: Omit<ViewAlertState, "uptime">,
  rule: { threshold: number; window: UptimeWindow },
): { tracks: Record<string, UptimeTrack>; events: UptimeEvent[] } {
  const old = previous?.version === 1 ? previous.uptime : {};
  if (previous?.version === 1 && previous.snapshotAt === answer.snapshotAt) return { tracks: old, events: [] };
  const tracks: Record<string, UptimeTrack> = {};
  const events: UptimeEvent[] = [];
  for (const row of comparison.snapshot.endpoints) {
    const was = old[row.tag];
    const included = answer.verdicts[row.tag]?.included === true;
    if (!included && !was) continue;
    const value = uptimeOf(row, rule.window);
    if (value === null) {
      if (was) tracks[row.tag] = was;
      continue;
    }
    const open = was?.open ?? false;
    const against = open ? value >= rule.threshold : value < rule.threshold;
    if (!against) {
      if (open || included) tracks[row.tag] = { streak: 0, open, values: [] };
      continue;
    }
    const values = [...(was?.values ?? []), value];
    const streak = (was?.streak ?? 0) + 1;
    if (streak >= UPTIME_POLLS) {
      events.push({ tag: row.tag, provider: row.provider, open: !open, values });
      tracks[row.tag] = { streak: 0, open: !open, values: [] };
    } else {
      tracks[row.tag] = { streak, open, values };
    }
  }
  return { tracks, events };
}

/** The routing answers' differences by path (sorted), readable: lists by what was added and removed. */
export function routingDiff(before: ViewAlertState["routing"], after: ViewAlertState["routing"]): RoutingDiffLine[] {
  const lines: RoutingDiffLine[] = [];
  if (before.status !== after.status) lines.push({ path: "status", old: before.status, new: after.status });
  if (before.error !== after.error) {
    if (before.error !== undefined || after.error !== undefined) lines.push({ path: "error", old: before.error ?? null, new: after.error ?? null });
  }
  walk("", before.body ?? {}, after.body ?? {}, lines);
  return lines.sort((a, b) => a.path.localeCompare(b.path));
}

function walk(path: string, a: unknown, b: unknown, out: RoutingDiffLine[]) {
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  const isList = (v: unknown): v is unknown[] => Array.isArray(v) || v === undefined;
  if ((isObject(a) || a === undefined) && (isObject(b) || b === undefined)) {
    const x = (a ?? {}) as Record<string, unknown>;
    const y = (b ?? {}) as Record<string, unknown>;
    for (const key of [...new Set([...Object.keys(x), ...Object.keys(y)])]) walk(path ? `${path}.${key}` : key, x[key], y[key], out);
    return;
  }
  if (isList(a) && isList(b) && (Array.isArray(a) || Array.isArray(b))) {
    const x = (a ?? []).map(String);
    const y = (b ?? []).map(String);
    const added = y.filter((v) => !x.includes(v));
    const removed = x.filter((v) => !y.includes(v));
    if (added.length || removed.length) {
      out.push({ path, ...(added.length ? { added } : {}), ...(removed.length ? { removed } : {}) });
    } else {
      out.push({ path, old: a ?? null, new: b ?? null }); // same members, another order
    }
    return;
  }
  out.push({ path, old: a ?? null, new: b ?? null });
}

export function diffText(line: RoutingDiffLine): string {
  if (line.added || line.removed) {
    const parts = [...(line.added ?? []).map((v) => `+${v}`), ...(line.removed ?? []).map((v) => `−${v}`)];
    return `${line.path}: ${parts.join(" ")}`;
  }
  return `${line.path}: ${JSON.stringify(line.old)} → ${JSON.stringify(line.new)}`;
}
