// The quantization values OpenRouter reports, as a plain list with no zod beside it: client
// components (the rules panel, the team-note dialog) take their vocabulary from here, so the zod
// schemas in ./schemas.ts never reach the browser.

export const KNOWN_QUANTIZATIONS = [
  "int4", "int8", "fp4", "mxfp4", "nvfp4", "fp6", "fp8", "mxfp8", "fp16", "bf16", "fp32", "unknown",
] as const;
export type KnownQuantization = (typeof KNOWN_QUANTIZATIONS)[number];
