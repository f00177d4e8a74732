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

export interface MemorySummary {
  peakMb: number;
  /** The first sample of the load phase: after the warm-up, before the viewers start. */
  afterWarmUpMb: number | null;
  endMb: number | null;
  /** Means of the load phase's first and last thirds (flat when within 10% of each other). */
  firstThirdMeanMb: number | null;
  lastThirdMeanMb: number | null;
}

export function summarizeMemory(samples: MemorySample[], peakMb: number): MemorySummary {
  const load = samples.filter((s) => s.phase === "load");
  const mean = (xs: MemorySample[]) => (xs.length ? xs.reduce((a, s) => a + s.rssMb, 0) / xs.length : null);
  const third = Math.floor(load.length / 3);
  return {
    peakMb: Math.max(peakMb, ...samples.map((s) => s.rssMb)),
    afterWarmUpMb: load[0]?.rssMb ?? null,
    endMb: samples.at(-1)?.rssMb ?? null,
    firstThirdMeanMb: third ? mean(load.slice(0, third)) : null,
    lastThirdMeanMb: third ? mean(load.slice(-third)) : null,
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
  if (summary.firstThirdMeanMb !== null && summary.lastThirdMeanMb !== null) {
    const change = (summary.lastThirdMeanMb / summary.firstThirdMeanMb - 1) * 100;
    lines.push(
      `under load: mean ${mb(summary.firstThirdMeanMb)} in the first third, ${mb(summary.lastThirdMeanMb)} in the last (${change >= 0 ? "+" : ""}${change.toFixed(1)}%)`,
    );
  }
  return lines.join("\n");
}
