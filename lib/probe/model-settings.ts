import "server-only";
import { z } from "zod";
import type { Db } from "../db/engines";
import { probeSettingsFor, type ProbeModelSettings } from "./settings";

// A team's own margin Δ and sampler for one model, stored (ProbeModelSetting) and read by every
// new run, which copies them (ProbeRun.deltaNats, ProbeRun.sampler): a change applies to the next
// run and never alters a past verdict. Without a stored row the defaults of lib/probe/settings.ts
// apply (for Kimi K2.5, Moonshot's documented sampler without thinking).

/** The widest margin a team may set: 0.1 nats/token is several times a 4-bit re-quantization. */
export const MAX_DELTA_NATS = 0.1;
/** The narrowest: below this, numerics alone (BF16, summation order) would read as a difference. */
export const MIN_DELTA_NATS = 1e-5;

const finite = (what: string) => z.number({ error: `must be a number (${what})` }).refine(Number.isFinite, "must be a finite number");

/** OpenAI's range for presence_penalty and frequency_penalty (OpenRouter's too). */
const penalty = finite("a penalty").refine((v) => v >= -2 && v <= 2, "must be between -2 and 2 (0: no penalty)");

export const probeSettingsInputSchema = z.object({
  deltaNats: finite("nats per token")
    .refine((v) => v >= MIN_DELTA_NATS, `must be at least ${MIN_DELTA_NATS} nats/token: below that, faithful endpoints' numerics alone would exceed it`)
    .refine((v) => v <= MAX_DELTA_NATS, `must be at most ${MAX_DELTA_NATS} nats/token: a larger margin would certify a 4-bit re-quantization as equivalent`),
  temperature: finite("the sampling temperature").refine((v) => v > 0 && v <= 2, "must be more than 0 and at most 2 (the probe's sampled answers need a temperature above 0)"),
  top_p: finite("a probability").refine((v) => v > 0 && v <= 1, "must be more than 0 and at most 1"),
  top_k: z.number({ error: "must be a whole number or null" }).int("must be a whole number or null").min(1, "must be at least 1, or null for none").max(1000, "must be at most 1000, or null for none").nullable(),
  min_p: finite("a probability").refine((v) => v >= 0 && v < 1, "must be at least 0 and less than 1, or null for none").nullable(),
  // Optional (0 when absent): clients written before the penalties were settable send none.
  presence_penalty: penalty.optional().default(0),
  frequency_penalty: penalty.optional().default(0),
  thinking: z
    .boolean({ error: "must be true or false" })
    .refine((v) => v === false, "the probe compares answers without reasoning, so it runs with thinking off; thinking-enabled probing is not supported yet")
    .optional(),
});
/** The body as sent (the penalties may be left out); the parsed one has them. */
export type ProbeSettingsInput = z.input<typeof probeSettingsInputSchema>;

export interface ProbeSettingsView extends ProbeModelSettings {
  modelId: string;
  /** "team": set on this dashboard; "default": the built-in defaults below. */
  source: "team" | "default";
  defaults: ProbeModelSettings;
  updatedAt: string | null;
}

/** The settings the next run of the model uses. */
export async function readProbeSettings(db: Db, modelId: string): Promise<ProbeSettingsView> {
  const defaults = probeSettingsFor(modelId);
  const row = await db.probeModelSetting.findUnique({ where: { modelId } });
  if (!row) return { modelId, source: "default", defaults, updatedAt: null, ...defaults };
  return {
    modelId,
    source: "team",
    defaults,
    updatedAt: row.updatedAt.toISOString(),
    deltaNats: row.deltaNats,
    sampler: {
      temperature: row.temperature,
      top_p: row.topP,
      top_k: row.topK,
      min_p: row.minP,
      presence_penalty: row.presencePenalty,
      frequency_penalty: row.frequencyPenalty,
      thinking: false,
    },
  };
}

export async function saveProbeSettings(db: Db, modelId: string, input: ProbeSettingsInput): Promise<ProbeSettingsView> {
  const data = {
    deltaNats: input.deltaNats,
    temperature: input.temperature,
    topP: input.top_p,
    topK: input.top_k,
    minP: input.min_p,
    presencePenalty: input.presence_penalty ?? 0,
    frequencyPenalty: input.frequency_penalty ?? 0,
  };
  await db.probeModelSetting.upsert({ where: { modelId }, create: { modelId, ...data }, update: data });
  return readProbeSettings(db, modelId);
}

/** Back to the defaults: the stored row goes. */
export async function resetProbeSettings(db: Db, modelId: string): Promise<ProbeSettingsView> {
  await db.probeModelSetting.deleteMany({ where: { modelId } });
  return readProbeSettings(db, modelId);
}
