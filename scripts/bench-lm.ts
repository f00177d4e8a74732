import { cpus } from "node:os";
import { loadavg } from "node:os";
import { BENCH_VARIANTS, KIMI_K25_SAMPLER, PLAIN_SAMPLER, REFERENCE, forward, loadFloatWeights, networkFor, renderChat, trueKl } from "../replica/lm";

// npm run bench:lm: the true divergence of every endpoint variant of the replica's network from
// the reference (the released INT4-g32 weights), at Kimi K2.5's documented sampler and at the
// model's own distribution, printed as the table committed in bench/lm-variants.md.

const { header } = loadFloatWeights();
const started = Date.now();

// Forward-pass cost (uncached; cleanLogits memoises by context window), for the bench's budget.
const tokens = renderChat([{ role: "user", content: "Permission is hereby granted, free of charge, to any person" }]);
const reps = 2000;
const t0 = process.hrtime.bigint();
const net = networkFor(REFERENCE.weights);
for (let i = 0; i < reps; i++) forward(net, tokens, REFERENCE);
const microsPerForward = Number(process.hrtime.bigint() - t0) / 1000 / reps;

const fmt = (x: number) => (x === 0 ? "0" : x < 1e-4 ? x.toExponential(1) : x.toPrecision(2));
const rows: string[] = [];
for (const v of BENCH_VARIANTS) {
  const atSampler = trueKl(v, REFERENCE, KIMI_K25_SAMPLER);
  const plain = trueKl(v, REFERENCE, PLAIN_SAMPLER);
  rows.push(
    `| ${v.name} | ${v.weights} | ${v.activations} | ${v.summation} | ${v.nondeterminism.sd}${v.nondeterminism.coBatchWindowMs ? `, co-batch ${v.nondeterminism.coBatchWindowMs} ms` : ""}${v.nondeterminism.jumpRate ? `, jumps ${v.nondeterminism.jumpRate} × ${v.nondeterminism.jumpSd}` : ""} | ${fmt(plain.klHeldOutNats)} | ${fmt(plain.klOnPolicyNats)} | ${fmt(atSampler.klNats)} | ${fmt(atSampler.tv)} | ${(100 * atSampler.top1Agreement).toFixed(1)}% |`,
  );
  if (v === REFERENCE) rows.push(`<!-- reference entropy: ${plain.referenceEntropyNats.toFixed(3)} nats/token at T=1; positions ${plain.positions} -->`);
}

const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? "CPU"}, Node.js ${process.version}`;
console.log(`# The replica's network: true divergence of each endpoint variant from the reference

Run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC with \`npm run bench:lm\` on ${machine}.

The network (\`replica/lm\`): a character-level MLP language model, ${header.vocab} tokens, the last ${header.context} tokens'
embeddings (${header.embed} each) → ${header.hidden} ReLU units → logits; trained by \`npm run lm:train\` (${header.epochs} epochs) on
licence texts shipped in node_modules (corpus sha256 ${header.corpusSha256.slice(0, 12)}…): ${header.trainLossNats} nats/token on
the training text, ${header.heldOutLossNats} held out. One uncached forward pass: ${microsPerForward.toFixed(1)} µs (load average ${loadavg()[0].toFixed(1)} on this
shared machine while measuring; the replica memoises logits per context window and numerics).

The reference serves the released INT4-g32 weights with float32 activations and sequential float32 sums,
deterministically. Re-quantized variants convert that release (the dequantized INT4-g32 weights) to their format;
float32 is the unquantized training weights. KL is KL(reference ‖ variant) per token, in nats, between expected
next-token distributions (nondeterministic variants: the average of 16 noise draws per position), over 600 held-out
text positions and 600 on-policy positions (the reference's own samples at Kimi K2.5's sampler, temperature 1.0,
top_p 0.95, from held-out prompts). "At T=1" is the model's own distribution; "at the sampler" is KL at
temperature 1.0 (before truncation) over both position sets, TV between the top-p-truncated distributions actually
sampled from. Top-1: positions whose most likely token is the reference's.

| variant | weights | activations | sums | noise sd | KL held-out, T=1 | KL on-policy, T=1 | KL at the sampler | TV at the sampler | top-1 |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join("\n")}

(${((Date.now() - started) / 1000).toFixed(0)} s.)`);
