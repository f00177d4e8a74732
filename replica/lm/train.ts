import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { normal, seededRandom } from "../../lib/probe/random";
import { loadCorpus } from "./corpus";
import { CONTEXT, EMBED, encodeWeights, HIDDEN, INPUT, WEIGHTS_URL, type FloatWeights } from "./network";
import { SPECIAL, VOCAB_SIZE } from "./vocab";

// Trains the replica's network and writes replica/lm/weights.bin: `npm run lm:train`.
// Deterministic: a seeded initialisation, a seeded order of examples, plain float64 arithmetic
// (the same on every x64 machine with the same Node), Adam with a cosine learning rate.

const EPOCHS = Number(process.env.LM_EPOCHS ?? 6);
const BATCH = 32;
const LR = 3e-3;
const WEIGHT_DECAY = 1e-5;

interface Examples {
  tokens: number[];
  /** Index of the conversation start (<|bos|>) for each position. */
  starts: Int32Array;
}

function examplesOf(tokens: number[]): Examples {
  const starts = new Int32Array(tokens.length);
  let start = 0;
  tokens.forEach((t, i) => {
    if (t === SPECIAL.bos) start = i;
    starts[i] = start;
  });
  return { tokens, starts };
}

function contextAt(ex: Examples, i: number, out: Int32Array) {
  for (let k = 0; k < CONTEXT; k++) {
    const j = i - CONTEXT + k;
    out[k] = j >= ex.starts[i] ? ex.tokens[j] : SPECIAL.bos;
  }
}

type Params = { [K in keyof FloatWeights]: Float64Array };

function init(random: () => number): Params {
  const gauss = (n: number, sd: number) => Float64Array.from({ length: n }, () => sd * normal(random));
  return {
    embeddings: gauss(VOCAB_SIZE * EMBED, 0.5),
    w1: gauss(HIDDEN * INPUT, Math.sqrt(2 / INPUT)),
    b1: new Float64Array(HIDDEN),
    w2: gauss(VOCAB_SIZE * HIDDEN, Math.sqrt(1 / HIDDEN)),
    b2: new Float64Array(VOCAB_SIZE),
  };
}

const KEYS: Array<keyof FloatWeights> = ["embeddings", "w1", "b1", "w2", "b2"];
const zerosLike = (p: Params): Params => Object.fromEntries(KEYS.map((k) => [k, new Float64Array(p[k].length)])) as Params;

const x = new Float64Array(INPUT);
const z1 = new Float64Array(HIDDEN);
const logits = new Float64Array(VOCAB_SIZE);
const dz1 = new Float64Array(HIDDEN);
const ctx = new Int32Array(CONTEXT);

/** Forward (and, with grads, backward) for one position; returns its loss in nats. */
function step(p: Params, ex: Examples, i: number, grads: Params | null): number {
  contextAt(ex, i, ctx);
  for (let c = 0; c < CONTEXT; c++) for (let j = 0; j < EMBED; j++) x[c * EMBED + j] = p.embeddings[ctx[c] * EMBED + j];
  for (let r = 0; r < HIDDEN; r++) {
    let s = p.b1[r];
    const base = r * INPUT;
    for (let k = 0; k < INPUT; k++) s += p.w1[base + k] * x[k];
    z1[r] = s;
  }
  let max = -Infinity;
  for (let v = 0; v < VOCAB_SIZE; v++) {
    let s = p.b2[v];
    const base = v * HIDDEN;
    for (let k = 0; k < HIDDEN; k++) s += p.w2[base + k] * (z1[k] > 0 ? z1[k] : 0);
    logits[v] = s;
    if (s > max) max = s;
  }
  let sum = 0;
  for (let v = 0; v < VOCAB_SIZE; v++) sum += Math.exp(logits[v] - max);
  const target = ex.tokens[i];
  const loss = -(logits[target] - max - Math.log(sum));
  if (!grads) return loss;
  dz1.fill(0);
  for (let v = 0; v < VOCAB_SIZE; v++) {
    const d = Math.exp(logits[v] - max) / sum - (v === target ? 1 : 0);
    grads.b2[v] += d;
    const base = v * HIDDEN;
    for (let k = 0; k < HIDDEN; k++) {
      if (z1[k] > 0) {
        grads.w2[base + k] += d * z1[k];
        dz1[k] += d * p.w2[base + k];
      }
    }
  }
  for (let r = 0; r < HIDDEN; r++) {
    const d = dz1[r];
    if (d === 0) continue;
    grads.b1[r] += d;
    const base = r * INPUT;
    for (let k = 0; k < INPUT; k++) {
      grads.w1[base + k] += d * x[k];
      grads.embeddings[ctx[Math.floor(k / EMBED)] * EMBED + (k % EMBED)] += d * p.w1[base + k];
    }
  }
  return loss;
}

