// The rules' vocabulary: the values a rule can name, as plain lists with no zod beside them, so
// client components (the rules panel, the team-note dialog) can import them without pulling the
// OpenRouter schemas into the browser.

/** The quantization values OpenRouter reports. */
export const KNOWN_QUANTIZATIONS = [
  "int4", "int8", "fp4", "mxfp4", "nvfp4", "fp6", "fp8", "mxfp8", "fp16", "bf16", "fp32", "unknown",
] as const;
export type KnownQuantization = (typeof KNOWN_QUANTIZATIONS)[number];

/** The uptime windows OpenRouter reports, any of which the uptime rule can be read over. */
export const UPTIME_WINDOWS = ["5m", "30m", "1d"] as const;
export type UptimeWindow = (typeof UPTIME_WINDOWS)[number];
