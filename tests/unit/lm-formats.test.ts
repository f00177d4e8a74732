import { describe, expect, it } from "vitest";
import {
  decodeE2M1,
  decodeE4M3,
  e2m1Bits,
  e4m3Bits,
  e8m0Value,
  mxScaleCode,
  quantizeFp8PerChannel,
  quantizeInt4,
  quantizeMxfp4,
  quantizeNvfp4,
  quantizeW8,
  roundBf16,
  roundE2M1,
  roundE4M3,
} from "@/replica/lm";

// The number formats against values worked out by hand from the format definitions (OCP FP8
// E4M3FN, OCP MX v1.0 E2M1/E8M0, NVIDIA's NVFP4 two-level scaling), not from the encoders.

const matrix = (rows: number, cols: number, values: number[]) => {
  const data = new Float32Array(rows * cols);
  data.set(values);
  return { rows, cols, data };
};

describe("FP8 E4M3", () => {
  it("encodes normal values to nearest, ties to even", () => {
    expect(e4m3Bits(1)).toBe(0x38); // exponent 7 (bias 7), mantissa 000
    expect(e4m3Bits(0.1)).toBe(0x1d); // 1.6 · 2^-4 → mantissa 4.8/8 → 5: 1.625 · 2^-4
    expect(roundE4M3(0.1)).toBe(0.1015625);
    expect(roundE4M3(1.0625)).toBe(1); // halfway between 1 and 1.125: mantissa 0 is even
    expect(roundE4M3(1.1875)).toBe(1.25); // halfway between 1.125 (m=1) and 1.25 (m=2)
    expect(e4m3Bits(240)).toBe(0x77); // 1.875 · 2^7
    expect(e4m3Bits(-2)).toBe(0xc0);
  });
  it("saturates at 448: S.1111.111 is NaN, never produced", () => {
    expect(e4m3Bits(448)).toBe(0x7e);
    expect(roundE4M3(448)).toBe(448);
    expect(roundE4M3(464)).toBe(448); // halfway to the NaN slot
    expect(roundE4M3(500)).toBe(448);
    expect(roundE4M3(-1e6)).toBe(-448);
    expect(decodeE4M3(0x7f)).toBeNaN();
  });
  it("has subnormals m/8 · 2^-6 down to 2^-9", () => {
    expect(e4m3Bits(2 ** -9)).toBe(0x01);
    expect(roundE4M3(2 ** -9)).toBe(0.001953125);
    expect(roundE4M3(2 ** -10)).toBe(0); // halfway between 0 and 2^-9: 0 is even
    expect(roundE4M3(3 * 2 ** -10)).toBe(0.00390625); // halfway between m=1 and m=2
    expect(e4m3Bits(0.013671875)).toBe(0x07); // 7/8 · 2^-6, the largest subnormal
    expect(e4m3Bits(0.0146484375)).toBe(0x08); // halfway to 2^-6: rounds up to the smallest normal
    expect(decodeE4M3(0x08)).toBe(0.015625);
  });
});

describe("FP4 E2M1", () => {
  it("holds ±{0, 0.5, 1, 1.5, 2, 3, 4, 6}", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7].map(decodeE2M1)).toEqual([0, 0.5, 1, 1.5, 2, 3, 4, 6]);
    expect(decodeE2M1(0b1111)).toBe(-6);
    expect(e2m1Bits(-0.5)).toBe(0b1001);
  });
  it("rounds to nearest, ties to the even code, and saturates at 6", () => {
    expect(roundE2M1(0.25)).toBe(0); // 0 (code 0) vs 0.5 (code 1)
    expect(roundE2M1(0.3)).toBe(0.5);
    expect(roundE2M1(0.75)).toBe(1); // 0.5 (code 1) vs 1 (code 2)
    expect(roundE2M1(1.25)).toBe(1); // 1 (code 2) vs 1.5 (code 3)
    expect(roundE2M1(1.75)).toBe(2);
    expect(roundE2M1(2.5)).toBe(2); // 2 (code 4) vs 3 (code 5)
    expect(roundE2M1(3.5)).toBe(4);
    expect(roundE2M1(5)).toBe(4); // 4 (code 6) vs 6 (code 7)
    expect(roundE2M1(5.1)).toBe(6);
    expect(roundE2M1(7)).toBe(6);
    expect(roundE2M1(-2.6)).toBe(-3);
  });
});

