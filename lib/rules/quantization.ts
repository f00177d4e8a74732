import { KNOWN_QUANTIZATIONS, type KnownQuantization } from "./vocabulary";

// Quantization classes as the team thinks of them. A drafter trained on a 4-bit model's outputs
// learns the wrong distribution, so the classes are what the rules toggle in one click.

export const QUANT_CLASSES = {
  "4bit": { label: "4-bit", values: ["int4", "fp4", "mxfp4", "nvfp4"] },
  "8bit": { label: "6/8-bit", values: ["fp6", "int8", "fp8", "mxfp8"] },
  full: { label: "full precision", values: ["fp16", "bf16", "fp32"] },
  unknown: { label: "unknown", values: ["unknown"] },
} as const satisfies Record<string, { label: string; values: readonly KnownQuantization[] }>;

export type QuantClass = keyof typeof QUANT_CLASSES;
export const QUANT_CLASS_IDS = Object.keys(QUANT_CLASSES) as QuantClass[];

/** The quantization that counts: null, absent and values outside the known list are "unknown". */
export function effectiveQuantization(value: string | null | undefined): KnownQuantization {
  return value && (KNOWN_QUANTIZATIONS as readonly string[]).includes(value) ? (value as KnownQuantization) : "unknown";
}

export function classOf(value: string | null | undefined): QuantClass {
  const q = effectiveQuantization(value);
  for (const id of QUANT_CLASS_IDS) {
    if ((QUANT_CLASSES[id].values as readonly string[]).includes(q)) return id;
  }
  return "unknown";
}
