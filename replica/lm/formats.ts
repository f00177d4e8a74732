// Number formats, each a small pure function with an exact encoding. Rounding is to nearest,
// ties to even, as hardware converters and PyTorch's casts do; every format saturates at its
// largest finite value (the "satfinite" conversions quantizers use) instead of producing NaN.

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** Rounds to the nearest integer, ties to even (torch.round). */
export function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** bfloat16: the float32 rounded to 8 significant bits (ties to even); NaN and infinities kept. */
export function roundBf16(x: number): number {
  f32[0] = x;
  const bits = u32[0];
  if ((bits & 0x7f800000) === 0x7f800000) return f32[0];
  u32[0] = ((bits + 0x7fff + ((bits >>> 16) & 1)) & 0xffff0000) >>> 0;
  return f32[0];
}

// ---- FP8 E4M3 (OCP "E4M3FN"): 1 sign, 4 exponent bits (bias 7), 3 mantissa bits; no
// infinities, S.1111.111 is NaN, so the largest finite value is 1.75 · 2^8 = 448. Exponent field 0
// holds subnormals m/8 · 2^-6 (smallest 2^-9).
export const E4M3_MAX = 448;

/** The 8-bit code of the E4M3 value nearest x (saturating at ±448). */
export function e4m3Bits(x: number): number {
  if (Number.isNaN(x)) return 0x7f;
  const sign = x < 0 || Object.is(x, -0) ? 0x80 : 0;
  const a = Math.min(Math.abs(x), E4M3_MAX);
  if (a < 2 ** -6) {
    // Subnormal range (and the rounding up into the smallest normal): steps of 2^-9.
    const m = roundHalfEven(a / 2 ** -9); // 0..8; 8 is the smallest normal, 1.000 · 2^-6
    return sign | (m === 8 ? 0x08 : m);
  }
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e -= 1; // guard log2's rounding
  if (2 ** (e + 1) <= a) e += 1;
  let m = roundHalfEven((a / 2 ** e - 1) * 8);
  if (m === 8) {
    m = 0;
    e += 1;
  }
  return sign | ((e + 7) << 3) | m;
}

export function decodeE4M3(bits: number): number {
  const sign = bits & 0x80 ? -1 : 1;
  const e = (bits >>> 3) & 0xf;
  const m = bits & 0x7;
  if (e === 0xf && m === 0x7) return NaN;
  if (e === 0) return sign * (m / 8) * 2 ** -6;
  return sign * (1 + m / 8) * 2 ** (e - 7);
}

/** x rounded to E4M3 (saturating). */
export function roundE4M3(x: number): number {
  return decodeE4M3(e4m3Bits(x));
}

// ---- FP4 E2M1: 1 sign, 2 exponent bits (bias 1), 1 mantissa bit; values ±{0, 0.5, 1, 1.5, 2, 3, 4, 6}.
export const E2M1_VALUES = [0, 0.5, 1, 1.5, 2, 3, 4, 6] as const;
export const E2M1_MAX = 6;

/** The 4-bit code of the E2M1 value nearest x: sign bit 8, magnitude index 0..7 (saturating at ±6). */
export function e2m1Bits(x: number): number {
  const sign = x < 0 ? 8 : 0;
  const a = Math.min(Math.abs(x), E2M1_MAX);
  let best = 0;
  for (let i = 1; i < E2M1_VALUES.length; i++) {
    const d = Math.abs(E2M1_VALUES[i] - a);
    const bestD = Math.abs(E2M1_VALUES[best] - a);
    // On a tie, the even code (mantissa bit 0) wins.
    if (d < bestD || (d === bestD && i % 2 === 0)) best = i;
  }
  return sign | best;
}

export function decodeE2M1(bits: number): number {
  return (bits & 8 ? -1 : 1) * E2M1_VALUES[bits & 7];
}

export function roundE2M1(x: number): number {
  return decodeE2M1(e2m1Bits(x));
}

// ---- E8M0: an unsigned power-of-two scale 2^(code - 127), code 0..254 (255 is NaN).
export function e8m0Value(code: number): number {
  return code === 255 ? NaN : 2 ** (code - 127);
}

/**
 * The MX shared scale of a block (OCP MX v1.0, section 6.3): 2^(floor(log2(amax)) − emax) with
 * emax = 2 for E2M1, as an E8M0 code. An all-zero block gets the smallest scale.
 */
export function mxScaleCode(amax: number, elementEmax = 2): number {
  if (amax === 0) return 0;
  let e = Math.floor(Math.log2(amax));
  if (2 ** e > amax) e -= 1;
  if (2 ** (e + 1) <= amax) e += 1;
  return Math.max(0, Math.min(254, e - elementEmax + 127));
}

/** The int8 code nearest x, symmetric (−127..127). */
export function int8(x: number): number {
  return Math.max(-127, Math.min(127, roundHalfEven(x)));
}

/** The int4 code nearest x (−8..7). */
export function int4(x: number): number {
  return Math.max(-8, Math.min(7, roundHalfEven(x)));
}
