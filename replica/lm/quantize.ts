import { E2M1_MAX, E4M3_MAX, e8m0Value, int4, int8, mxScaleCode, roundBf16, roundE2M1, roundE4M3 } from "./formats";
import type { WeightFormat } from "./types";

// Weight formats applied to one linear layer's matrix (row-major, rows = output channels, each row
// the weights of one output over its inputs; groups and blocks run along a row, as in every
// format here). Each function returns the dequantized weights a kernel effectively multiplies by.

export interface Matrix {
  rows: number;
  cols: number;
  data: Float32Array;
}

/** A quantized matrix: the dequantized values, and for W8A8 the int8 codes with per-row scales. */
export interface QuantizedMatrix extends Matrix {
  int8?: { codes: Int8Array; rowScales: Float32Array };
}

function absMax(data: Float32Array, from: number, to: number): number {
  let m = 0;
  for (let i = from; i < to; i++) m = Math.max(m, Math.abs(data[i]));
  return m;
}

/** Symmetric INT4 in groups along a row: scale = amax / 7 stored as bfloat16 (as compressed-tensors checkpoints store it), codes −8..7. */
export function quantizeInt4(m: Matrix, group: number): Matrix {
  if (m.cols % group !== 0) throw new Error(`INT4 group ${group} does not divide a row of ${m.cols}`);
  const out = new Float32Array(m.data.length);
  for (let start = 0; start < m.data.length; start += group) {
    const scale = roundBf16(absMax(m.data, start, start + group) / 7);
    for (let i = start; i < start + group; i++) out[i] = scale === 0 ? 0 : int4(m.data[i] / scale) * scale;
  }
  return { ...m, data: out };
}

/** FP8 E4M3 with one float32 scale per output channel: scale = amax / 448. */
export function quantizeFp8PerChannel(m: Matrix): Matrix {
  const out = new Float32Array(m.data.length);
  for (let r = 0; r < m.rows; r++) {
    const start = r * m.cols;
    const scale = Math.fround(absMax(m.data, start, start + m.cols) / E4M3_MAX);
    for (let i = start; i < start + m.cols; i++) out[i] = scale === 0 ? 0 : roundE4M3(m.data[i] / scale) * scale;
  }
  return { ...m, data: out };
}

/** INT8 weights per output channel (scale = amax / 127); the activations are quantized per token at run time (network.ts). */
export function quantizeW8(m: Matrix): QuantizedMatrix {
  const out = new Float32Array(m.data.length);
  const codes = new Int8Array(m.data.length);
  const rowScales = new Float32Array(m.rows);
  for (let r = 0; r < m.rows; r++) {
    const start = r * m.cols;
    const scale = Math.fround(absMax(m.data, start, start + m.cols) / 127);
    rowScales[r] = scale;
    for (let i = start; i < start + m.cols; i++) {
      codes[i] = scale === 0 ? 0 : int8(m.data[i] / scale);
      out[i] = codes[i] * scale;
    }
  }
  return { ...m, data: out, int8: { codes, rowScales } };
}

/**
 * NVFP4: E2M1 values in blocks of 16, each block's scale in E4M3, and one float32 scale for the
 * tensor chosen so the largest block scale uses E4M3's range: global = amax / (6 · 448).
 * Block scale = E4M3(amax_block / 6 / global); value = E2M1(x / (blockScale · global)).
 */
export function quantizeNvfp4(m: Matrix): Matrix {
  const block = 16;
  const out = new Float32Array(m.data.length);
  const global = Math.fround(absMax(m.data, 0, m.data.length) / (E2M1_MAX * E4M3_MAX));
  if (global === 0) return { ...m, data: out };
  for (let start = 0; start < m.data.length; start += block) {
    const scale = roundE4M3(absMax(m.data, start, start + block) / E2M1_MAX / global) * global;
    for (let i = start; i < start + block; i++) out[i] = scale === 0 ? 0 : roundE2M1(m.data[i] / scale) * scale;
  }
  return { ...m, data: out };
}

/** MXFP4 (OCP MX): E2M1 values in blocks of 32 with a power-of-two E8M0 scale per block. */
export function quantizeMxfp4(m: Matrix): Matrix {
  const block = 32;
  const out = new Float32Array(m.data.length);
  for (let start = 0; start < m.data.length; start += block) {
    const scale = e8m0Value(mxScaleCode(absMax(m.data, start, start + block)));
    for (let i = start; i < start + block; i++) out[i] = roundE2M1(m.data[i] / scale) * scale;
  }
  return { ...m, data: out };
}

/** A matrix in a weight format. float32 returns it unchanged. */
export function quantizeMatrix(m: Matrix, format: WeightFormat): QuantizedMatrix {
  switch (format) {
    case "float32":
      return m;
    case "int4-g32":
      return quantizeInt4(m, 32);
    case "int4-g128":
      return quantizeInt4(m, 128);
    case "fp8-e4m3":
      return quantizeFp8PerChannel(m);
    case "w8a8":
      return quantizeW8(m);
    case "nvfp4":
      return quantizeNvfp4(m);
    case "mxfp4":
      return quantizeMxfp4(m);
  }
}
