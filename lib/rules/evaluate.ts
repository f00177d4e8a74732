import { compareDecimals } from "../decimal-compare";
import type { UptimeWindow } from "./vocabulary";
import { effectiveQuantization } from "./quantization";

// The rules engine: one pure function that decides, for every endpoint, whether it is included
// and every reason why not. The page, the routing export and the API all call this, so a link
// shows the same verdicts wherever it is opened.

export interface RuleSet {
  /** Quantization values excluded (known values only). */
  excludedQuantizations: readonly string[];
  /** Tags excluded by hand. */
  excludedTags: readonly string[];
  /** Tags included by hand: overrides the quantization rules for that endpoint. */
  includedTags: readonly string[];
  /** Whether "unknown" (unreported or unrecognised) quantization is acceptable. */
  acceptUnknown: boolean;
  /** Minimum uptime in percent; 0 turns the rule off. */
  minUptime: number;
  uptimeWindow: UptimeWindow;
  requireStatusZero: boolean;
  /**
   * Exclude endpoints OpenRouter marks degraded (status below 0). On by default: an endpoint
   * OpenRouter itself flags is not one a pipeline should be sent to unless someone chose it.
   */
  excludeDegraded: boolean;
  /** USD per million tokens, decimal strings; null turns the rule off. */
  maxInputPricePerM: string | null;
  maxOutputPricePerM: string | null;
  /** Exclude endpoints whose latest probe did not match the reference (differs, prompt-format, not-pinned). */
  excludeProbeMismatch?: boolean;
  /**
   * Exclude endpoints whose latest probe verdict is `differs`. On unless set to false (like the
   * degraded rule): an endpoint the probe found further than Δ from the reference is not one a
   * pipeline should be sent to unless someone chose it.
   */
  excludeProbeDiffers?: boolean;
  /**
   * Fail-closed: include only endpoints whose latest probe verdict is `equivalent` (and the
   * reference itself). Never probed, cannot tell, unverifiable, prompt-format, not-pinned, differs
   * and the old verdicts (matches, inconclusive) are all excluded.
   */
  requireProbeEquivalent?: boolean;
}

export const DEFAULT_RULES: RuleSet = {
  excludedQuantizations: [],
  excludedTags: [],
  includedTags: [],
  acceptUnknown: true,
  minUptime: 0,
  uptimeWindow: "30m",
  requireStatusZero: false,
  excludeDegraded: true,
  maxInputPricePerM: null,
  maxOutputPricePerM: null,
};

export interface EndpointFacts {
  tag: string;
  provider: string;
  /** What OpenRouter reports, verbatim. */
  quantization: string | null;
  /** What the team recorded it really serves, when it did. */
  knownQuantization?: string | null;
  status: number | null;
  uptime5m: number | null;
  uptime30m: number | null;
  uptime1d: number | null;
  inputPricePerM: string | null;
  outputPricePerM: string | null;
  /** The endpoint's verdict in the model's latest completed fidelity probe, if it was probed. */
  probe?: ProbeFact | null;
}

export interface ProbeFact {
  verdict: string;
  reason: string;
  /** When the probe finished (ISO). */
  finishedAt: string;
  /** The probe's answers came from the local replica (demo data). */
  demo?: boolean;
}

export type ReasonKind = "manual" | "quantization" | "unknown" | "uptime" | "status" | "input-price" | "output-price" | "probe";

export interface Reason {
  kind: ReasonKind;
  text: string;
}

export interface Verdict {
  tag: string;
  included: boolean;
  /** Why it is excluded; empty when included. */
  reasons: Reason[];
  /** The quantization the rules used: the team's when recorded, else the reported one. */
  quantization: string;
  quantizationSource: "reported" | "team";
  /** Included although its quantization is not known: flagged, not hidden. */
  unverified: boolean;
  /** Quantization rules that would exclude it, overridden by a manual include. */
  overridden: Reason[];
  /** One line for the table: "Included", "Excluded: int4; uptime 29.8% < 95%". */
  label: string;
}

export function evaluateRules(endpoints: readonly EndpointFacts[], rules: RuleSet): Verdict[] {
  return endpoints.map((e) => evaluateOne(e, rules));
}

