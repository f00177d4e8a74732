import {
  createParser,
  parseAsArrayOf,
  parseAsBoolean,
  parseAsFloat,
  parseAsStringLiteral,
} from "nuqs/server";
import { KNOWN_QUANTIZATIONS } from "../openrouter/schemas";

// The comparison page's URL state: rules, thresholds and sort. Parsed by the server (page,
// routing API) and the client (nuqs hooks) from this one definition, so a link reproduces a view.

export const UPTIME_WINDOWS = ["5m", "30m", "1d"] as const;
export type UptimeWindow = (typeof UPTIME_WINDOWS)[number];

export const ROUTING_SORTS = ["price", "throughput", "latency", "none"] as const;
export type RoutingSort = (typeof ROUTING_SORTS)[number];

export const SORTABLE_COLUMNS = [
  "provider", "tag", "quantization", "inputPricePerM", "outputPricePerM", "cacheReadPricePerM", "status",
  "uptime5m", "uptime30m", "uptime1d", "latencyP50Ms", "throughputP50", "contextLength", "maxCompletionTokens",
  "verdict",
] as const;
export type SortColumn = (typeof SORTABLE_COLUMNS)[number];

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
  unk: parseAsBoolean.withDefault(true),
  /** Minimum uptime in percent, and over which window. */
  upmin: parseAsFloat.withDefault(0),
  upw: parseAsStringLiteral(UPTIME_WINDOWS).withDefault("30m"),
  /** Status must be 0. */
  st0: parseAsBoolean.withDefault(false),
  /** Maximum input and output price, USD per million tokens. */
  maxin: parseAsAmount,
  maxout: parseAsAmount,
  sort: parseAsSort.withDefault({ column: "outputPricePerM", desc: false }),
  /** The `sort` of the exported routing preferences. */
  rsort: parseAsStringLiteral(ROUTING_SORTS).withDefault("price"),
};

