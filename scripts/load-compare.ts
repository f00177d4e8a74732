import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { serverNodeOptions } from "./start-options";

// `npm run load:compare`: is the server as fast with npm start's heap limits as without them (or
// with other flags)? It runs `npm run load` several times, alternating the two settings (A, B, A,
// B, ...) so that whatever else the machine is doing falls on both alike, then prints each round
// and the means: requests per second, p95, the server's CPU per request and its memory. A
// benchmark, not a test (issue 25's "speed kept": req/s within 10% of the code before the change).

const HELP = `usage: npm run load:compare -- --against "<node flags>" [--rounds 3] [-- <npm run load options>]
  --against  the Node flags to compare npm start's own with ("" for none: the server before its heap limits)
  --rounds   pairs to run (default 3); each run takes the load's --duration plus its start
  after --, options passed to every run of npm run load (e.g. --duration 60 --database-url ...)`;

const { values, positionals } = parseArgs({
  options: {
    against: { type: "string" },
    rounds: { type: "string", default: "3" },
    help: { type: "boolean", default: false },
  },
  allowPositionals: true,
});
if (values.help || values.against === undefined) {
  console.log(HELP);
  process.exit(values.help ? 0 : 2);
}
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) {
  console.error(`--rounds must be a positive whole number\n${HELP}`);
  process.exit(2);
}

interface Figures {
  reqPerS: number;
  p95Ms: number;
  errors: number;
  cpuMsPerRequest: number | null;
  memory: { peakMb: number; afterWarmUpMb: number | null } | null;
}

const settings = [
  // npm start's flags for the engine the runs use (a --database-url among the load's options: the server's).
  { label: "A (npm start)", flags: serverNodeOptions({ DATABASE_URL: positionals.some((p) => p.startsWith("--database-url")) ? "postgresql://" : "" }) },
  { label: "B (--against)", flags: values.against },
];
const dir = mkdtempSync(path.join(tmpdir(), "routeboard-load-compare-"));
const results: Array<{ round: number; label: string; flags: string; figures: Figures }> = [];
try {
  for (let round = 1; round <= rounds; round++) {
    for (const { label, flags } of settings) {
      const json = path.join(dir, `${round}-${label[0]}.json`);
      console.log(`[compare] round ${round}/${rounds}, ${label}: NODE_OPTIONS="${flags}"`);
      const run = spawnSync(
        path.resolve("node_modules/.bin/tsx"),
        ["--conditions=react-server", "scripts/load.ts", ...positionals, `--server-node-options=${flags}`, "--json", json],
        { stdio: ["ignore", "ignore", "inherit"] },
      );
      if (run.status !== 0) {
        console.error(`[compare] npm run load failed (exit ${run.status}); stopping`);
        process.exit(1);
      }
      results.push({ round, label, flags, figures: JSON.parse(readFileSync(json, "utf8")) as Figures });
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const fixed = (x: number | null | undefined, digits = 0) => (x === null || x === undefined ? "n/a" : x.toFixed(digits));
const rows = [["round", "setting", "req/s", "p95 ms", "CPU ms/req", "errors", "after warm-up MB", "peak MB"]];
for (const r of results) {
  const f = r.figures;
  rows.push([String(r.round), r.label, fixed(f.reqPerS, 1), fixed(f.p95Ms), fixed(f.cpuMsPerRequest, 2), String(f.errors), fixed(f.memory?.afterWarmUpMb), fixed(f.memory?.peakMb)]);
}
const mean = (label: string, pick: (f: Figures) => number | null | undefined) => {
  const xs = results.filter((r) => r.label === label).map((r) => pick(r.figures)).filter((x): x is number => typeof x === "number");
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
};
for (const { label } of settings) {
  rows.push(["mean", label, fixed(mean(label, (f) => f.reqPerS), 1), fixed(mean(label, (f) => f.p95Ms)), fixed(mean(label, (f) => f.cpuMsPerRequest), 2), fixed(mean(label, (f) => f.errors), 1), fixed(mean(label, (f) => f.memory?.afterWarmUpMb)), fixed(mean(label, (f) => f.memory?.peakMb))]);
}
const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
console.log("");
for (const r of rows) console.log(r.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join("  "));
const a = mean(settings[0].label, (f) => f.reqPerS);
const b = mean(settings[1].label, (f) => f.reqPerS);
if (a !== null && b !== null) {
  const change = (a / b - 1) * 100;
  console.log(
    `\n[compare] npm start's flags give ${change >= 0 ? "+" : ""}${change.toFixed(1)}% req/s against B over ${rounds} alternating pair(s): ` +
      `${Math.abs(change) <= 10 || change > 0 ? "within the 10% target" : "NOT within the 10% target"}. ` +
      "One pair on a shared machine cannot tell 10% from noise; compare the rounds with each other.",
  );
}
