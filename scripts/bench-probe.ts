// `npm run bench:probe`: how often the fidelity probe's verdicts are right, against the true
// divergence of each endpoint, and what a default run costs. Writes bench/probe-results.md.
//
// Every run here is the probe's own code (planner, request bodies, sending order, answer reading,
// divergence, verdicts: lib/probe) against the replica's chat completions called in process
// (replica/probe-harness.ts → completeChat). The worlds the endpoints serve, and their true KL
// against the reference, come from replica/bench-worlds.ts.
import { writeFileSync } from "node:fs";
import os from "node:os";
import { defaultProbePrompts } from "../lib/probe/prompts";
import type { Interval } from "../lib/probe/divergence";
import { computeResults } from "../lib/probe/results";
import { DRAFT_TOKENS, ON_POLICY_CUTS, ON_POLICY_READ_TOKENS } from "../lib/probe/methods/on-policy";
import { probeSettingsFor } from "../lib/probe/settings";
import { benchEndpoints, benchVariants, kimiDefaultRun, type BenchVariant } from "../replica/bench-worlds";
import { runProbeInProcess } from "../replica/probe-harness";
import { wilson } from "../replica/bench-stats";

const MODEL = "moonshotai/kimi-k2.5";
const SEEDS = Number(process.env.BENCH_PROBE_SEEDS ?? 100);
/** Runs per variant for the operating curve (each decided again at 12 margins). */
const CURVE_SEEDS = Number(process.env.BENCH_PROBE_CURVE_SEEDS ?? 50);
const settings = probeSettingsFor(MODEL);
const DELTA = settings.deltaNats;
const prompts = defaultProbePrompts();

const started = Date.now();
const lines: string[] = [];
const say = (line = "") => {
  lines.push(line);
  console.log(line);
};
const pct = (k: number, n: number) => {
  const [lo, hi] = wilson(k, n);
  return `${((100 * k) / n).toFixed(1)}% [${(100 * lo).toFixed(1)}, ${(100 * hi).toFixed(1)}]`;
};
const nats = (v: number) => (v === 0 ? "0" : Math.abs(v) >= 0.01 ? v.toFixed(3) : v.toExponential(1));

type Tally = { equivalent: number; differs: number; "cannot tell": number; other: number; n: number; pAboveZero: number[]; estimates: number[]; intervals: Interval[]; detectable: number[]; positions: number[]; onPolicy: number[]; aa: number[]; looks: number[]; sent: number; planned: number };
const variants = benchVariants();
console.error(`true KL of ${variants.length} variants in ${Math.round((Date.now() - started) / 1000)} s`);
const tallies = new Map<string, Tally>(variants.map((v) => [v.name, { equivalent: 0, differs: 0, "cannot tell": 0, other: 0, n: 0, pAboveZero: [], estimates: [], intervals: [], detectable: [], positions: [], onPolicy: [], aa: [], looks: [], sent: 0, planned: 0 }]));
const slots = benchEndpoints();

// Variants go into runs as many at a time as the replica has logprob-capable endpoint slots; each
// variant's verdict is read on its own (the runs share the reference's answers, so verdicts of one
// seed are correlated across variants, never within one variant's rate).
const groups: BenchVariant[][] = [];
for (let i = 0; i < variants.length; i += slots.endpoints.length) groups.push(variants.slice(i, i + slots.endpoints.length));
for (let seed = 1; seed <= SEEDS; seed++) {
  for (const [g, group] of groups.entries()) {
    const { state, endpoints } = slots.assign(group);
    const out = runProbeInProcess({ modelId: MODEL, prompts, reference: slots.reference, endpoints, state, seed: seed * 101 + g, deltaNats: DELTA, sampler: settings.sampler });
    group.forEach((v, i) => {
      const result = out.results.find((r) => r.tag === endpoints[i].tag);
      const t = tallies.get(v.name) as Tally;
      t.n++;
      // The endpoint's own requests: sent, of the 2 per prompt and per cut planned.
      t.sent += out.answers.filter((a) => a.tag === endpoints[i].tag).length;
      t.planned += 2 * (1 + ON_POLICY_CUTS) * prompts.length;
      const verdict = result?.verdict ?? "missing";
      if (verdict === "equivalent" || verdict === "differs" || verdict === "cannot tell") t[verdict]++;
      else t.other++;
      if (result?.divergence) {
        t.pAboveZero.push(result.divergence.pValueAboveZero);
        t.estimates.push(result.divergence.klNats.estimate);
        t.intervals.push(result.divergence.klNats);
        t.detectable.push(result.divergence.detectableNats);
        t.positions.push(result.divergence.positions);
        t.onPolicy.push(result.divergence.onPolicyPositions ?? 0);
        t.aa.push(result.divergence.aaKlNats.estimate);
        t.looks.push(result.divergence.look?.at ?? 1);
      }
    });
  }
  if (seed % 10 === 0) console.error(`seed ${seed}/${SEEDS}, ${Math.round((Date.now() - started) / 1000)} s`);
}