function evaluateOne(e: EndpointFacts, rules: RuleSet): Verdict {
  const fromTeam = Boolean(e.knownQuantization);
  const raw = fromTeam ? (e.knownQuantization as string) : e.quantization;
  const quantization = raw ?? "unknown";
  const effective = effectiveQuantization(raw);

  const quantReasons: Reason[] = [];
  if (effective === "unknown") {
    // The "unknown" toggle and "accept unknown" are the same rule, reachable from either place.
    if (!rules.acceptUnknown || rules.excludedQuantizations.includes("unknown")) {
      const text = raw === null || raw === "unknown" ? "unknown quantization" : `unrecognised quantization ${raw}`;
      quantReasons.push({ kind: "unknown", text });
    }
  } else if (rules.excludedQuantizations.includes(effective)) {
    quantReasons.push({ kind: "quantization", text: effective });
  }

  const manualInclude = rules.includedTags.includes(e.tag);
  const manualExclude = rules.excludedTags.includes(e.tag);
  const reasons: Reason[] = [];
  if (manualExclude) reasons.push({ kind: "manual", text: "by hand" });
  if (!manualInclude) reasons.push(...quantReasons);
  reasons.push(...thresholdReasons(e, rules));
  const probeReason = probeMismatch(e, rules);
  if (probeReason) reasons.push(probeReason);

  const included = reasons.length === 0;
  const overridden = manualInclude ? quantReasons : [];
  const label = included
    ? overridden.length
      ? `Included by hand (over ${overridden.map((r) => r.text).join(", ")})`
      : "Included"
    : manualExclude && reasons.length === 1
      ? "Excluded by hand"
      : `Excluded: ${reasons.map((r) => r.text).join("; ")}`;
  return {
    tag: e.tag,
    included,
    reasons,
    quantization,
    quantizationSource: fromTeam ? "team" : "reported",
    unverified: included && effective === "unknown",
    overridden,
    label,
  };
}

function thresholdReasons(e: EndpointFacts, rules: RuleSet): Reason[] {
  const reasons: Reason[] = [];
  if (rules.minUptime > 0) {
    const uptime = { "5m": e.uptime5m, "30m": e.uptime30m, "1d": e.uptime1d }[rules.uptimeWindow];
    if (uptime === null) {
      reasons.push({ kind: "uptime", text: `no uptime data (${rules.uptimeWindow})` });
    } else if (uptime < rules.minUptime) {
      reasons.push({ kind: "uptime", text: `uptime ${formatPct(uptime)} < ${formatPct(rules.minUptime)}` });
    }
  }
  if (rules.requireStatusZero && e.status !== 0) {
    reasons.push({ kind: "status", text: e.status === null ? "status unknown" : `status ${e.status}` });
  } else if (rules.excludeDegraded && e.status !== null && e.status < 0) {
    reasons.push({ kind: "status", text: `degraded (status ${e.status})` });
  }
  // An endpoint without a listed price (missing, or OpenRouter's "-1" sentinel) is never sent
  // traffic: the pipeline spends real money and nobody could say what it would cost.
  const priceRule = (kind: "input-price" | "output-price", price: string | null, max: string | null, word: string) => {
    if (price === null) reasons.push({ kind, text: `no ${word} price` });
    else if (max !== null && compareDecimals(price, max) > 0) reasons.push({ kind, text: `${word} $${price}/M > $${max}/M` });
  };
  priceRule("input-price", e.inputPricePerM, rules.maxInputPricePerM, "input");
  priceRule("output-price", e.outputPricePerM, rules.maxOutputPricePerM, "output");
  return reasons;
}

const PROBE_MISMATCHES: Record<string, string> = { differs: "", "prompt-format": "prompt format: ", "not-pinned": "not pinned: " };
/** Verdicts the fail-closed rule keeps. */
const VERIFIED = new Set(["equivalent", "reference"]);

/** "differs by more than Δ: KL …; probe of 2026-12-01", or why the fail-closed rule excludes it. */
function probeMismatch(e: EndpointFacts, rules: RuleSet): Reason | null {
  const when = (p: ProbeFact) => `probe of ${p.finishedAt.slice(0, 10)}`;
  const p = e.probe;
  if (rules.requireProbeEquivalent && !(p && VERIFIED.has(p.verdict))) {
    return { kind: "probe", text: p ? `not verified equivalent (${p.verdict}: ${p.reason}); ${when(p)}` : "not verified equivalent (never probed)" };
  }
  if (!p) return null;
  if (rules.excludeProbeMismatch && p.verdict in PROBE_MISMATCHES) return { kind: "probe", text: `${PROBE_MISMATCHES[p.verdict]}${p.reason}; ${when(p)}` };
  if (rules.excludeProbeDiffers !== false && p.verdict === "differs") return { kind: "probe", text: `${p.reason}; ${when(p)}` };
  return null;
}

function formatPct(value: number): string {
  return `${Number(value.toFixed(2))}%`;
}

export function summarise(verdicts: readonly Verdict[]): string {
  const included = verdicts.filter((v) => v.included).length;
  return `${included} of ${verdicts.length} providers included`;
}
