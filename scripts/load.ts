import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startReplica, type Replica } from "../replica/server";
import { freePort } from "../tests/helpers/ports";
import { formatMemoryReport, MemorySampler, processMemoryMb, summarizeMemory } from "./load-memory";
import { serverMallocEnv, serverNodeOptions } from "./start-options";

// `npm run load`: N concurrent viewers over a model's page and its APIs for a while, with poll
// cycles running underneath, then throughput, latency percentiles and errors. Without --url it
// starts its own server (the production build, the replica, a temporary embedded database).
// A benchmark, not a test: it only talks to loopback addresses.

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

const HELP = `usage: npm run load -- [--viewers 50] [--duration 30] [--poll-every 10] [--model moonshotai/kimi-k2.5]
                     [--think-ms 0] [--url http://127.0.0.1:3000 | --database-url postgresql://...@127.0.0.1/db [--instances 2]]
                     [--cron-secret S] [--basic user:password] [--sample-every 2] [--probe]
                     [--server-node-options "<flags>"] [--json FILE]
  --sample-every  seconds between samples of the server's resident memory (from its start)
  --server-node-options  the Node flags of the server this script starts, instead of npm start's own
                  (e.g. "" for none: how the code ran before its heap limits); see npm run load:compare
  --json FILE     also write the figures to FILE as JSON
  --probe         start a fidelity probe run of the model (its default plan, against the replica) when
                  the viewers start, so the figures include a probe in progress; its progress is reported
  --think-ms      mean pause of each viewer between requests, jittered (0: a closed loop, as fast as answers come)
  --database-url  the server this script starts uses this PostgreSQL server instead of an embedded one
  --instances     with --database-url: start this many servers on it and spread the viewers over them
                  round-robin, as a load balancer in front of them would (the embedded database
                  belongs to one process, so one instance without --database-url)`;

