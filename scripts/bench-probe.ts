// `npm run bench:probe`: how often the fidelity probe's verdicts are right, against the true
// divergence of each endpoint, and what a default run costs. Writes bench/probe-results.md.
//
// Every run here is the probe's own code (planner, request bodies, sending order, answer reading,
// divergence, verdicts: lib/probe) against the replica's chat completions called in process
// (replica/probe-harness.ts → completeChat). The worlds the endpoints serve, and their true KL
// against the reference, come from replica/bench-worlds.ts.
import { writeFileSync } from "node:fs";
import os from "node:os";
import { BUILTIN_PROMPTS, defaultProbePrompts } from "../lib/probe/prompts";
import { probeSettingsFor } from "../lib/probe/settings";
import { benchEndpoints, benchVariants, kimiDefaultRun, type BenchVariant } from "../replica/bench-worlds";
import { runProbeInProcess } from "../replica/probe-harness";
import { wilson } from "../replica/bench-stats";

const MODEL = "moonshotai/kimi-k2.5";
const SEEDS = Number(process.env.BENCH_PROBE_SEEDS ?? 100);
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

type Tally = { equivalent: number; differs: number; "cannot tell": number; other: number; n: number; pAboveZero: number[]; estimates: number[] };
const variants = benchVariants(prompts, DELTA);
const tallies = new Map<string, Tally>(variants.map((v) => [v.name, { equivalent: 0, differs: 0, "cannot tell": 0, other: 0, n: 0, pAboveZero: [], estimates: [] }]));
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
      const verdict = result?.verdict ?? "missing";
      if (verdict === "equivalent" || verdict === "differs" || verdict === "cannot tell") t[verdict]++;
      else t.other++;
      if (result?.divergence) {
        t.pAboveZero.push(result.divergence.pValueAboveZero);
        t.estimates.push(result.divergence.klNats.estimate);
      }
    });
  }
  if (seed % 10 === 0) console.error(`seed ${seed}/${SEEDS}, ${Math.round((Date.now() - started) / 1000)} s`);
}

say("# Benchmark: the fidelity probe's verdicts against the true divergence, and the cost of a run");
say();
say(`Run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC with \`npm run bench:probe\` on ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, Node.js ${process.version}.`);
say(`Each run: the probe's own planner, requests, sending order and analysis (lib/probe) against the replica's chat completions in process`);
say(`(replica/probe-harness.ts). ${prompts.length} prompts (the default set: the built-in prompts without the long-context ones), the reference`);
say(`answers each prompt 2 + 2 times and each endpoint 2 times, ${16} greedy tokens with the top 20 logprobs at every position.`);
say(`Δ = ${nats(DELTA)} nats/token. ${SEEDS} seeds per variant. Rates with their Wilson 95% interval over the seeds.`);
say();
say(`World: ${slots.world}`);
say();
say("## Verdict rates per variant");
say();
say("The probe's KL is measured on the tokens listed on both sides plus a remainder bucket per side: a coarsening of the vocabulary, so");
say("its expectation is at most the full-vocabulary KL. The mean estimate column shows how much of the true KL it sees.");
say();
say("| variant | true KL (nats/token) | true KL / Δ | mean estimate | equivalent | cannot tell | differs | other |");
say("| --- | --- | --- | --- | --- | --- | --- | --- |");
for (const v of variants) {
  const t = tallies.get(v.name) as Tally;
  const m = t.estimates.reduce((a, b) => a + b, 0) / Math.max(1, t.estimates.length);
  say(`| ${v.name} | ${nats(v.trueKlNats)} | ${(v.trueKlNats / DELTA).toFixed(2)} | ${nats(m)} | ${pct(t.equivalent, t.n)} | ${pct(t["cannot tell"], t.n)} | ${pct(t.differs, t.n)} | ${t.other} |`);
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
say("```");
say("true KL/Δ   equivalent (E)                 differs (D)                    cannot tell (?)");
const bar = (r: number) => `${"#".repeat(Math.round(r * 25)).padEnd(25)} ${(100 * r).toFixed(0).padStart(3)}%`;
for (const v of [...variants].sort((a, b) => a.trueKlNats - b.trueKlNats)) {
  const t = tallies.get(v.name) as Tally;
  say(`${(v.trueKlNats / DELTA).toFixed(2).padStart(8)}   E ${bar(t.equivalent / t.n)}  D ${bar(t.differs / t.n)}  ? ${bar(t["cannot tell"] / t.n)}   ${v.name}`);
}
say("```");
say();
say("## Null calibration: the p-value of \"KL ≤ 0\" on endpoints that serve the reference's own weights");
say();
say("Under a correct bias correction these p-values are uniform whatever each side's nondeterminism. Kolmogorov-Smirnov distance to the");
say("uniform distribution, and the share below 0.05 and 0.01:");
say();
say("| variant | runs | KS D | KS 99% critical value | p < 0.05 | p < 0.01 |");
say("| --- | --- | --- | --- | --- | --- |");
for (const v of variants.filter((x) => x.sameWeights)) {
  const p = (tallies.get(v.name) as Tally).pAboveZero;
  const sorted = [...p].sort((a, b) => a - b);
  const ks = sorted.reduce((d, x, i) => Math.max(d, Math.abs(x - i / sorted.length), Math.abs(x - (i + 1) / sorted.length)), 0);
  say(`| ${v.name} | ${p.length} | ${ks.toFixed(3)} | ${(1.628 / Math.sqrt(p.length)).toFixed(3)} | ${pct(p.filter((x) => x < 0.05).length, p.length)} | ${pct(p.filter((x) => x < 0.01).length, p.length)} |`);
}
say();
say("## A default run over Kimi K2.5's endpoints");
say();
const t0 = Date.now();
const run = kimiDefaultRun(prompts, settings);
const elapsed = (Date.now() - t0) / 1000;
say(`${run.endpoints} endpoints besides the reference, ${prompts.length} prompts (of the ${BUILTIN_PROMPTS.length} built-in; the long-context ones are left out of the default),`);
say(`${run.requests} requests, $${run.costUsd} at the replica's recorded Kimi K2.5 prices; ${elapsed.toFixed(1)} s in process (the runner's pacing, 4`);
say(`requests in flight per provider, over HTTP to the local replica is measured in tests/integration/probe-runner.test.ts).`);
say();
say("| endpoint | verdict | reason |");
say("| --- | --- | --- |");
for (const r of run.results) say(`| ${r.tag} | ${r.verdict} | ${r.reason.replace(/\|/g, "\\|")} |`);
say();
say(`Took ${Math.round((Date.now() - started) / 1000)} s.`);
writeFileSync("bench/probe-results.md", lines.join("\n") + "\n");
console.log("\nwrote bench/probe-results.md");
