import { readFileSync } from "node:fs";

// The server's resident memory over a load run: sampled from /proc every few seconds from the
// moment the server is started (so the database's creation on an empty folder is included), and
// printed as a table with a bar for each sample, the peak and the figures docs/operations.md and bench/memory.md quote.

export interface MemorySample {
  /** Seconds since the sampling began. */
  atS: number;
  /** What the run was doing: "start", "warm-up", "load". */
  phase: string;
  rssMb: number;
}

/** VmRSS and VmHWM (the peak since the process started) of a process from /proc (Linux), in MB. */
export function processMemoryMb(pid: number | undefined): { rss: number; peak: number } | null {
  if (!pid) return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
    const memory = { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
    return Number.isFinite(memory.rss) && Number.isFinite(memory.peak) ? memory : null;
  } catch {
    return null;
  }
}

export class MemorySampler {
  readonly samples: MemorySample[] = [];
  phase = "start";
  private readonly started = performance.now();
  private readonly timer: NodeJS.Timeout;
  private peakMb = 0;

  /** read: the summed memory of the processes watched, or null when it cannot be read (they exited). */
  constructor(
    private readonly read: () => { rss: number; peak: number } | null,
    everyMs: number,
  ) {
    this.timer = setInterval(() => this.sample(), everyMs);
    this.timer.unref();
    this.sample();
  }

  sample(): MemorySample | null {
    const memory = this.read();
    if (!memory) return null;
    this.peakMb = Math.max(this.peakMb, memory.peak, memory.rss);
    const sample = { atS: (performance.now() - this.started) / 1000, phase: this.phase, rssMb: memory.rss };
    this.samples.push(sample);
    return sample;
  }

  /** The highest resident memory since the processes started (VmHWM), which catches what falls between samples. */
  get peak(): number {
    return this.peakMb;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** A run whose load phase lasts at least this long compares its first and last 10 minutes (issue 25's test of growth). */
export const GROWTH_WINDOW_S = 600;

export interface MemorySummary {
  peakMb: number;
  /** The first sample of the load phase: after the warm-up, before the viewers start. */
  afterWarmUpMb: number | null;
  endMb: number | null;
  /**
   * Means of the load phase's first and last windows: its first and last 10 minutes when it lasted
   * 20 minutes or more, else its first and last thirds. Flat when within 10% of each other.
   */
  window: "10 min" | "third";
  firstWindowMeanMb: number | null;
  lastWindowMeanMb: number | null;
}

export function summarizeMemory(samples: MemorySample[], peakMb: number): MemorySummary {
  const load = samples.filter((s) => s.phase.startsWith("load"));
  const mean = (xs: MemorySample[]) => (xs.length ? xs.reduce((a, s) => a + s.rssMb, 0) / xs.length : null);
  const start = load[0]?.atS ?? 0;
  const end = load.at(-1)?.atS ?? 0;
  const long = end - start >= 2 * GROWTH_WINDOW_S;
  const third = Math.floor(load.length / 3);
  const [first, last] = long
    ? [load.filter((s) => s.atS < start + GROWTH_WINDOW_S), load.filter((s) => s.atS > end - GROWTH_WINDOW_S)]
    : [load.slice(0, third), third ? load.slice(-third) : []];
  return {
    peakMb: Math.max(peakMb, ...samples.map((s) => s.rssMb)),
    afterWarmUpMb: load[0]?.rssMb ?? null,
    endMb: samples.at(-1)?.rssMb ?? null,
    window: long ? "10 min" : "third",
    firstWindowMeanMb: mean(first),
    lastWindowMeanMb: mean(last),
  };
}

/** A table of the samples with a bar each (one # per barMb), then the peak and the summary. */
export function formatMemoryReport(samples: MemorySample[], peakMb: number, barMb = 20): string {
  const summary = summarizeMemory(samples, peakMb);
  const lines = ["    time  phase     resident"];
  for (const s of samples) {
    lines.push(`${s.atS.toFixed(1).padStart(7)} s  ${s.phase.padEnd(8)} ${s.rssMb.toFixed(0).padStart(5)} MB  ${"#".repeat(Math.round(s.rssMb / barMb))}`);
  }
  const mb = (x: number | null) => (x === null ? "n/a" : `${x.toFixed(0)} MB`);
  lines.push(
    `peak ${mb(summary.peakMb)} (since the server started, between samples too), ${mb(summary.afterWarmUpMb)} after the warm-up, ${mb(summary.endMb)} at the end`,
  );
  if (summary.firstWindowMeanMb !== null && summary.lastWindowMeanMb !== null) {
    const change = (summary.lastWindowMeanMb / summary.firstWindowMeanMb - 1) * 100;
    const [first, last] = summary.window === "10 min" ? ["first 10 minutes", "last 10"] : ["first third", "last"];
    lines.push(
      `under load: mean ${mb(summary.firstWindowMeanMb)} in the ${first}, ${mb(summary.lastWindowMeanMb)} in the ${last} (${change >= 0 ? "+" : ""}${change.toFixed(1)}%: ${Math.abs(change) <= 10 ? "flat, within 10%" : "NOT flat, more than 10%"})`,
    );
  }
  return lines.join("\n");
}
