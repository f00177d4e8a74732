import { seededRandom } from "./random";

// The probe's sequential design (issue 19, item 7): a clear case costs less.
//
// The prompts are split at random into waves (three for the built-in 41 prompts: 14, 14, 13). The
// runner sends the requests of one wave, in random order, before any of the next; when a wave is
// settled it looks: each endpoint whose interval over the prompts of the waves so far clears Δ
// (upper bound below it: `equivalent`; lower bound above it: `differs`), or whose answers already
// show another prompt format or provider, is decided there, and its requests of later waves are
// never sent (lib/probe/results.ts decides; the runner and the harness skip). The reference's requests go on while any endpoint that
// needs them is undecided.
//
// Error rates. Look j uses a two-sided interval at level 1 − α_j, with Σ α_j = 0.05 (α = 0.002,
// 0.008, 0.04 for three looks). Whatever the looks' dependence, the chance that any look's interval
// misses the truth is at most Σ α_j (a union bound), so a verdict reached at any look is wrong at most
// as often as the fixed design's single 95% interval is. The design is valid at its planned looks,
// not at arbitrary times: the runner looks only there. Most of α is kept for the last look, so a run
// that needs all its prompts loses little (its interval is 96% instead of 95%).
//
// Small prompt sets have fewer looks: an early look with fewer than about 12 prompts could never
// decide (the verdict needs at least 10 compared prompts), so it would spend α for nothing.

export interface SequentialDesign {
  /** The wave (0-based) of each prompt, by prompt index. */
  waveOfPrompt: number[];
  /** Two-sided α of each look, in order; the last look is the end of the run. */
  alphas: number[];
}

/** α per look for 1, 2 and 3 looks: most of the 0.05 kept for the last. */
const ALPHAS: Record<number, number[]> = { 1: [0.05], 2: [0.005, 0.045], 3: [0.002, 0.008, 0.04] };
/** Prompts per look at least, so that an early look can decide (10 compared prompts, 80% of the wave). */
const MIN_PROMPTS_PER_WAVE = 12;

export function lookCount(promptCount: number): number {
  return Math.max(1, Math.min(3, Math.floor(promptCount / MIN_PROMPTS_PER_WAVE)));
}

/** A run's design: its prompts dealt at random (seeded) into equal waves. */
export function sequentialDesign(promptCount: number, seed: number): SequentialDesign {
  const looks = lookCount(promptCount);
  const random = seededRandom(seed ^ 0x2545f491);
  const order = Array.from({ length: promptCount }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const waveOfPrompt = new Array<number>(promptCount).fill(0);
  order.forEach((prompt, rank) => {
    waveOfPrompt[prompt] = Math.min(looks - 1, Math.floor((rank * looks) / promptCount));
  });
  return { waveOfPrompt, alphas: ALPHAS[looks] };
}

/** Reads a run's stored design; null for runs before the sequential design (one look at 95%). */
export function designOfRun(stored: unknown): SequentialDesign | null {
  if (!stored || typeof stored !== "object") return null;
  const { waveOfPrompt, alphas } = stored as Partial<SequentialDesign>;
  if (!Array.isArray(waveOfPrompt) || !Array.isArray(alphas) || alphas.length === 0) return null;
  return { waveOfPrompt: waveOfPrompt.map(Number), alphas: alphas.map(Number) };
}

export function waveOf(design: SequentialDesign | null, promptIndex: number): number {
  return design ? (design.waveOfPrompt[promptIndex] ?? 0) : 0;
}

/**
 * The sending order: every request of wave 0, shuffled, then wave 1's, and so on. Within a wave the
 * shuffle keeps what the random order is for (replicates never co-timed, the reference's replicates
 * at separated random times).
 */
export function orderInWaves<T extends { promptIndex: number }>(requests: readonly T[], design: SequentialDesign, shuffle: (rs: readonly T[], seed: number) => T[], seed: number): T[] {
  const out: T[] = [];
  for (let wave = 0; wave < design.alphas.length; wave++) {
    out.push(...shuffle(requests.filter((r) => waveOf(design, r.promptIndex) === wave), seed + wave));
  }
  return out;
}

/**
 * After a look: whether a request is no longer needed. An endpoint's own requests once it is
 * decided; the reference's requests of a method once every endpoint compared by that method is.
 */
export function skipAfterLook(
  endpoints: ReadonlyArray<{ tag: string; method: string | null }>,
  referenceTag: string,
  decided: ReadonlyMap<string, number>,
): (r: { tag: string; role: string; method: string }) => boolean {
  const open = new Set(endpoints.filter((e) => e.method && e.tag !== referenceTag && !decided.has(e.tag)).map((e) => e.method));
  return (r) => (r.role === "endpoint" ? decided.has(r.tag) : !open.has(r.method));
}
