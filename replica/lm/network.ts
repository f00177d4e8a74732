import { readFileSync } from "node:fs";
import { int8, roundBf16 } from "./formats";
import { quantizeMatrix, type Matrix, type QuantizedMatrix } from "./quantize";
import type { Activations, Summation, WeightFormat } from "./types";
import { SPECIAL, VOCAB_SIZE } from "./vocab";

// A small real language network: the embeddings of the last CONTEXT tokens, concatenated, feed
// a hidden ReLU layer and then the output logits (a Bengio-style MLP language model). Its float32
// weights were trained by train.ts (npm run lm:train) and are committed as weights.bin.

export const CONTEXT = 8;
export const EMBED = 16;
export const HIDDEN = 128;
export const INPUT = CONTEXT * EMBED;

export interface FloatWeights {
  embeddings: Float32Array; // VOCAB_SIZE × EMBED
  w1: Float32Array; // HIDDEN × INPUT
  b1: Float32Array; // HIDDEN
  w2: Float32Array; // VOCAB_SIZE × HIDDEN
  b2: Float32Array; // VOCAB_SIZE
}

export interface WeightsHeader {
  vocab: number;
  context: number;
  embed: number;
  hidden: number;
  corpusSha256: string;
  epochs: number;
  trainLossNats: number;
  heldOutLossNats: number;
}

export const WEIGHTS_URL = new URL("./weights.bin", import.meta.url);

const SIZES = (): Array<[keyof FloatWeights, number]> => [
  ["embeddings", VOCAB_SIZE * EMBED],
  ["w1", HIDDEN * INPUT],
  ["b1", HIDDEN],
  ["w2", VOCAB_SIZE * HIDDEN],
  ["b2", VOCAB_SIZE],
];

/** weights.bin: a uint32 header length, a JSON header, then the float32 arrays (little-endian) in SIZES order. */
export function encodeWeights(weights: FloatWeights, header: WeightsHeader): Buffer {
  const json = Buffer.from(JSON.stringify(header), "utf8");
  const parts: Buffer[] = [Buffer.alloc(4), json];
  parts[0].writeUInt32LE(json.length, 0);
  for (const [name] of SIZES()) {
    const b = Buffer.alloc(weights[name].length * 4);
    weights[name].forEach((v, i) => b.writeFloatLE(v, i * 4));
    parts.push(b);
  }
  return Buffer.concat(parts);
}

export function decodeWeights(buffer: Buffer): { weights: FloatWeights; header: WeightsHeader } {
  const length = buffer.readUInt32LE(0);
  const header = JSON.parse(buffer.subarray(4, 4 + length).toString("utf8")) as WeightsHeader;
  if (header.vocab !== VOCAB_SIZE || header.context !== CONTEXT || header.embed !== EMBED || header.hidden !== HIDDEN) {
    throw new Error("weights.bin does not match the network's shape: run npm run lm:train");
  }
  let offset = 4 + length;
  const weights = {} as FloatWeights;
  for (const [name, size] of SIZES()) {
    const array = new Float32Array(size);
    for (let i = 0; i < size; i++) array[i] = buffer.readFloatLE(offset + i * 4);
    offset += size * 4;
    weights[name] = array;
  }
  return { weights, header };
}

let loaded: { weights: FloatWeights; header: WeightsHeader } | null = null;

/** The committed float32 weights (read once). */
export function loadFloatWeights(): { weights: FloatWeights; header: WeightsHeader } {
  loaded ??= decodeWeights(readFileSync(WEIGHTS_URL));
  return loaded;
}

/** The weights one endpoint multiplies by: embeddings and biases in float32, both linear layers in a format. */
export interface PreparedNetwork {
  format: WeightFormat;
  embeddings: Float32Array;
  w1: QuantizedMatrix;
  b1: Float32Array;
  w2: QuantizedMatrix;
  b2: Float32Array;
}

/**
 * The network in a weight format. `source` is what the format is applied to: the released
 * INT4-g32 checkpoint for re-quantizing providers (variants.ts), or the float weights.
 */
export function prepareNetwork(weights: FloatWeights, format: WeightFormat): PreparedNetwork {
  const w1: Matrix = { rows: HIDDEN, cols: INPUT, data: weights.w1 };
  const w2: Matrix = { rows: VOCAB_SIZE, cols: HIDDEN, data: weights.w2 };
  return { format, embeddings: weights.embeddings, w1: quantizeMatrix(w1, format), b1: weights.b1, w2: quantizeMatrix(w2, format), b2: weights.b2 };
}

