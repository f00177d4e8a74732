import {
  createParser,
  type inferParserType,
  parseAsArrayOf,
  parseAsStringLiteral,
} from "nuqs/server";
import { RANGES } from "../history/buckets";
import type { RuleSet } from "../rules/evaluate";
import { KNOWN_QUANTIZATIONS, UPTIME_WINDOWS } from "../rules/vocabulary";

// The comparison page's URL state: rules, thresholds and sort. Parsed by the server (page,
// routing API) and the client (nuqs hooks) from this one definition, so a link reproduces a view.

export const ROUTING_SORTS = ["price", "throughput", "latency", "none"] as const;
export type RoutingSort = (typeof ROUTING_SORTS)[number];

export const SORTABLE_COLUMNS = [
  "provider", "tag", "quantization", "inputPricePerM", "outputPricePerM", "cacheReadPricePerM", "status",
  "uptime5m", "uptime30m", "uptime1d", "latencyP50Ms", "throughputP50", "contextLength", "maxCompletionTokens",
  "verdict",
] as const;
export type SortColumn = (typeof SORTABLE_COLUMNS)[number];

/** The provider table's columns a reader may hide or show (Provider and Verdict always show). */
export const CHOOSABLE_COLUMNS = [
  "tag", "quantization", "inputPricePerM", "outputPricePerM", "cacheReadPricePerM", "status",
  "uptime5m", "uptime30m", "uptime1d", "latencyP50Ms", "throughputP50", "contextLength", "maxCompletionTokens",
] as const;
export type ChoosableColumn = (typeof CHOOSABLE_COLUMNS)[number];

/**
 * The columns shown until the reader chooses: what decides a provider (quantization, price,
 * health, speed), narrow enough to fit a 1280 px screen without sideways scrolling.
 */
export const DEFAULT_COLUMNS: ChoosableColumn[] = [
  "quantization", "inputPricePerM", "outputPricePerM", "status", "uptime30m", "uptime1d", "latencyP50Ms", "throughputP50",
];

export interface SortState {
  column: SortColumn;
  desc: boolean;
}

/** "outputPricePerM.asc" ⇄ {column, desc}. */
export const parseAsSort = createParser<SortState>({
  parse(value) {
    const [column, dir] = value.split(".");
    if (!(SORTABLE_COLUMNS as readonly string[]).includes(column) || (dir !== "asc" && dir !== "desc")) return null;
    return { column: column as SortColumn, desc: dir === "desc" };
  },
  serialize: (v) => `${v.column}.${v.desc ? "desc" : "asc"}`,
  eq: (a, b) => a.column === b.column && a.desc === b.desc,
});

/** A non-negative decimal amount, kept as a string so money never passes through a float. */
export const parseAsAmount = createParser<string>({
  parse: (value) => (/^\d{1,9}(\.\d{1,6})?$/.test(value) ? value : null),
  serialize: (v) => v,
});

/** A percentage from 0 to 100. */
export const parseAsPercent = createParser<number>({
  parse(value) {
    const n = Number(value);
    return value.trim() !== "" && Number.isFinite(n) && n >= 0 && n <= 100 ? n : null;
  },
  serialize: (v) => String(v),
});

/**
 * "true" or "false" and nothing else. nuqs's parseAsBoolean reads anything but "true" as false,
 * so a mistyped `deg=ture` would silently turn a safety rule off; here it is reported and ignored.
 */
export const parseAsStrictBoolean = createParser<boolean>({
  parse: (value) => (value === "true" ? true : value === "false" ? false : null),
  serialize: (v) => String(v),
});

const TAG = /^[a-z0-9][a-z0-9._/-]{0,99}$/i;
export const parseAsTag = createParser<string>({
  parse: (value) => (TAG.test(value) ? value : null),
  serialize: (v) => v,
});

