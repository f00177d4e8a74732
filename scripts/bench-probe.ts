// `npm run bench:probe`: how often the fidelity probe is right, and what a run costs, for a grid
// of perturbation sizes and prompt counts. Writes bench/probe-results.md.
//
// Error rates: the probe's statistics on answers drawn from the replica's language model
// (replica/language-model.ts, the code behind the replica's /chat/completions), in process rather
// than over HTTP so that hundreds of runs per cell take minutes. A "perturbation" is the standard
// deviation of a fixed noise added to the model's logits (a re-quantized copy); 0 is a faithful
// endpoint, so its detection rate is the false-positive rate. Level 0.01, one endpoint per run.
//
// Cost: the planner's requests, tokens and dollars for a run of the first N built-in prompts over
// Kimi K2.5's default endpoints (the 9 with status 0 besides the reference, 2 of them without
// logprobs) at the prices the replica records for Kimi K2.5.
import { writeFileSync } from "node:fs";
import os from "node:os";
import Decimal from "decimal.js";
import { FAITHFUL } from "../replica/language-model";
import { chatBehaviour } from "../replica/chat";
import { kimiK25 } from "../replica/data/kimi-k2.5";
import { planProbe, estimatePromptTokens, type PlanEndpoint } from "../lib/probe/plan";
import { BUILTIN_PROMPTS } from "../lib/probe/prompts";
import { perturbed, simulateLogprobsTest, simulateSamplesTest } from "../replica/probe-simulation";

const ALPHA = 0.01;
const PROMPT_COUNTS = [10, 20, 40];
const LOGPROB_SIZES = [0, 0.05, 0.1, 0.15, 0.2, 0.3];
const SAMPLE_SIZES = [0, 0.5, 1, 2];
const LOGPROB_SEEDS = Number(process.env.BENCH_PROBE_SEEDS ?? 200);
const SAMPLE_SEEDS = Number(process.env.BENCH_PROBE_SAMPLE_SEEDS ?? 30);

function rate(seeds: number, rejects: (seed: number) => boolean): number {
  let count = 0;
  for (let seed = 1; seed <= seeds; seed++) if (rejects(seed)) count++;
  return count / seeds;
}

const pct = (r: number) => `${(100 * r).toFixed(1)}%`;
const started = Date.now();
const lines: string[] = [];
const say = (line = "") => {
  lines.push(line);
  console.log(line);
};

say("# Benchmark: the fidelity probe's error rates and cost per run");
say();
say(`Run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC with \`npm run bench:probe\` on ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, Node.js ${process.version}.`);
say("Answers come from the replica's language model (the code behind the replica's chat completions), simulated in process; the");
say("statistics, the seeds and the level (0.01, one endpoint per run) are the ones a real run uses. A perturbation is the standard");
say("deviation of a fixed noise added to the model's logits (the replica's re-quantized endpoints: Fireworks 0.3, BaseTen 0.6, Venice 3);");
say("every call also has run-to-run logit noise of sd 0.05. Perturbation 0 is a faithful endpoint: its row is the false-positive rate.");
say();
say(`## Logprobs path (top-20 next-token distributions, paired sign-flip test, ${LOGPROB_SEEDS} seeds per cell)`);
say();
say(`| perturbation | ${PROMPT_COUNTS.map((n) => `${n} prompts`).join(" | ")} |`);
say(`| --- | ${PROMPT_COUNTS.map(() => "---").join(" | ")} |`);
for (const size of LOGPROB_SIZES) {
  const variant = size === 0 ? FAITHFUL : perturbed(size);
  const cells = PROMPT_COUNTS.map((n) => pct(rate(LOGPROB_SEEDS, (seed) => simulateLogprobsTest(seed, n, variant, 999).pValue < ALPHA)));
  say(`| ${size === 0 ? "0 (false positives)" : size} | ${cells.join(" | ")} |`);
}
say();
say(`## Samples path (6 completions of 8 tokens per prompt and side, MMD, prefix kernel, ${SAMPLE_SEEDS} seeds per cell)`);
say();
say(`| perturbation | ${PROMPT_COUNTS.map((n) => `${n} prompts`).join(" | ")} |`);
say(`| --- | ${PROMPT_COUNTS.map(() => "---").join(" | ")} |`);
for (const size of SAMPLE_SIZES) {
  const variant = size === 0 ? FAITHFUL : perturbed(size);
  const cells = PROMPT_COUNTS.map((n) =>
    pct(rate(SAMPLE_SEEDS, (seed) => simulateSamplesTest(seed, n, variant, { samples: 6, maxTokens: 8, permutations: 199 }).pValue < ALPHA)),
  );
  say(`| ${size === 0 ? "0 (false positives)" : size} | ${cells.join(" | ")} |`);
}

say();
say("## Requests, tokens and dollars per run");
say();
say("Kimi K2.5's default endpoints (9 besides the reference `moonshotai/int4`; SiliconFlow and Venice without logprobs, so by samples),");
say("the first N built-in prompts (the set is ordered by category: code, maths, chat, multilingual, long context; so small N covers\nonly code and maths, and the six long-context prompts make most of the 41's cost), estimated");
say("prompt tokens (about four characters a token plus the template's), at the replica's recorded Kimi K2.5 prices. The worst case");
say("(every prompt byte a token) is what the cost cap is checked against.");
say();
say("| prompts | requests | prompt tokens | completion tokens | estimate | worst case |");
say("| --- | --- | --- | --- | --- | --- |");
const perToken = (perM: string) => perM;
const endpoints: PlanEndpoint[] = kimiK25.providers
  .filter((p) => p.status === 0)
  .map((p) => ({ tag: p.tag, provider: p.provider, inputPricePerM: perToken(p.inputPerM), outputPricePerM: perToken(p.outputPerM), supportsLogprobs: chatBehaviour(p.tag).logprobs }));
const reference = endpoints.find((e) => e.tag === "moonshotai/int4") as PlanEndpoint;
for (const n of [...PROMPT_COUNTS, BUILTIN_PROMPTS.length]) {
  const prompts = BUILTIN_PROMPTS.slice(0, n);
  const plan = planProbe(prompts, reference, endpoints.filter((e) => e !== reference));
  const promptTokens = plan.requests.reduce((s, r) => s + estimatePromptTokens(prompts[r.promptIndex].messages), 0);
  const completionTokens = plan.requests.reduce((s, r) => s + r.maxTokens, 0);
  const worst = plan.requests.reduce((s, r) => s.plus(r.worstCaseUsd), new Decimal(0));
  say(`| ${n} | ${plan.requests.length} | ${promptTokens} | ${completionTokens} | $${plan.estimateUsd.toFixed(4)} | $${worst.toFixed(4)} |`);
}
say();
say(`Took ${Math.round((Date.now() - started) / 1000)} s.`);
writeFileSync("bench/probe-results.md", lines.join("\n") + "\n");
console.log("\nwrote bench/probe-results.md");
