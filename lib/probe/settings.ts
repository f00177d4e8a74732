// What the probe sends and the margin it decides against, per model.
//
// The margin Δ is in nats per token of KL(reference ‖ endpoint) between expected next-token
// distributions. Default 1e-3 nats/token, because:
// - upper bound: re-quantizing the released weights to another 4-bit format costs about 0.01-0.04
//   nats/token on an 8B model (llama.cpp's KL measurements: q4_K_M 0.031, IQ4_XS 0.036-0.043) and
//   less on a large model; Δ must sit well below that so such an endpoint lands above 2Δ and gets
//   `differs` in a default run. An 8-bit conversion (q8_0 about 0.0014) sits near Δ, where either
//   answer is honest.
// - lower bound: numerics alone (BF16 activations, another summation order, batching) must stay
//   inside Δ/4 = 2.5e-4 nats/token or faithful endpoints would not be certified; the bench
//   (bench/probe-results.md) measures that floor on its faithful variants and on the A/A.
// These are the defaults; a team sets its own per model on the page (lib/probe/model-settings.ts).

export interface SamplerSettings {
  temperature: number;
  top_p: number;
  top_k: number | null;
  min_p: number | null;
  /** OpenAI-style penalties on tokens already generated, in [-2, 2]; 0 (every API's default) is not sent. */
  presence_penalty: number;
  frequency_penalty: number;
  /** Thinking mode: off means the request asks the provider not to reason. */
  thinking: boolean;
}

export interface ProbeModelSettings {
  deltaNats: number;
  /** The pipeline's sampler: sent on every request (the greedy-path requests send temperature 0 with the rest of it). */
  sampler: SamplerSettings;
}

export const DEFAULT_DELTA_NATS = 1e-3;

export const DEFAULT_SAMPLER: SamplerSettings = { temperature: 1, top_p: 1, top_k: null, min_p: null, presence_penalty: 0, frequency_penalty: 0, thinking: false };

// Moonshot's documentation for kimi-k2.5: temperature 1.0 with thinking, 0.6 without; top_p 0.95
// fixed; penalties 0. The probe reads the answer's content, so thinking is off by default.
export const PROBE_MODEL_SETTINGS: Record<string, ProbeModelSettings> = {
  "moonshotai/kimi-k2.5": { deltaNats: DEFAULT_DELTA_NATS, sampler: { temperature: 0.6, top_p: 0.95, top_k: null, min_p: null, presence_penalty: 0, frequency_penalty: 0, thinking: false } },
};

export function probeSettingsFor(modelId: string): ProbeModelSettings {
  return PROBE_MODEL_SETTINGS[modelId] ?? { deltaNats: DEFAULT_DELTA_NATS, sampler: DEFAULT_SAMPLER };
}

/**
 * The sampler's fields of a chat request: top_p always, top_k and min_p when set, each penalty when
 * not 0. The temperature is the sampler's unless a method reads greedily (0); the penalties apply
 * to the greedy path too (they change which token is the top one, as in the pipeline's own runs).
 */
export function samplerFields(
  s: SamplerSettings,
  temperature: number = s.temperature,
): { temperature: number; top_p: number; top_k?: number; min_p?: number; presence_penalty?: number; frequency_penalty?: number } {
  return {
    temperature,
    top_p: s.top_p,
    ...(s.top_k !== null ? { top_k: s.top_k } : {}),
    ...(s.min_p !== null ? { min_p: s.min_p } : {}),
    ...(s.presence_penalty !== 0 ? { presence_penalty: s.presence_penalty } : {}),
    ...(s.frequency_penalty !== 0 ? { frequency_penalty: s.frequency_penalty } : {}),
  };
}

/** The sampler in plain words ("temperature 0.6, top_p 0.95, thinking off"), as the fidelity section shows it. */
export function describeSampler(s: SamplerSettings): string {
  const parts = [`temperature ${s.temperature}`, `top_p ${s.top_p}`];
  if (s.top_k !== null) parts.push(`top_k ${s.top_k}`);
  if (s.min_p !== null) parts.push(`min_p ${s.min_p}`);
  if (s.presence_penalty !== 0) parts.push(`presence_penalty ${s.presence_penalty}`);
  if (s.frequency_penalty !== 0) parts.push(`frequency_penalty ${s.frequency_penalty}`);
  parts.push(s.thinking ? "thinking on" : "thinking off");
  return parts.join(", ");
}

/** The sampler a run sent (stored on the run); runs before this version sent the old fixed one. */
export function samplerOfRun(run: { sampler: unknown }): SamplerSettings {
  const s = run.sampler as Partial<SamplerSettings> | null;
  if (!s || typeof s.temperature !== "number" || typeof s.top_p !== "number") return DEFAULT_SAMPLER;
  return {
    temperature: s.temperature,
    top_p: s.top_p,
    top_k: s.top_k ?? null,
    min_p: s.min_p ?? null,
    // Runs before the penalties were settable sent none (0).
    presence_penalty: typeof s.presence_penalty === "number" ? s.presence_penalty : 0,
    frequency_penalty: typeof s.frequency_penalty === "number" ? s.frequency_penalty : 0,
    thinking: s.thinking === true,
  };
}
