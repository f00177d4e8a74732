// Every view of the comparison that the browser tests build, by link or by clicks, as the query
// string of the model page (`/models/{model}?{query}`). routing-judge.spec.ts sends chat requests
// with each view's exported `provider` object to the replica, whose router (replica/routing.ts)
// follows OpenRouter's documentation and shares no code with the export, and checks that they
// reach exactly the endpoints the view includes. That spec also reads the spec files and fails
// when one of them links to a view this list lacks: add it here (with the spec that builds it).

export interface BuiltView {
  model: string;
  query: string;
  /** The specs that build this view. */
  builtBy: string[];
  /** What GET /api/models/{model}/routing?{query} answers: an export, a link it cannot read, or nothing included. */
  routing: 200 | 400 | 422;
}

const KIMI = "moonshotai/kimi-k2.5";
const FOUR_BIT = "xq=int4,fp4,mxfp4,nvfp4";

export const BUILT_VIEWS: BuiltView[] = [
  { model: KIMI, query: "", builtBy: ["comparison", "fit", "home", "keyboard", "live-snapshot", "probe", "rules-defaults", "trust", "accessibility"], routing: 200 },
  { model: KIMI, query: "deg=false", builtBy: ["history", "rules-defaults"], routing: 200 },
  { model: KIMI, query: "xq=fp8", builtBy: ["rules-defaults"], routing: 200 },
  { model: KIMI, query: "xq=fp32", builtBy: ["keyboard (by keys)"], routing: 200 },
  { model: KIMI, query: "xq=int4", builtBy: ["bad-input", "shared-pages", "rules-defaults (saved views)"], routing: 200 },
  { model: KIMI, query: "xq=int4&upmin=95", builtBy: ["accessibility (saved view)"], routing: 200 },
  { model: KIMI, query: FOUR_BIT, builtBy: ["comparison", "fit"], routing: 200 },
  { model: KIMI, query: `${FOUR_BIT}&cols=quantization,outputPricePerM,uptime1d`, builtBy: ["fit"], routing: 200 },
  { model: KIMI, query: `${FOUR_BIT}&ip=chutes/int4`, builtBy: ["comparison (Include Chutes)"], routing: 200 },
  { model: KIMI, query: `${FOUR_BIT}&xp=fireworks`, builtBy: ["fit (Exclude Fireworks)"], routing: 200 },
  { model: KIMI, query: `${FOUR_BIT}&xp=fireworks&upmin=95`, builtBy: ["comparison (by clicks)", "home", "budget", "accessibility", "rules-defaults"], routing: 200 },
  { model: KIMI, query: `${FOUR_BIT}&xp=fireworks&upmin=95&budget=100`, builtBy: ["budget"], routing: 200 },
  { model: KIMI, query: `${FOUR_BIT}&xp=fireworks&upmin=97&hr=7d`, builtBy: ["history"], routing: 200 },
  { model: KIMI, query: "budget=250", builtBy: ["budget"], routing: 200 },
  { model: KIMI, query: "xprobe=true", builtBy: ["probe"], routing: 200 },
  { model: KIMI, query: "xp=deepinfra", builtBy: ["provenance (the pipelines' saved views)"], routing: 200 },
  { model: KIMI, query: "cols=tag,quantization,inputPricePerM,outputPricePerM,uptime30m,latencyP50Ms", builtBy: ["accessibility"], routing: 200 },
  { model: KIMI, query: "cols=tag,quantization,inputPricePerM,outputPricePerM,cacheReadPricePerM,status,uptime5m,uptime30m,uptime1d,latencyP50Ms,throughputP50,contextLength,maxCompletionTokens", builtBy: ["fit"], routing: 200 },
  { model: KIMI, query: "sort=inputPricePerM.asc", builtBy: ["comparison (column sort)"], routing: 200 },
  // The routing sort: no browser test changes it; here so that `sort` in the export is judged too.
  { model: KIMI, query: "rsort=throughput", builtBy: [], routing: 200 },
  { model: KIMI, query: "rsort=latency", builtBy: [], routing: 200 },
  { model: KIMI, query: "rsort=none", builtBy: [], routing: 200 },
  // Links the routing API refuses: nothing to send.
  { model: KIMI, query: `${FOUR_BIT}&unk=false`, builtBy: ["rules-defaults"], routing: 422 },
  { model: KIMI, query: "upmin=100", builtBy: ["bad-input"], routing: 422 },
  { model: KIMI, query: "deg=ture", builtBy: ["rules-defaults"], routing: 400 },
  { model: KIMI, query: "xq=int4,bogus&upmin=abc", builtBy: ["bad-input"], routing: 400 },
  { model: KIMI, query: "upw=7h&xq=int4,bogus&upmin=abc&sort=nope.asc&maxin=-3", builtBy: ["comparison"], routing: 400 },
];