export const comparisonParsers = {
  /** Quantization values excluded ("Exclude 4-bit" sets int4, fp4, mxfp4, nvfp4). */
  xq: parseAsArrayOf(parseAsStringLiteral(KNOWN_QUANTIZATIONS)).withDefault([]),
  /** Endpoint tags excluded by hand. */
  xp: parseAsArrayOf(parseAsTag).withDefault([]),
  /** Endpoint tags included by hand, over the quantization rules. */
  ip: parseAsArrayOf(parseAsTag).withDefault([]),
  /** Whether "unknown" (or unreported) quantization counts as acceptable. */
  unk: parseAsStrictBoolean.withDefault(true),
  /** Minimum uptime in percent, and over which window. */
  upmin: parseAsPercent.withDefault(0),
  upw: parseAsStringLiteral(UPTIME_WINDOWS).withDefault("30m"),
  /** Status must be 0. */
  st0: parseAsStrictBoolean.withDefault(false),
  /**
   * Exclude endpoints OpenRouter marks degraded (status below 0). On by default, so a link or
   * saved view without `deg` (including those made before this rule existed) excludes them;
   * `deg=false` turns the rule off.
   */
  deg: parseAsStrictBoolean.withDefault(true),
  /** Exclude endpoints whose latest fidelity probe did not match the reference. */
  xprobe: parseAsStrictBoolean.withDefault(false),
  /**
   * Exclude endpoints whose latest probe verdict is `differs`. On by default (as `deg`), so a link
   * without it excludes them; `xdiff=false` turns it off.
   */
  xdiff: parseAsStrictBoolean.withDefault(true),
  /** Fail-closed: include only endpoints whose latest probe verdict is `equivalent`. */
  xverify: parseAsStrictBoolean.withDefault(false),
  /** Maximum input and output price, USD per million tokens. */
  maxin: parseAsAmount,
  maxout: parseAsAmount,
  sort: parseAsSort.withDefault({ column: "outputPricePerM", desc: false }),
  /** The `sort` of the exported routing preferences. */
  rsort: parseAsStringLiteral(ROUTING_SORTS).withDefault("price"),
  /** The provider table's shown columns, in any order (the table keeps its own order). */
  cols: parseAsArrayOf(parseAsStringLiteral(CHOOSABLE_COLUMNS)).withDefault(DEFAULT_COLUMNS),
  /** The range of the history charts. */
  hr: parseAsStringLiteral(RANGES).withDefault("24h"),
};


export type ComparisonState = inferParserType<typeof comparisonParsers>;

const ARRAY_ITEM_PARSERS: Partial<Record<keyof typeof comparisonParsers, { parse(v: string): unknown }>> = {
  xq: { parse: (v) => ((KNOWN_QUANTIZATIONS as readonly string[]).includes(v) ? v : null) },
  xp: parseAsTag,
  ip: parseAsTag,
  cols: { parse: (v) => ((CHOOSABLE_COLUMNS as readonly string[]).includes(v) ? v : null) },
};

export interface ReadResult<S> {
  state: S;
  /** "key=value" for each part of the link that could not be read and fell back to its default. */
  ignored: string[];
}

type RawParams = Record<string, string | string[] | undefined> | URLSearchParams;

function rawValue(params: RawParams, key: string): string | undefined {
  if (params instanceof URLSearchParams) return params.get(key) ?? undefined;
  const v = params[key];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Reads the comparison state from a link. Anything unreadable falls back to its default and is
 * listed in `ignored`, so the page can say which part of the link it did not understand.
 */
export function readComparisonState(params: RawParams): ReadResult<ComparisonState> {
  const ignored: string[] = [];
  const state: Record<string, unknown> = {};
  for (const [key, parser] of Object.entries(comparisonParsers)) {
    const raw = rawValue(params, key);
    const fallback = "defaultValue" in parser ? parser.defaultValue : null;
    if (raw === undefined) {
      state[key] = fallback;
      continue;
    }
    const itemParser = ARRAY_ITEM_PARSERS[key as keyof typeof comparisonParsers];
    if (itemParser) {
      const items = raw.split(",").filter((s) => s !== "");
      const good = items.filter((item) => itemParser.parse(item) !== null);
      if (good.length < items.length) ignored.push(`${key}=${items.filter((i) => !good.includes(i)).join(",")}`);
      state[key] = [...new Set(good)];
      continue;
    }
    const parsed = parser.parse(raw);
    if (parsed === null) {
      ignored.push(`${key}=${raw}`);
      state[key] = fallback;
    } else {
      state[key] = parsed;
    }
  }
  return { state: state as ComparisonState, ignored };
}

export function toRuleSet(state: ComparisonState): RuleSet {
  return {
    excludedQuantizations: state.xq,
    excludedTags: state.xp,
    includedTags: state.ip,
    acceptUnknown: state.unk,
    minUptime: state.upmin,
    uptimeWindow: state.upw,
    requireStatusZero: state.st0,
    excludeDegraded: state.deg,
    maxInputPricePerM: state.maxin,
    maxOutputPricePerM: state.maxout,
    ...(state.xprobe ? { excludeProbeMismatch: true } : {}),
    ...(state.xdiff ? {} : { excludeProbeDiffers: false }),
    ...(state.xverify ? { requireProbeEquivalent: true } : {}),
  };
}
