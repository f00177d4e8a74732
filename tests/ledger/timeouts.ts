import { readFileSync } from "node:fs";
import path from "node:path";
import type { LedgerRecord, TestTimesRecord } from "./ledger";

// Run by `.ci/run` after the ledger check: each test's timeout against the longest it took in
// this run (over both passes), so that a timeout stays about 2-3 times what a test needs on the
// machine, not ten times. Prints the tests outside 1.5-5x, the longest first; never fails the run
// (the durations are one noisy run's), but the table is the one to read before changing a timeout.
// `npx tsx tests/ledger/timeouts.ts <ledger folder> [--all]`.

const dir = process.argv[2];
if (!dir) throw new Error("usage: tsx tests/ledger/timeouts.ts <ledger folder> [--all]");
const all = process.argv.includes("--all");

const records = readFileSync(path.join(dir, "ledger.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as LedgerRecord)
  .filter((r): r is TestTimesRecord => r.kind === "test-times");

const byTest = new Map<string, { file: string; name: string; durationMs: number; timeoutMs: number }>();
for (const record of records) {
  for (const t of record.tests) {
    const key = `${t.file} › ${t.name}`;
    const seen = byTest.get(key);
    if (!seen || t.durationMs > seen.durationMs) byTest.set(key, { ...t, timeoutMs: Math.max(t.timeoutMs, seen?.timeoutMs ?? 0) });
  }
}

const rows = [...byTest.values()].map((t) => ({ ...t, ratio: t.timeoutMs / Math.max(t.durationMs, 1) }));
// Tests under a second are left alone: their timeout is the runner's default, and a second's
// worth of test at 60x its need costs nothing when it passes.
const outside = rows.filter((r) => all || (r.durationMs >= 1_000 && (r.ratio < 1.5 || r.ratio > 5)));
outside.sort((a, b) => b.durationMs - a.durationMs);
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
console.log(`Timeouts against need: ${rows.length} tests timed; ${outside.length} ${all ? "listed" : "of those over 1 s outside 1.5-5x their longest time"}.`);
if (outside.length > 0) {
  console.log("| test | longest | timeout | ratio |\n| --- | --- | --- | --- |");
  for (const r of outside) console.log(`| ${r.file} › ${r.name} | ${s(r.durationMs)} | ${s(r.timeoutMs)} | ${r.ratio.toFixed(1)}x |`);
}
