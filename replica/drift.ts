import Decimal from "decimal.js";
import { seededRandom } from "../lib/probe/random";

// Drift: in the demo, the replica keeps changing a little, so that every poll brings something
// new, as OpenRouter does. Off unless asked for (startReplica's `drift` option, or
// POST /__replica/drift): the tests' replica serves its recorded data. Deterministic: the same
// seed gives the same sequence of changes, one step per endpoints answer.
//
// Each step, on every endpoint whose status is 0:
//   - the uptimes move along a slow wave of at most ±0.6 points (never across the 95% line for
//     the recorded healthy providers);
// and on one of them, picked by the seeded generator, the input or the output price moves by 1
// or 2 cents per million tokens, staying within 10% of the recorded price. So every poll in the
// demo records one price change in the change log.
//
// With `focus` tags (the demo: the endpoints its seeded saved view includes), every even step's
// price move lands on one of them, so any two polls in a row change an endpoint the view includes
// and its alerts say so. `step` and `priceOffsets` resume a drift where a stored state left it
// (replica/demo-live.ts: a restarted demo continues from its database instead of starting over).

export interface DriftOptions {
  seed?: number;
  focus?: string[];
  step?: number;
  priceOffsets?: Record<string, number>;
}

export interface DriftState {
  seed: number;
  step: number;
  /** Cents per million tokens added to a recorded price, by "model|tag|prompt" or "model|tag|completion". */
  priceOffsets: Record<string, number>;
  /** Tags that every even step's price move picks from (when one of them is healthy and priced). */
  focus: string[];
}

export function createDrift(options: DriftOptions = {}): DriftState {
  return { seed: options.seed ?? 1, step: options.step ?? 0, priceOffsets: { ...options.priceOffsets }, focus: [...(options.focus ?? [])] };
}

type EndpointObject = Record<string, unknown>;
type Side = "prompt" | "completion";
const MILLION = 1_000_000;

function perMillion(pricing: unknown, side: Side): Decimal | null {
  const value = (pricing as Record<string, unknown> | undefined)?.[side];
  return typeof value === "string" && /^\d+(\.\d+)?(e-?\d+)?$/i.test(value) ? new Decimal(value).times(MILLION) : null;
}

/** Moves the endpoints of one answer by the next drift step (in place). */
export function applyDrift(modelId: string, endpoints: EndpointObject[], drift: DriftState): void {
  const step = drift.step++;
  const random = seededRandom(drift.seed * 7919 + step);
  const healthy = endpoints.filter((e) => e.status === 0);

  // The step's price move: one endpoint, one side, ±1 or ±2 cents, bounded to ±10% of the price.
  const priced = healthy.filter((e) => perMillion(e.pricing, "prompt") && perMillion(e.pricing, "completion"));
  const focused = priced.filter((e) => drift.focus.includes(String(e.tag)));
  const candidates = step % 2 === 0 && focused.length > 0 ? focused : priced;
  if (candidates.length > 0) {
    const target = candidates[Math.floor(random() * candidates.length)];
    const side: Side = random() < 0.5 ? "prompt" : "completion";
    const key = `${modelId}|${String(target.tag)}|${side}`;
    const base = perMillion(target.pricing, side) ?? new Decimal(0);
    const limit = base.times(10).floor().toNumber(); // 10% of the price, in cents
    const current = drift.priceOffsets[key] ?? 0;
    let delta = (random() < 0.5 ? -1 : 1) * (random() < 0.5 ? 1 : 2);
    if (Math.abs(current + delta) > limit) delta = -delta;
    drift.priceOffsets[key] = current + delta;
  }

  endpoints.forEach((e, index) => {
    if (e.status === 0) {
      const wave = 0.6 * Math.sin(step * 0.35 + index * 1.9);
      for (const field of ["uptime_last_5m", "uptime_last_30m", "uptime_last_1d"]) {
        const value = e[field];
        if (typeof value === "number") e[field] = Math.round(Math.min(100, Math.max(0, value + wave)) * 100) / 100;
      }
    }
    const pricing = e.pricing as Record<string, unknown> | undefined;
    if (!pricing) return;
    const moved = { ...pricing };
    for (const side of ["prompt", "completion"] as const) {
      const offset = drift.priceOffsets[`${modelId}|${String(e.tag)}|${side}`];
      const base = perMillion(pricing, side);
      if (offset && base) moved[side] = base.plus(new Decimal(offset).div(100)).div(MILLION).toFixed();
    }
    e.pricing = moved;
  });
}
