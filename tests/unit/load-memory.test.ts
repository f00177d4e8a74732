import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { serverMallocEnv, serverNodeOptions } from "@/scripts/start-options";
import { formatMemoryReport, MemorySampler, processMemoryMb, summarizeMemory, type MemorySample } from "@/scripts/load-memory";

// `npm run load`'s memory report: it reads a real process's memory, keeps its samples and the
// peak, and prints them. No timing is asserted (shared machines are noisy), only what is reported.

describe("the load tool's memory samples", () => {
  it("samples a real process, and its peak covers a spike that ended before the next sample", async () => {
    // A child that touches 150 MB, frees it, then waits to be read.
    const child = spawn(
      process.execPath,
      ["--expose-gc", "-e", "let b = Buffer.alloc(150 * 1024 * 1024, 1); b = null; gc(); process.stdout.write('freed\\n'); setInterval(() => {}, 1000);"],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    try {
      await once(child.stdout!, "data");
      const sampler = new MemorySampler(() => processMemoryMb(child.pid), 60_000); // samples only when asked, below
      sampler.phase = "load";
      sampler.sample();
      sampler.stop();
      expect(sampler.samples).toHaveLength(2); // the one taken at construction, and the one asked for
      expect(sampler.samples[0].phase).toBe("start");
      const rss = sampler.samples[1].rssMb;
      expect(rss).toBeGreaterThan(10);
      expect(rss).toBeLessThan(150); // the buffer was freed
      expect(sampler.peak).toBeGreaterThan(150); // VmHWM remembers it
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("prints every sample, the peak, the after-warm-up and end figures, and the load's first and last thirds", () => {
    const samples: MemorySample[] = [
      { atS: 0, phase: "start", rssMb: 120 },
      { atS: 2, phase: "warm-up", rssMb: 300 },
      ...[310, 320, 330, 340, 350, 360].map((rssMb, i) => ({ atS: 4 + 2 * i, phase: "load", rssMb })),
    ];
    const summary = summarizeMemory(samples, 480);
    // Worked by hand: the load phase is 310..360; its thirds are (310, 320) and (350, 360).
    expect(summary).toEqual({ peakMb: 480, afterWarmUpMb: 310, endMb: 360, window: "third", firstWindowMeanMb: 315, lastWindowMeanMb: 355 });
    const report = formatMemoryReport(samples, 480, 20);
    expect(report.split("\n").filter((line) => / s {2}(start|warm-up|load) /.test(line))).toHaveLength(samples.length);
    expect(report).toContain("  300 MB  ###############\n"); // 300 / 20 bars
    expect(report).toContain("peak 480 MB");
    expect(report).toContain("310 MB after the warm-up, 360 MB at the end");
    expect(report).toContain("mean 315 MB in the first third, 355 MB in the last (+12.7%: NOT flat, more than 10%)");
  });

  it("compares the first and last 10 minutes of a run that lasted 20 minutes or more", () => {
    // 30 minutes of load sampled every 60 s from t = 10 s: 31 samples at 10, 70, ..., 1810 s.
    // First 10 minutes: t < 610, the samples at 10..550 (10 of them, 400 MB each).
    // Last 10 minutes: t > 1210, the samples at 1270..1810 (10 of them, 420 MB each).
    // Between them: 11 samples of 900 MB, which neither window may count.
    const samples: MemorySample[] = [{ atS: 0, phase: "start", rssMb: 150 }];
    for (let i = 0; i <= 30; i++) {
      const atS = 10 + 60 * i;
      samples.push({ atS, phase: i < 10 ? "load" : "load+probe", rssMb: i < 10 ? 400 : i > 20 ? 420 : 900 });
    }
    const summary = summarizeMemory(samples, 950);
    expect(summary).toEqual({ peakMb: 950, afterWarmUpMb: 400, endMb: 420, window: "10 min", firstWindowMeanMb: 400, lastWindowMeanMb: 420 });
    expect(formatMemoryReport(samples, 950)).toContain("mean 400 MB in the first 10 minutes, 420 MB in the last 10 (+5.0%: flat, within 10%)");
  });

  it("starts the server with npm start's heap limits for its engine, and any NODE_OPTIONS already set after them", () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { config: Record<string, string>; scripts: { start: string } };
    expect(pkg.config).toEqual({ heapEmbedded: "--max-old-space-size=192 --max-semi-space-size=8", heapServer: "--max-old-space-size=192 --max-semi-space-size=32" });
    expect(pkg.scripts.start).toContain("$npm_package_config_heapEmbedded");
    expect(pkg.scripts.start).toContain("$npm_package_config_heapServer");
    expect(serverNodeOptions({})).toBe("--max-old-space-size=192 --max-semi-space-size=8");
    expect(serverNodeOptions({ DATABASE_URL: "" })).toBe("--max-old-space-size=192 --max-semi-space-size=8");
    expect(serverNodeOptions({ DATABASE_URL: "postgresql://127.0.0.1/x" })).toBe("--max-old-space-size=192 --max-semi-space-size=32");
    expect(serverNodeOptions({ NODE_OPTIONS: "--max-old-space-size=512" })).toBe("--max-old-space-size=192 --max-semi-space-size=8 --max-old-space-size=512");
  });

  it("npm start itself exports those flags: the embedded ones without DATABASE_URL, the server's with it", () => {
    // The start script up to its `exec next start`, run by npm's own shell with package.json's config.
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: { start: string } };
    const prefix = pkg.scripts.start.replace(/&& exec next start$/, "&& node -e 'process.stdout.write(process.env.NODE_OPTIONS)'");
    expect(prefix).not.toBe(pkg.scripts.start);
    const env = (extra: Record<string, string>) => ({ ...process.env, NODE_OPTIONS: "", DATABASE_URL: "", npm_package_config_heapEmbedded: "", npm_package_config_heapServer: "", ...extra });
    const config = { npm_package_config_heapEmbedded: "--max-old-space-size=192 --max-semi-space-size=8", npm_package_config_heapServer: "--max-old-space-size=192 --max-semi-space-size=32" };
    const run = (extra: Record<string, string>) => execFileSync("sh", ["-c", prefix], { env: env({ ...config, ...extra }), encoding: "utf8" }).trim();
    expect(run({})).toBe("--max-old-space-size=192 --max-semi-space-size=8");
    expect(run({ DATABASE_URL: "postgresql://127.0.0.1/x" })).toBe("--max-old-space-size=192 --max-semi-space-size=32");
    // glibc's malloc settings: two arenas on either engine, fixed trim and mmap thresholds on a
    // PostgreSQL server only, each unless the environment sets its own; the helper the demo, the
    // load and the browser tests start the server with says the same.
    const malloc = pkg.scripts.start.replace(
      /&& exec next start$/,
      `&& node -e 'process.stdout.write(JSON.stringify([process.env.MALLOC_ARENA_MAX, process.env.MALLOC_TRIM_THRESHOLD_ ?? null, process.env.MALLOC_MMAP_THRESHOLD_ ?? null]))'`,
    );
    const bare = { ...process.env };
    for (const name of ["MALLOC_ARENA_MAX", "MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_", "DATABASE_URL"]) delete bare[name];
    const runMalloc = (extra: Record<string, string>) => JSON.parse(execFileSync("sh", ["-c", malloc], { env: { ...bare, ...config, ...extra }, encoding: "utf8" }));
    const server = { DATABASE_URL: "postgresql://127.0.0.1/x" };
    expect(runMalloc({})).toEqual(["2", null, null]);
    expect(runMalloc(server)).toEqual(["2", "131072", "131072"]);
    expect(runMalloc({ ...server, MALLOC_ARENA_MAX: "4", MALLOC_MMAP_THRESHOLD_: "65536" })).toEqual(["4", "131072", "65536"]);
    expect(runMalloc({ MALLOC_TRIM_THRESHOLD_: "0" })).toEqual(["2", "0", null]);
    expect(serverMallocEnv({})).toEqual({ MALLOC_ARENA_MAX: "2" });
    expect(serverMallocEnv(server)).toEqual({ MALLOC_ARENA_MAX: "2", MALLOC_TRIM_THRESHOLD_: "131072", MALLOC_MMAP_THRESHOLD_: "131072" });
    expect(serverMallocEnv({ ...server, MALLOC_ARENA_MAX: "4", MALLOC_TRIM_THRESHOLD_: "0" })).toEqual({ MALLOC_ARENA_MAX: "4", MALLOC_TRIM_THRESHOLD_: "0", MALLOC_MMAP_THRESHOLD_: "131072" });
    expect(serverMallocEnv({ MALLOC_TRIM_THRESHOLD_: "0" })).toEqual({ MALLOC_ARENA_MAX: "2", MALLOC_TRIM_THRESHOLD_: "0" });
    // And npm does set the config variables for its scripts.
    const fromNpm = execFileSync("npm", ["run", "--silent", "env"], { env: env({}), encoding: "utf8" });
    expect(fromNpm).toContain("npm_package_config_heapServer=--max-old-space-size=192 --max-semi-space-size=32");
    expect(fromNpm).toContain("npm_package_config_heapEmbedded=--max-old-space-size=192 --max-semi-space-size=8");
  });
});
