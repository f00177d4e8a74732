import type { Patch } from "./server";
import { endpointJson, endpointsResponse } from "./endpoints";
import { kimiK25, type ModelSeed, type ProviderSeed } from "./data/kimi-k2.5";
import { seededRandom } from "../lib/probe/random";

// The demo's scripted month: what the replica's Kimi K2.5 looked like at any moment of the 30
// days before the demo started. Pure and seeded, so every demo (and every test) generates the
// same history. Four things happen, each at a fixed offset before the end of the history:
//   - a price cut: DeepInfra drops from $0.45 / $2.25 to $0.40 / $2.00 per million (12 days before);
//   - a quantization switch: Together, which reported "unknown", starts reporting fp8 (8 days before);
//   - an outage: Novita goes to status -2 and its uptime falls to about 35% for 5 hours (9 days before);
//   - a new endpoint: Nebius starts serving fp8 (4 days before).
// The live replica of the demo then serves the state at the end (see demoPatches), so the first
// real poll continues the history instead of undoing it.

export const DEMO_MODEL: ModelSeed = kimiK25;
export const HISTORY_DAYS = 30;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export const SCRIPTED_EVENTS = {
  priceCut: { tag: "deepinfra", before: { in: "0.45", out: "2.25" }, after: { in: "0.40", out: "2.00" }, offsetMs: 12 * DAY },
  quantizationSwitch: { tag: "together", before: "unknown", after: "fp8", offsetMs: 8 * DAY },
  outage: { tag: "novita", status: -2, uptime: 35, offsetMs: 9 * DAY, durationMs: 5 * HOUR },
  newEndpoint: { tag: "nebius/fp8", offsetMs: 4 * DAY },
} as const;

const NEBIUS: ProviderSeed = {
  provider: "Nebius",
  tag: "nebius/fp8",
  quantization: "fp8",
  inputPerM: "0.50",
  outputPerM: "2.50",
  status: 0,
  uptime: 99.4,
  latencyMs: 1050,
  throughput: 47,
  contextLength: 262144,
  maxCompletionTokens: 131072,
};

/** A deterministic value in [-1, 1) for an endpoint at a moment: noise that is the same on every run. */
function noise(seed: number, index: number, t: number): number {
  return seededRandom(seed ^ Math.imul(index + 1, 0x9e3779b1) ^ Math.floor(t / 60_000))() * 2 - 1;
}

/** The providers as the replica served them at `at`, for a history that ends at `end`. */
export function providersAt(at: Date, end: Date, seed = 1): ProviderSeed[] {
  const t = at.getTime();
  const since = (offsetMs: number) => t >= end.getTime() - offsetMs;
  const { priceCut, quantizationSwitch, outage, newEndpoint } = SCRIPTED_EVENTS;
  const seeds = [...DEMO_MODEL.providers, ...(since(newEndpoint.offsetMs) ? [NEBIUS] : [])];
  return seeds.map((p, index) => {
    const next: ProviderSeed = { ...p };
    if (p.tag === priceCut.tag && since(priceCut.offsetMs)) {
      next.inputPerM = priceCut.after.in;
      next.outputPerM = priceCut.after.out;
    }
    if (p.tag === quantizationSwitch.tag && since(quantizationSwitch.offsetMs)) next.quantization = quantizationSwitch.after;
    const inOutage = p.tag === outage.tag && since(outage.offsetMs) && !since(outage.offsetMs - outage.durationMs);
    // Uptime: a slow daily swing plus a little noise, within a point or so of the recorded figure
    // for a healthy endpoint (never across the 95% line), wider for a degraded one.
    const healthy = p.status === 0;
    const swing = healthy ? Math.min(0.9, (100 - p.uptime) * 0.4 + 0.15) : 5;
    const daily = Math.sin((t / DAY) * 2 * Math.PI + index * 1.3);
    const uptime = p.uptime + swing * (0.7 * daily + 0.3 * noise(seed, index, t));
    next.uptime = Math.round(Math.min(100, Math.max(0, inOutage ? outage.uptime + 4 * noise(seed, index + 50, t) : uptime)) * 100) / 100;
    if (inOutage) next.status = outage.status;
    next.latencyMs = Math.round(p.latencyMs * (1 + 0.08 * noise(seed, index + 100, t)));
    next.throughput = Math.max(1, Math.round(p.throughput * (1 + 0.08 * noise(seed, index + 200, t))));
    return next;
  });
}

/** The endpoints response the replica would have answered at `at` (OpenRouter's exact shape). */
export function responseAt(at: Date, end: Date, seed = 1) {
  return endpointsResponse(DEMO_MODEL, providersAt(at, end, seed).map((p, i) => endpointJson(DEMO_MODEL, p, i, 0, true)));
}

/**
 * The replica patches that make the live replica serve the state at the end of the history:
 * DeepInfra's cut price, Together's fp8 and the Nebius endpoint.
 */
export function demoPatches(): Patch[] {
  const { priceCut, quantizationSwitch } = SCRIPTED_EVENTS;
  const cut = DEMO_MODEL.providers.find((p) => p.tag === priceCut.tag);
  if (!cut) throw new Error(`The demo model has no ${priceCut.tag} endpoint`);
  const final = endpointJson(DEMO_MODEL, { ...cut, inputPerM: priceCut.after.in, outputPerM: priceCut.after.out }, 0, 0, true);
  return [
    { model: DEMO_MODEL.id, tag: priceCut.tag, set: { pricing: final.pricing } },
    { model: DEMO_MODEL.id, tag: quantizationSwitch.tag, set: { quantization: quantizationSwitch.after } },
    { model: DEMO_MODEL.id, tag: NEBIUS.tag, set: endpointJson(DEMO_MODEL, NEBIUS, DEMO_MODEL.providers.length, 0, true) },
  ];
}