export interface Numerics {
  activations: Activations;
  summation: Summation;
}

const scratch = new Float32Array(Math.max(INPUT, HIDDEN));

/** A dot product of row r of m with x, accumulated in float32 in the given order. */
function dot(m: Matrix, r: number, x: Float32Array, summation: Summation): number {
  const w = m.data;
  const base = r * m.cols;
  const n = m.cols;
  const fr = Math.fround;
  let acc = 0;
  if (summation === "sequential") {
    for (let i = 0; i < n; i++) acc = fr(acc + fr(w[base + i] * x[i]));
    return acc;
  }
  if (summation === "reversed") {
    for (let i = n - 1; i >= 0; i--) acc = fr(acc + fr(w[base + i] * x[i]));
    return acc;
  }
  for (let i = 0; i < n; i++) scratch[i] = fr(w[base + i] * x[i]);
  for (let width = n; width > 1; width = Math.ceil(width / 2)) {
    const half = Math.floor(width / 2);
    for (let i = 0; i < half; i++) scratch[i] = fr(scratch[2 * i] + scratch[2 * i + 1]);
    if (width % 2 === 1) scratch[half] = scratch[width - 1];
  }
  return scratch[0];
}

/** W8A8: the input quantized to int8 per token (scale amax / 127), an exact integer dot product, then both scales. */
function dotW8A8(m: QuantizedMatrix, r: number, xCodes: Int8Array, xScale: number): number {
  const { codes, rowScales } = m.int8 as NonNullable<QuantizedMatrix["int8"]>;
  const base = r * m.cols;
  let acc = 0;
  for (let i = 0; i < m.cols; i++) acc += codes[base + i] * xCodes[i];
  return Math.fround(acc * rowScales[r] * xScale);
}

function linear(m: QuantizedMatrix, bias: Float32Array, x: Float32Array, out: Float32Array, summation: Summation) {
  if (m.int8) {
    let amax = 0;
    for (let i = 0; i < m.cols; i++) amax = Math.max(amax, Math.abs(x[i]));
    const xScale = Math.fround(amax / 127);
    const xCodes = new Int8Array(m.cols);
    for (let i = 0; i < m.cols; i++) xCodes[i] = xScale === 0 ? 0 : int8(x[i] / xScale);
    for (let r = 0; r < m.rows; r++) out[r] = Math.fround(dotW8A8(m, r, xCodes, xScale) + bias[r]);
    return;
  }
  for (let r = 0; r < m.rows; r++) out[r] = Math.fround(dot(m, r, x, summation) + bias[r]);
}

/** The network's input for the tokens so far: the last CONTEXT tokens, padded with <|bos|> on the left. */
export function contextWindow(tokens: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let k = CONTEXT; k >= 1; k--) {
    const i = tokens.length - k;
    out.push(i >= 0 ? tokens[i] : SPECIAL.bos);
  }
  return out;
}

/** The next-token logits after `tokens` (float32 values). */
export function forward(net: PreparedNetwork, tokens: ArrayLike<number>, numerics: Numerics): Float64Array {
  const bf16 = numerics.activations === "bf16";
  const x = new Float32Array(INPUT);
  const window = contextWindow(tokens);
  for (let p = 0; p < CONTEXT; p++) {
    const src = window[p] * EMBED;
    for (let j = 0; j < EMBED; j++) x[p * EMBED + j] = bf16 ? roundBf16(net.embeddings[src + j]) : net.embeddings[src + j];
  }
  const h = new Float32Array(HIDDEN);
  linear(net.w1, net.b1, x, h, numerics.summation);
  for (let j = 0; j < HIDDEN; j++) h[j] = h[j] > 0 ? (bf16 ? roundBf16(h[j]) : h[j]) : 0;
  const logits = new Float32Array(VOCAB_SIZE);
  linear(net.w2, net.b2, h, logits, numerics.summation);
  const out = new Float64Array(VOCAB_SIZE);
  for (let v = 0; v < VOCAB_SIZE; v++) out[v] = bf16 ? roundBf16(logits[v]) : logits[v];
  return out;
}