const { values } = parseArgs({
  options: {
    viewers: { type: "string", default: "50" },
    duration: { type: "string", default: "30" },
    "poll-every": { type: "string", default: "10" },
    model: { type: "string", default: "moonshotai/kimi-k2.5" },
    url: { type: "string" },
    "think-ms": { type: "string", default: "0" },
    "database-url": { type: "string" },
    instances: { type: "string", default: "1" },
    "cron-secret": { type: "string" },
    basic: { type: "string" },
    "sample-every": { type: "string", default: "2" },
    probe: { type: "boolean", default: false },
    "server-node-options": { type: "string" },
    json: { type: "string" },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
const viewers = positiveInt(values.viewers, "viewers");
const durationS = positiveInt(values.duration, "duration");
const pollEveryS = positiveInt(values["poll-every"], "poll-every");
const model = values.model;
const instances = positiveInt(values.instances, "instances");
const sampleEveryS = positiveInt(values["sample-every"], "sample-every");
if (instances > 1 && !values["database-url"]) {
  console.error(`--instances above 1 needs --database-url: the embedded database belongs to one process\n${HELP}`);
  process.exit(2);
}
const thinkMs = Number(values["think-ms"]);
if (!Number.isFinite(thinkMs) || thinkMs < 0) {
  console.error(`--think-ms must be 0 or more\n${HELP}`);
  process.exit(2);
}
if (values["database-url"] && !LOOPBACK_HOSTS.has(new URL(values["database-url"]).hostname)) {
  console.error("--database-url must point at a loopback address");
  process.exit(2);
}

function positiveInt(value: string | undefined, name: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--${name} must be a positive whole number\n${HELP}`);
    process.exit(2);
  }
  return n;
}


interface Target {
  /** One URL per server instance; viewers are spread over them. */
  urls: string[];
  stop(): Promise<void>;
  /** CPU time (ms) the server process has used so far, when it is ours and /proc can tell. */
  cpuMs?(): number | null;
  /** Resident memory of the server processes, sampled from their start, when /proc can tell. */
  memory?: MemorySampler;
}

/** utime + stime of a process from /proc (Linux), in milliseconds. */
function processCpuMs(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 1/100 s
  } catch {
    return null;
  }
}

async function ownServers(count: number): Promise<Target> {
  if (!existsSync(".next/BUILD_ID")) {
    console.error("No production build: run `npm run build` first (or pass --url of a running server).");
    process.exit(2);
  }
  const replica = await startReplica();
  const dataDir = mkdtempSync(path.join(tmpdir(), "routeboard-load-"));
  const servers: Array<{ url: string; child: ChildProcess }> = [];
  const summed = () => {
    const each = servers.map((s) => processMemoryMb(s.child.pid));
    if (each.length === 0 || each.some((m) => m === null)) return null;
    return { rss: each.reduce((a, m) => a + m!.rss, 0), peak: each.reduce((a, m) => a + m!.peak, 0) };
  };
  let memory: MemorySampler | undefined;
  for (let i = 0; i < count; i++) {
    const server = await spawnServer(replica, dataDir);
    servers.push(server);
    memory ??= new MemorySampler(summed, sampleEveryS * 1000); // from the start: the database's creation counts
    await serverReady(server);
  }
  const database = values["database-url"] ? "PostgreSQL server" : `embedded database in ${dataDir}`;
  console.log(
    `[load] started ${count === 1 ? "the production build" : `${count} instances of the production build`} at ${servers.map((s) => s.url).join(", ")} (replica ${replica.baseUrl}, ${database})`,
  );
  return {
    urls: servers.map((s) => s.url),
    memory,
    cpuMs: () => {
      const each = servers.map((s) => processCpuMs(s.child.pid));
      return each.every((ms) => ms !== null) ? each.reduce((a, b) => a + (b ?? 0), 0) : null;
    },
    stop: async () => {
      await Promise.all(
        servers.map(({ child }) => {
          const exited = new Promise((resolve) => child.once("exit", resolve));
          child.kill("SIGTERM");
          return exited;
        }),
      );
      await replica.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function spawnServer(replica: Replica, dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [path.resolve("node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"], {
    env: {
      ...process.env,
      OPENROUTER_BASE_URL: replica.baseUrl,
      OPENROUTER_API_KEY: "load-test-key-for-the-replica",
      EMBEDDED_DB_DIR: dataDir,
      DATABASE_URL: values["database-url"] ?? "",
      POLL_INTERVAL_SECONDS: "0",
      WATCHED_MODELS: model,
      BASIC_AUTH: "",
      CRON_SECRET: "",
      NEXT_TELEMETRY_DISABLED: "1",
      NODE_OPTIONS: values["server-node-options"] ?? serverNodeOptions({ DATABASE_URL: values["database-url"], NODE_OPTIONS: process.env.NODE_OPTIONS }),
      ...serverMallocEnv({ ...process.env, DATABASE_URL: values["database-url"] }),
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

async function serverReady({ url, child }: { url: string; child: ChildProcess }): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (!(await fetch(`${url}/api/health`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error("The server did not start");
    await new Promise((r) => setTimeout(r, 250));
  }
}

const headers: Record<string, string> = {};
if (values.basic) headers.authorization = `Basic ${Buffer.from(values.basic).toString("base64")}`;

interface Stats {
  latencies: number[];
  errors: number;
  errorSamples: string[];
}
const stats = new Map<string, Stats>();
function record(name: string, ms: number, error?: string) {
  const s = stats.get(name) ?? { latencies: [], errors: 0, errorSamples: [] };
  s.latencies.push(ms);
  if (error) {
    s.errors++;
    if (s.errorSamples.length < 3) s.errorSamples.push(error);
  }
  stats.set(name, s);
}

/** What a browser sends when it loads a page (the APIs are fetched by the page's scripts, which accept anything). */
const PAGE_LOAD: Record<string, string> = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "sec-fetch-dest": "document",
  "sec-fetch-mode": "navigate",
};

async function timed(name: string, url: string, init: RequestInit = {}): Promise<void> {
  const start = performance.now();
  const pageLoad = !new URL(url).pathname.startsWith("/api/");
  try {
    const response = await fetch(url, { ...init, headers: { ...(pageLoad ? PAGE_LOAD : {}), ...headers, ...(init.headers ?? {}) } });
    await response.arrayBuffer();
    record(name, performance.now() - start, response.ok ? undefined : `HTTP ${response.status}`);
  } catch (err) {
    record(name, performance.now() - start, (err as Error).message);
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface ProbeWatch {
  /** Stops watching; says how far the run got and when it finished. */
  stop(): Promise<string>;
}

/**
 * Starts a probe run of the model with its default plan (`POST /api/models/…/probes`) and follows
 * its progress every 2 s; while it runs, the memory samples are marked "load+probe".
 */
async function startProbe(base: string): Promise<ProbeWatch> {
  const response = await fetch(`${base}/api/models/${model}/probes`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ maxCostUsd: "2.00" }), // the page's default cap
  });
  const body = (await response.json().catch(() => null)) as { id?: number; estimateUsd?: string; error?: unknown } | null;
  if (response.status !== 202 || typeof body?.id !== "number") {
    console.error(`[load] --probe: the probe run could not start (HTTP ${response.status}: ${JSON.stringify(body?.error ?? body)})`);
    await target.stop();
    process.exit(1);
  }
  const id = body.id;
  const startedAt = performance.now();
  console.log(`[load] probe run ${id} started (estimate $${body.estimateUsd})`);
  let last: { status: string; done: number; total: number; skipped?: number } = { status: "queued", done: 0, total: 0 };
  let finishedAfterS: number | null = null;
  let watching = true;
  const setPhase = (phase: string) => {
    if (target.memory) target.memory.phase = phase;
  };
  setPhase("load+probe");
  const watcher = (async () => {
    while (watching) {
      const view = await fetch(`${base}/api/probes/${id}`, { headers })
        .then((r) => (r.ok ? (r.json() as Promise<{ status: string; progress: { done: number; total: number; skipped?: number } }>) : null))
        .catch(() => null);
      if (view) {
        last = { status: view.status, ...view.progress };
        if (!["queued", "running"].includes(view.status) && finishedAfterS === null) {
          finishedAfterS = (performance.now() - startedAt) / 1000;
          setPhase("load");
        }
      }
      await pause(2000);
    }
  })();
  return {
    stop: async () => {
      watching = false;
      await watcher;
      // `done` counts every settled request: answered, failed, or not needed after an early look.
      const progress = `${last.done} of ${last.total} requests settled${last.skipped ? ` (${last.skipped} not needed: decided early)` : ""}`;
      return finishedAfterS === null
        ? `probe run ${id}: still ${last.status} when the load ended, ${progress}`
        : `probe run ${id}: ${last.status} after ${finishedAfterS.toFixed(0)} s, ${progress}`;
    },
  };
}

const target: Target = values.url ? { urls: [values.url.replace(/\/+$/, "")], stop: async () => undefined } : await ownServers(instances);
const host = new URL(target.urls[0]).hostname;
if (!LOOPBACK_HOSTS.has(host)) {
  console.error(`--url must be a loopback address (127.0.0.1, localhost, ::1), not ${host}`);
  await target.stop();
  process.exit(2);
}

const pollHeaders: Record<string, string> = values["cron-secret"] ? { authorization: `Bearer ${values["cron-secret"]}` } : {};
const routes: Array<[string, string]> = [
  ["model page", `/models/${model}`], // loaded as a browser loads a page (see PAGE_LOAD)
  ["providers API", `/api/models/${model}/providers`],
  ["models API", `/api/models`],
  // What the page's own scripts fetch after it loads, and what a pipeline fetches.
  ["series API (uptime 24 h)", `/api/models/${model}/series?metric=uptime30m&range=24h`],
  ["changes API", `/api/models/${model}/changes`],
  ["routing API", `/api/models/${model}/routing?xq=int4,fp4,mxfp4,nvfp4&xp=fireworks&upmin=95`],
];
const pollUrl = `${target.urls[0]}/api/poll`;

// One poll first, so the pages have a snapshot to show; then every route once on every instance,
// so the figures are of servers in service, not of their first requests loading code.
if (target.memory) target.memory.phase = "warm-up";
await timed("warm-up", pollUrl, { method: "POST", headers: pollHeaders });
for (const base of target.urls) for (const [, route] of routes) await timed("warm-up", base + route);
stats.delete("warm-up");

console.log(
  `[load] ${viewers} viewers (think time ${thinkMs} ms) for ${durationS} s over ${model}, a poll cycle every ${pollEveryS} s`,
);
const cpuBefore = target.cpuMs?.() ?? null;
if (target.memory) {
  target.memory.phase = "load";
  target.memory.sample(); // the after-warm-up figure
}
const probe = values.probe ? await startProbe(target.urls[0]) : null;
const ownCpuBefore = process.cpuUsage();
const started = performance.now();
const endAt = started + durationS * 1000;
let polls = 0;
const poller = (async () => {
  while (performance.now() < endAt) {
    const next = performance.now() + pollEveryS * 1000;
    await timed("poll cycle (POST /api/poll)", pollUrl, { method: "POST", headers: pollHeaders });
    polls++;
    await new Promise((r) => setTimeout(r, Math.max(0, Math.min(next, endAt) - performance.now())));
  }
})();
const viewer = async (index: number) => {
  const base = target.urls[index % target.urls.length]; // round-robin, as a load balancer would
  let i = index % routes.length; // viewers start on different routes
  // With a think time, viewers arrive spread over it and pause 0.5–1.5× of it, as people do,
  // instead of all clicking in the same millisecond.
  if (thinkMs) await pause(Math.random() * thinkMs);
  while (performance.now() < endAt) {
    const [name, route] = routes[i++ % routes.length];
    await timed(name, base + route);
    if (thinkMs) await pause(thinkMs * (0.5 + Math.random()));
  }
};
await Promise.all([poller, ...Array.from({ length: viewers }, (_, i) => viewer(i))]);
const elapsedS = (performance.now() - started) / 1000;
const probeReport = probe ? await probe.stop() : null;
const cpuAfter = target.cpuMs?.() ?? null;
target.memory?.sample(); // the end figure
target.memory?.stop();
const ownCpu = process.cpuUsage(ownCpuBefore);
await target.stop();

const rows: string[][] = [["", "requests", "errors", "req/s", "p50 ms", "p95 ms", "p99 ms", "max ms"]];
const all: number[] = [];
let allErrors = 0;
for (const [name, s] of stats) {
  const sorted = [...s.latencies].sort((a, b) => a - b);
  if (!name.startsWith("poll")) {
    all.push(...sorted);
    allErrors += s.errors;
  }
  rows.push(row(name, sorted, s.errors));
}
all.sort((a, b) => a - b);
rows.push(row("all viewer requests", all, allErrors));

function row(name: string, sorted: number[], errors: number): string[] {
  return [
    name,
    String(sorted.length),
    String(errors),
    (sorted.length / elapsedS).toFixed(1),
    percentile(sorted, 50).toFixed(0),
    percentile(sorted, 95).toFixed(0),
    percentile(sorted, 99).toFixed(0),
    (sorted[sorted.length - 1] ?? NaN).toFixed(0),
  ];
}
const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
console.log(`\n[load] ${elapsedS.toFixed(1)} s, ${viewers} viewers, ${polls} poll cycles\n`);
for (const r of rows) console.log(r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join("  "));
for (const [name, s] of stats) for (const e of s.errorSamples) console.log(`  error (${name}): ${e}`);
if (cpuBefore !== null && cpuAfter !== null && all.length) {
  const cpu = cpuAfter - cpuBefore;
  console.log(
    `\n[load] server CPU: ${(cpu / 1000).toFixed(1)} s over ${elapsedS.toFixed(1)} s (${((cpu / 1000 / elapsedS) * 100).toFixed(0)}% of one core), ` +
      `${(cpu / all.length).toFixed(1)} ms per viewer request (polls included): about ${Math.floor(all.length / (cpu / 1000))} req/s on a core of its own`,
  );
}
if (target.memory?.samples.length) {
  console.log(`\n[load] server memory (resident, every ${sampleEveryS} s from the server's start):\n${formatMemoryReport(target.memory.samples, target.memory.peak)}`);
}
{
  // The generator shares the machine with the server: what it uses is taken from the server.
  const ms = (ownCpu.user + ownCpu.system) / 1000;
  console.log(
    `[load] load generator CPU: ${(ms / 1000).toFixed(1)} s (${((ms / 1000 / elapsedS) * 100).toFixed(0)}% of one core), ${(ms / Math.max(1, all.length)).toFixed(2)} ms per request`,
  );
}
if (probeReport) console.log(`\n[load] ${probeReport}`);
const p95 = percentile(all, 95);
console.log(
  `\n[load] target: zero errors and p95 under 300 ms → ${allErrors === 0 && p95 < 300 ? "met" : "not met"} (errors ${allErrors}, p95 ${p95.toFixed(0)} ms)`,
);
if (values.json) {
  const cpuMsPerRequest = cpuBefore !== null && cpuAfter !== null && all.length ? (cpuAfter - cpuBefore) / all.length : null;
  const figures = {
    serverNodeOptions: values.url ? null : (values["server-node-options"] ?? serverNodeOptions({ DATABASE_URL: values["database-url"], NODE_OPTIONS: process.env.NODE_OPTIONS })),
    malloc: values.url ? null : serverMallocEnv({ ...process.env, DATABASE_URL: values["database-url"] }),
    viewers,
    durationS: elapsedS,
    requests: all.length,
    errors: allErrors,
    reqPerS: all.length / elapsedS,
    p95Ms: p95,
    cpuMsPerRequest,
    memory: target.memory ? summarizeMemory(target.memory.samples, target.memory.peak) : null,
    probe: probeReport,
  };
  writeFileSync(values.json, JSON.stringify(figures, null, 2) + "\n");
}
process.exit(0);
