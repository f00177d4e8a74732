import { readLedger, type TestTimesRecord } from "./ledger";

// Run by `.ci/run` before the ledger check: each test's timeout against the longest it took in
// this run (over both passes), so that a timeout stays about 2-3 times what a test needs on the
// machine, not ten times (docs/testing.md). Prints the tests over a second whose timeout is under
// 1.5x their time, or over 5x and above the runner's floor (Vitest 20 s, Playwright 60 s: a short
// test under the floor is as the rule intends), the longest first. Never fails the run (the times
// are one noisy run's), but the table is the one to read before changing a timeout.
// `npx tsx tests/ledger/timeouts.ts <ledger folder> [--all]`.

const dir = process.argv[2];
if (!dir) throw new Error("usage: tsx tests/ledger/timeouts.ts <ledger folder> [--all]");
const all = process.argv.includes("--all");

const records = readLedger(dir).filter((r): r is TestTimesRecord => r.kind === "test-times");
const FLOOR_MS = { vitest: 20_000, playwright: 60_000 };

const byTest = new Map<string, { file: string; name: string; durationMs: number; timeoutMs: number; floorMs: number }>();
for (const record of records) {
  for (const t of record.tests) {
    const key = `${t.file} › ${t.name}`;
    const seen = byTest.get(key);
    if (!seen || t.durationMs > seen.durationMs) byTest.set(key, { ...t, timeoutMs: Math.max(t.timeoutMs, seen?.timeoutMs ?? 0), floorMs: FLOOR_MS[record.runner] });
  }
}

const rows = [...byTest.values()].map((t) => ({ ...t, ratio: t.timeoutMs / Math.max(t.durationMs, 1) }));
const outside = rows.filter((r) => all || (r.durationMs >= 1_000 && (r.ratio < 1.5 || (r.ratio > 5 && r.timeoutMs > r.floorMs))));
outside.sort((a, b) => b.durationMs - a.durationMs);
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
console.log(`Timeouts against need: ${rows.length} tests timed; ${outside.length} ${all ? "listed" : "of those over 1 s under 1.5x their longest time, or over 5x and above the floor"}.`);
if (outside.length > 0) {
  console.log("| test | longest | timeout | ratio |\n| --- | --- | --- | --- |");
  for (const r of outside) console.log(`| ${r.file} › ${r.name} | ${s(r.durationMs)} | ${s(r.timeoutMs)} | ${r.ratio.toFixed(1)}x |`);
}