say("# Benchmark: the fidelity probe's verdicts against the true divergence, and the cost of a run");
say();
say(`Run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC with \`npm run bench:probe\` on ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, Node.js ${process.version}.`);
say(`Each run: the probe's own planner, requests, sending order and analysis (lib/probe) against the replica's chat completions in process`);
say(`(replica/probe-harness.ts). ${prompts.length} prompts (the default set: the built-in short prompts), the reference`);
say(`answers each prompt 2 + 2 times and each endpoint 2 times, ${16} greedy tokens with the top 20 logprobs at every position; then the reference samples`);
say(`a continuation of ${DRAFT_TOKENS} tokens at the model's sampler, and the same replicates read ${ON_POLICY_READ_TOKENS} greedy tokens after its first half, prefilled (on-policy positions).`);
say(`Δ = ${nats(DELTA)} nats/token. ${SEEDS} seeds per variant. Rates with their Wilson 95% interval over the seeds.`);
say(`Sequential design (lib/probe/sequential.ts): the prompts in three random waves of 14, 14 and 13; after each wave an endpoint whose`);
say(`interval clears Δ is decided (two-sided α 0.002, 0.008, 0.04 by look) and its later requests are not sent.`);
say();
say(`World: ${slots.world}`);
say();
say("## Verdict rates per variant");
say();
say("Per-variant columns: mean of the run's KL estimates (at the look that decided), median detectable divergence (80% power, at the last look's level; runs that promise none counted apart),");
say("mean aligned positions per run (of them on-policy: read after the reference's sampled continuation), mean A/A, the share of runs decided at looks 1/2/3, and the share of the endpoint's planned requests that were sent.");
say("The probe's KL is measured on the tokens listed on both sides plus a remainder bucket per side: a coarsening of the vocabulary, so");
say("its expectation is at most the full-vocabulary KL. The mean estimate column shows how much of the true KL it sees.");
say();
say("| variant | true KL (nats/token) | true KL / Δ | mean estimate | detectable | positions (on-policy) | A/A | looks 1/2/3 | sent | equivalent | cannot tell | differs | other |");
say("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
for (const v of variants) {
  const t = tallies.get(v.name) as Tally;
  const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const detectable = (xs: number[]) => {
    const finite = xs.filter(Number.isFinite).sort((a, b) => a - b);
    const none = xs.length - finite.length;
    const median = finite.length ? nats(finite[Math.floor(finite.length / 2)]) : "—";
    return none ? `${median} (${none} none)` : median;
  };
  say(`| ${v.name} | ${nats(v.trueKlNats)} | ${(v.trueKlNats / DELTA).toFixed(2)} | ${nats(avg(t.estimates))} | ${detectable(t.detectable)} | ${avg(t.positions).toFixed(0)} (${avg(t.onPolicy).toFixed(0)}) | ${nats(avg(t.aa))} | ${[1, 2, 3].map((l) => `${Math.round((100 * t.looks.filter((x) => x === l).length) / Math.max(1, t.looks.length))}%`).join(" / ")} | ${Math.round((100 * t.sent) / Math.max(1, t.planned))}% | ${pct(t.equivalent, t.n)} | ${pct(t["cannot tell"], t.n)} | ${pct(t.differs, t.n)} | ${t.other} |`);
}
say();
say("## Acceptance");
say();
const benign = variants.filter((v) => v.trueKlNats <= DELTA / 4);
const far = variants.filter((v) => v.trueKlNats >= 2 * DELTA);
const sum = (vs: BenchVariant[], key: "equivalent" | "differs") => vs.reduce((s, v) => s + (tallies.get(v.name) as Tally)[key], 0);
const count = (vs: BenchVariant[]) => vs.reduce((s, v) => s + (tallies.get(v.name) as Tally).n, 0);
say(`- benign variants (true KL ≤ Δ/4; ${benign.length} variants, ${count(benign)} runs): equivalent ${pct(sum(benign, "equivalent"), count(benign))} (needs ≥ 95%), differs ${pct(sum(benign, "differs"), count(benign))} (needs ≤ 1%)`);
say(`- far variants (true KL ≥ 2Δ; ${far.length} variants, ${count(far)} runs): differs ${pct(sum(far, "differs"), count(far))} (needs ≥ 90%)`);
for (const v of [...benign, ...far]) {
  const t = tallies.get(v.name) as Tally;
  const ok = v.trueKlNats <= DELTA / 4 ? t.equivalent / t.n >= 0.95 && t.differs / t.n <= 0.01 : t.differs / t.n >= 0.9;
  if (!ok) say(`  - NOT MET for ${v.name}`);
}
say();
say("## Operating curve: probability of each verdict against the true KL in multiples of Δ");
say();
say("For the variants whose true KL is between Δ/4 and 5Δ at the default (W8A8, FP8 E4M3): runs that send every planned request (the");
say("waves' order kept), each decided again by the probe's own analysis, looks included, at Δ' = true KL / r for each ratio r. The");
say("sequential rule at Δ' reads only the answers of the waves up to each look, which are the same whether later ones were sent, so");
say(`this is what a run at Δ' decides. ${CURVE_SEEDS} runs per variant; per ratio the variants pooled; E equivalent, D differs, ? cannot tell.`);
say();
say("```");
const bar = (r: number) => `${"#".repeat(Math.round(r * 30)).padEnd(30)} ${(100 * r).toFixed(0).padStart(3)}%`;
const curveVariants = variants.filter((v) => v.trueKlNats > DELTA / 4 && v.trueKlNats < 5 * DELTA);
const RATIOS = [0.1, 0.25, 0.5, 0.75, 0.9, 1, 1.1, 1.25, 1.5, 2, 3, 5];
const curve = new Map(RATIOS.map((r) => [r, { equivalent: 0, differs: 0, "cannot tell": 0, other: 0, n: 0 }]));
for (let seed = 1; seed <= CURVE_SEEDS && curveVariants.length > 0; seed++) {
  const { state, endpoints } = slots.assign(curveVariants);
  const out = runProbeInProcess({ modelId: MODEL, prompts, reference: slots.reference, endpoints, state, seed: seed * 101 + 77, deltaNats: DELTA, sampler: settings.sampler, stopEarly: false });
  curveVariants.forEach((v, i) => {
    const tag = endpoints[i].tag;
    const own = out.answers.filter((a) => a.tag === tag || a.tag === slots.reference.tag);
    for (const r of RATIOS) {
      const verdict = computeResults({ ...out.facts, endpoints: out.facts.endpoints.filter((e) => e.tag === tag), deltaNats: v.trueKlNats / r }, own).find((x) => x.tag === tag)?.verdict;
      const c = curve.get(r) as { equivalent: number; differs: number; "cannot tell": number; other: number; n: number };
      c.n++;
      if (verdict === "equivalent" || verdict === "differs" || verdict === "cannot tell") c[verdict]++;
      else c.other++;
    }
  });
}
for (const r of RATIOS) {
  const { n, ...counts } = curve.get(r) as { equivalent: number; differs: number; "cannot tell": number; other: number; n: number };
  if (n === 0) continue;
  say(`KL = ${r.toFixed(2).padStart(4)}Δ  E ${bar(counts.equivalent / n)}  D ${bar(counts.differs / n)}  ? ${bar(counts["cannot tell"] / n)}  (${n} runs)`);
}
say("```");
say();
say("## Null calibration: the p-value of \"KL ≤ 0\" on endpoints that serve the reference's own weights");
say();
say("Where the true KL is 0 these p-values are uniform under a correct bias correction; where the numerics move the expected distribution");
say("a little (bf16 activations: about 1e-5) they lean towards 0, which is right, and a KS distance says how much. Kolmogorov-Smirnov");
say("distance to the uniform distribution, and the share below 0.05 and 0.01:");
say();
say("| variant | true KL | runs | KS D | KS 99% critical value | p < 0.05 | p < 0.01 |");
say("| --- | --- | --- | --- | --- | --- | --- |");
for (const v of variants.filter((x) => x.sameWeights)) {
  const p = (tallies.get(v.name) as Tally).pAboveZero;
  const sorted = [...p].sort((a, b) => a - b);
  const ks = sorted.reduce((d, x, i) => Math.max(d, Math.abs(x - i / sorted.length), Math.abs(x - (i + 1) / sorted.length)), 0);
  say(`| ${v.name} | ${nats(v.trueKlNats)} | ${p.length} | ${ks.toFixed(3)} | ${(1.628 / Math.sqrt(p.length)).toFixed(3)} | ${pct(p.filter((x) => x < 0.05).length, p.length)} | ${pct(p.filter((x) => x < 0.01).length, p.length)} |`);
}
say();
say("## A default run over Kimi K2.5's endpoints");
say();
const t0 = Date.now();
const run = kimiDefaultRun(prompts, settings);
const elapsed = (Date.now() - t0) / 1000;
say(`The reference and ${run.endpoints} other endpoints (all 11 the replica records, each with its recorded behaviour), ${prompts.length} prompts (the built-in set),`);
say(`${run.requests} requests sent of the ${run.requests + run.skipped} planned (the rest decided at an early look), $${run.costUsd} at the replica's recorded Kimi K2.5 prices;`);
say(`${elapsed.toFixed(1)} s of computing in process. Over HTTP the runner`);
say(`keeps 2 requests in flight per provider (11 providers); at the replica's speed the run is bound by this computing, not by pacing.`);
say();
say("| endpoint | verdict | reason |");
say("| --- | --- | --- |");
for (const r of run.results) say(`| ${r.tag} | ${r.verdict} | ${r.reason.replace(/\|/g, "\\|")} |`);
say();
say(`Took ${Math.round((Date.now() - started) / 1000)} s.`);
writeFileSync("bench/probe-results.md", lines.join("\n") + "\n");
console.log("\nwrote bench/probe-results.md");