function meanLoss(p: Params, ex: Examples): number {
  let total = 0;
  let n = 0;
  for (let i = 1; i < ex.tokens.length; i++) {
    if (ex.tokens[i] === SPECIAL.bos) continue;
    total += step(p, ex, i, null);
    n++;
  }
  return total / n;
}

function main() {
  const corpus = loadCorpus();
  const train = examplesOf(corpus.train);
  const heldOut = examplesOf(corpus.heldOut);
  const positions = Int32Array.from({ length: train.tokens.length - 1 }, (_, i) => i + 1).filter((i) => train.tokens[i] !== SPECIAL.bos);
  console.log(`corpus ${corpus.sha256.slice(0, 12)}: ${positions.length} training positions, ${heldOut.tokens.length} held out`);
  const random = seededRandom(1);
  const params = init(random);
  const m = zerosLike(params);
  const v = zerosLike(params);
  const grads = zerosLike(params);
  const totalSteps = EPOCHS * Math.ceil(positions.length / BATCH);
  let t = 0;
  let trainLoss = 0;
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (let i = positions.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [positions[i], positions[j]] = [positions[j], positions[i]];
    }
    let epochLoss = 0;
    for (let b = 0; b < positions.length; b += BATCH) {
      for (const k of KEYS) grads[k].fill(0);
      const end = Math.min(b + BATCH, positions.length);
      for (let q = b; q < end; q++) epochLoss += step(params, train, positions[q], grads);
      t++;
      const lr = LR * (0.05 + 0.95 * 0.5 * (1 + Math.cos((Math.PI * t) / totalSteps)));
      const n = end - b;
      for (const k of KEYS) {
        const p = params[k], g = grads[k], mk = m[k], vk = v[k];
        for (let i = 0; i < p.length; i++) {
          const gi = g[i] / n + WEIGHT_DECAY * p[i];
          mk[i] = 0.9 * mk[i] + 0.1 * gi;
          vk[i] = 0.999 * vk[i] + 0.001 * gi * gi;
          p[i] -= (lr * (mk[i] / (1 - 0.9 ** t))) / (Math.sqrt(vk[i] / (1 - 0.999 ** t)) + 1e-8);
        }
      }
    }
    trainLoss = epochLoss / positions.length;
    console.log(`epoch ${epoch + 1}/${EPOCHS}: train ${trainLoss.toFixed(4)} nats/token, held out ${meanLoss(params, heldOut).toFixed(4)}`);
  }
  const weights = Object.fromEntries(KEYS.map((k) => [k, Float32Array.from(params[k])])) as unknown as FloatWeights;
  const header = { vocab: VOCAB_SIZE, context: CONTEXT, embed: EMBED, hidden: HIDDEN, corpusSha256: corpus.sha256, epochs: EPOCHS, trainLossNats: Number(trainLoss.toFixed(4)), heldOutLossNats: Number(meanLoss(params, heldOut).toFixed(4)) };
  // An output path as the first argument checks reproducibility without touching the committed file.
  const out = process.argv[2] ?? fileURLToPath(WEIGHTS_URL);
  writeFileSync(out, encodeWeights(weights, header));
  console.log(`wrote ${out}`, header);
}

main();