describe("E8M0 and bfloat16", () => {
  it("an MX block scale is 2^(floor(log2 amax) - 2)", () => {
    expect(mxScaleCode(6)).toBe(127);
    expect(e8m0Value(127)).toBe(1);
    expect(e8m0Value(mxScaleCode(1))).toBe(0.25);
    expect(e8m0Value(mxScaleCode(0.9))).toBe(0.125);
    expect(e8m0Value(mxScaleCode(7.99))).toBe(1);
  });
  it("bfloat16 keeps 8 significant bits, ties to even", () => {
    expect(roundBf16(1 + 2 ** -8)).toBe(1);
    expect(roundBf16(1 + 3 * 2 ** -8)).toBe(1 + 2 ** -6);
    expect(roundBf16(1 + 2 ** -7)).toBe(1 + 2 ** -7);
    expect(roundBf16(0.1)).toBe(0.10009765625);
  });
});

describe("weight formats on a matrix", () => {
  it("INT4 group 32: scale amax/7 in bfloat16, codes rounded to nearest", () => {
    const q = quantizeInt4(matrix(1, 32, [0.7, -0.35, 0.05, 0.149]), 32).data;
    // scale = bf16(0.1) = 0.10009765625
    expect(q[0]).toBeCloseTo(7 * 0.10009765625, 6);
    expect(q[1]).toBeCloseTo(-3 * 0.10009765625, 6); // -3.4966 → -3
    expect(q[2]).toBe(0); // 0.4995 → 0
    expect(q[3]).toBeCloseTo(0.10009765625, 6); // 1.4885 → 1
  });
  it("INT4 group 128 shares one scale over four times the values", () => {
    const values = new Array(128).fill(0);
    values[0] = 0.7;
    values[1] = 0.03;
    values[40] = 2.8; // in the same group of 128, so the scale is 0.4
    const g128 = quantizeInt4(matrix(1, 128, values), 128).data;
    const g32 = quantizeInt4(matrix(1, 128, values), 32).data;
    expect(g128[0]).toBeCloseTo(2 * 0.400390625, 7); // scale bf16(0.4) = 0.400390625; 1.748 → 2
    expect(g32[0]).toBeCloseTo(7 * 0.10009765625, 6);
    expect(g128[1]).toBe(0);
  });
  it("FP8 per channel: scale amax/448 per row", () => {
    const q = quantizeFp8PerChannel(matrix(2, 2, [4.48, 0.1, 448, 1])).data;
    expect(q[0]).toBeCloseTo(4.48, 5); // 448 · 0.01
    expect(q[1]).toBeCloseTo(10 * Math.fround(0.01), 6); // 10 is exact in E4M3
    expect(q[3]).toBe(1);
  });
  it("W8A8 weights: int8 per output channel, scale amax/127", () => {
    const q = quantizeW8(matrix(1, 3, [1.27, 0.5, -0.015]));
    expect(Array.from(q.int8?.codes ?? [])).toEqual([127, 50, -2]); // -1.5 → -2 (even)
    expect(q.data[1]).toBeCloseTo(0.5, 6);
  });
  it("NVFP4: an fp32 tensor scale, an E4M3 scale per 16 values, E2M1 values", () => {
    const values = new Array(32).fill(0);
    values[0] = 2688; // tensor amax = 6 · 448, so the tensor scale is 1
    values[5] = 1000;
    values[16] = 0.3; // second block: scale E4M3(0.05) = 0.05078125
    values[17] = 0.1;
    const q = quantizeNvfp4(matrix(1, 32, values)).data;
    expect(q[0]).toBe(2688); // block scale 448, value 6
    expect(q[5]).toBe(448 * 2); // 1000/448 = 2.23 → 2
    expect(q[16]).toBeCloseTo(6 * 0.05078125, 7); // 5.907 → 6
    expect(q[17]).toBeCloseTo(2 * 0.05078125, 7); // 1.969 → 2
  });
  it("MXFP4: a power-of-two scale per 32 values, values over 6 saturate", () => {
    const values = new Array(64).fill(0);
    values[0] = 0.9; // scale 2^-3: 7.2 → 6
    values[1] = 0.3; // 2.4 → 2
    values[32] = 6;
    values[33] = -1.3; // second block scale 1: -1.3 → -1.5
    const q = quantizeMxfp4(matrix(1, 64, values)).data;
    expect([q[0], q[1], q[32], q[33]]).toEqual([0.75, 0.25, 6, -1.5]);
  });
});
