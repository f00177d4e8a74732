// Simulated per-prompt KL estimates for testing the probe's power claim, written apart from
// lib/probe (its own generator, its own normal and lognormal draws).
//
// A run compares n prompts; prompt i's estimate is m·h_i + e_i: m is the true mean divergence,
// h_i ≥ 0 how much this prompt moves under the changed model (lognormal with mean 1 and log-sd
// sigmaLog, so the spread over prompts grows in proportion to m, as it does for a quantized
// endpoint: a few prompts sit near a rounding boundary and move a lot), and e_i the estimate's
// own noise after the replicates cancel (normal, mean 0, sd noise·Δ). Each run draws its own h,
// since a run's prompts are a sample of the prompts a team cares about.

export interface KlWorld {
  name: string;
  prompts: number;
  sigmaLog: number;
  /** The sd of a prompt's noise, in units of Δ. */
  noise: number;
}

export function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gaussian(u: () => number): number {
  const u1 = Math.max(u(), 1e-300);
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u());
}

/** One run's per-prompt estimates at true mean divergence m (nats/token), with margin Δ. */
export function drawRun(world: KlWorld, m: number, delta: number, u: () => number): number[] {
  const out: number[] = [];
  for (let i = 0; i < world.prompts; i++) {
    const h = Math.exp(world.sigmaLog * gaussian(u) - (world.sigmaLog * world.sigmaLog) / 2);
    out.push(m * h + world.noise * delta * gaussian(u));
  }
  return out;
}
