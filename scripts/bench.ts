// `npm run bench`: Routeboard's history at a year's scale. Generates a year of 5-minute polls for
// 15 endpoints of one SYNTHETIC model (about 1.6M endpoint rows, made up, labelled synthetic)
// into a scratch database, then measures what the history feature costs. Runs on the embedded
// engine (PGlite in a temporary folder) and, when DATABASE_URL or TEST_DATABASE_URL is set, on
// that PostgreSQL server in a scratch database created and dropped here. Not part of `npm test`.
// Writes bench/results.md.
import os from "node:os";
import type { OpenedDb } from "../lib/db/engines";
import { benchOnEngines } from "./bench-engines";
import { listChanges } from "../lib/history/change-log";
import { RANGES, type Metric } from "../lib/history/buckets";
import { rollupHistory } from "../lib/history/rollup";
import { modelSeries } from "../lib/history/series";
import { endpointsResponseSchema } from "../lib/openrouter/schemas";
import { normaliseEndpoints, type NormalisedSnapshot } from "../lib/poller/normalise";
import { writeSnapshot } from "../lib/poller/store";
import { latestProviders } from "../lib/queries/providers";

const MODEL = "synthetic/bench-model";
const ENDPOINTS = 15;
const DAYS = Number(process.env.BENCH_DAYS ?? 365); // fewer for a quick smoke run
const RETENTION_DAYS = 30;
const SERIES_CALLS = 40;
const PAGE_CALLS = 20;
const WRITE_CALLS = 10;

// Bench configuration comes from the command line's environment, like any CLI tool's.

function syntheticResponse(poll: number) {
  const providers = Array.from({ length: ENDPOINTS }, (_, i) => ({
    provider: `Synthetic Provider ${String.fromCharCode(65 + i)}`,
    tag: `synthetic-${String.fromCharCode(97 + i)}/${i % 3 === 0 ? "fp8" : "int4"}`,
  }));
  return endpointsResponseSchema.parse({
    data: {
      id: MODEL,
      name: "Synthetic: bench model (not real data)",
      endpoints: providers.map((p, i) => ({
        name: `${p.provider} | ${MODEL}`,
        model_id: MODEL,
        provider_name: p.provider,
        tag: p.tag,
        context_length: 262144,
        max_completion_tokens: 65536,
        pricing: { prompt: String((0.4 + i * 0.02) / 1e6), completion: String((2 + i * 0.1) / 1e6), input_cache_read: "0.0000001" },
        quantization: i % 3 === 0 ? "fp8" : "int4",
        status: 0,
        uptime_last_5m: 99 - (i % 4) + ((poll * 7) % 10) / 10,
        uptime_last_30m: 99 - (i % 4) + ((poll * 3) % 10) / 10,
        uptime_last_1d: 99 - (i % 4),
        latency_last_30m: { p50: 800 + i * 40, p75: 1000, p90: 1400, p99: 2500 },
        throughput_last_30m: { p50: 30 + i, p75: 25, p90: 20, p99: 10 },
        supported_parameters: ["max_tokens", "temperature", "tools"],
        supports_implicit_caching: true,
      })),
    },
  });
}

interface Stats {
  p50: number;
  p95: number;
  n: number;
}

async function time(n: number, fn: () => Promise<unknown>): Promise<Stats> {
  await fn(); // warm-up, not counted
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.ceil(q * samples.length) - 1)];
  return { p50: at(0.5), p95: at(0.95), n };
}

async function once(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

interface EngineResult {
  engine: string;
  version: string;
  rows: number;
  generateMs: number;
  bytesPerRow: number;
  tableBytes: number;
  rollupAllMs: number;
  rollupSteadyMs: number;
  hourlyRows: number;
  hourlyBytesPerRow: number;
  rawAfter: number;
  series: Array<{ range: string; metric: Metric; stats: Stats }>;
  page: Stats;
  pageWithHistory: Stats;
  write: Stats;
}

async function runOn(name: string, opened: OpenedDb): Promise<EngineResult> {
  const { db } = opened;
  const log = (msg: string) => console.log(`[bench ${name}] ${msg}`);
  const [{ version }] = await db.$queryRaw<Array<{ version: string }>>`SELECT version()`;
  await db.watchedModel.create({ data: { id: MODEL, name: "Synthetic: bench model (not real data)" } });
  const cycle = await db.pollCycle.create({ data: { trigger: "bench", startedAt: new Date() } });

  const now = new Date();
  const start = new Date(now.getTime() - DAYS * 86_400_000);
  const write = (snapshot: NormalisedSnapshot, observedAt: Date) =>
    writeSnapshot(db, snapshot, { cycleId: cycle.id, modelId: MODEL, startedAt: observedAt, observedAt, attempts: 1, demo: true, raw: "{}", rawJson: { synthetic: true, at: observedAt.toISOString() } });

  // The endpoints and their versions through the real writer, then a year of polls in SQL.
  await write(normaliseEndpoints(syntheticResponse(0)), start);
  log("generating a year of 5-minute polls in SQL ...");
  const generateMs = await once(async () => {
    await db.$executeRaw`
      INSERT INTO "ModelPoll" ("cycleId", "modelId", "startedAt", "finishedAt", "observedAt", ok, attempts, "endpointCount", demo)
      SELECT ${cycle.id}::int, ${MODEL}, ts, ts + interval '2 seconds', ts, true, 1, ${ENDPOINTS}::int, true
        FROM generate_series(${start}::timestamptz + interval '5 minutes', ${now}::timestamptz - interval '5 minutes', interval '5 minutes') ts`;
    // Time-major like real polls (one row per endpoint per poll); values move like real ones:
    // uptimes wobble with rare dips, prices change a few times a year, stats wobble.
    await db.$executeRaw`
      INSERT INTO "EndpointSample" ("endpointId", "observedAt", "versionId", status, uptime5m, uptime30m, uptime1d,
             "latencyP50", "latencyP90", "throughputP50", "throughputP90", "inputPricePerM", "outputPricePerM", "cacheReadPricePerM")
      SELECT s."endpointId", ts, s."versionId", 0,
             least(100, 97 + 3 * sin(k * 0.7 + s."endpointId"))::real,
             CASE WHEN (k + s."endpointId" * 37) % 2000 < 6 THEN 40 ELSE least(100, 97.5 + 2.5 * sin(k * 0.05 + s."endpointId")) END::real,
             (98 + sin(k * 0.01 + s."endpointId"))::real,
             (s."latencyP50" + 100 * sin(k * 0.3))::real, (s."latencyP90" + 150 * sin(k * 0.3))::real,
             (s."throughputP50" + 3 * sin(k * 0.2))::real, (s."throughputP90" + 2 * sin(k * 0.2))::real,
             s."inputPricePerM" + 0.05 * (k / 26280), s."outputPricePerM" + 0.10 * (k / 26280), s."cacheReadPricePerM"
        FROM generate_series(${start}::timestamptz + interval '5 minutes', ${now}::timestamptz - interval '5 minutes', interval '5 minutes')
             WITH ORDINALITY AS g(ts, k)
        CROSS JOIN (SELECT * FROM "EndpointSample" WHERE "observedAt" = ${start}) s
       ORDER BY ts, s."endpointId"`;
  });
  await db.$executeRawUnsafe("VACUUM ANALYZE");
  const [{ rows, bytes }] = await db.$queryRaw<Array<{ rows: number; bytes: number }>>`
    SELECT (SELECT count(*) FROM "EndpointSample")::int AS rows, pg_total_relation_size('"EndpointSample"')::float8 AS bytes`;
  log(`${rows} endpoint rows in ${(generateMs / 1000).toFixed(1)} s; ${(bytes / rows).toFixed(1)} bytes per endpoint-poll`);

  log("rolling up everything older than retention (the one-off backlog) ...");
  const rollupAllMs = await once(async () => {
    for (let r = { complete: false }; !r.complete; ) {
      r = await rollupHistory(db, { retentionDays: RETENTION_DAYS, now, batchHours: 24 * 31, maxBatches: 20, deleteBatch: 200_000, maxDeleteBatches: 20 });
    }
  });
  await db.$executeRawUnsafe("VACUUM ANALYZE");
  const rollupSteadyMs = await once(() => rollupHistory(db, { retentionDays: RETENTION_DAYS, now }));
  const [after] = await db.$queryRaw<Array<{ hourly: number; hbytes: number; raw: number }>>`
    SELECT (SELECT count(*) FROM "EndpointHourly")::int AS hourly, pg_total_relation_size('"EndpointHourly"')::float8 AS hbytes,
           (SELECT count(*) FROM "EndpointSample")::int AS raw`;
  log(`rolled up in ${(rollupAllMs / 1000).toFixed(1)} s: ${after.hourly} hourly rows, ${after.raw} raw rows kept`);

  const series: EngineResult["series"] = [];
  for (const range of RANGES) {
    for (const metric of ["uptime30m", "inputPrice"] as const) {
      const stats = await time(SERIES_CALLS, () => modelSeries(db, MODEL, metric, range));
      series.push({ range, metric, stats });
      log(`series ${metric} ${range}: p50 ${stats.p50.toFixed(1)} ms, p95 ${stats.p95.toFixed(1)} ms`);
    }
  }
  const page = await time(PAGE_CALLS, () => latestProviders(db, MODEL));
  const pageWithHistory = await time(PAGE_CALLS, () =>
    Promise.all([
      latestProviders(db, MODEL),
      ...(["uptime30m", "inputPrice", "outputPrice", "latencyP50", "throughputP50"] as const).map((m) => modelSeries(db, MODEL, m, "24h")),
      listChanges(db, MODEL, { limit: 25 }),
    ]),
  );
  let poll = 1;
  const writeStats = await time(WRITE_CALLS, () => write(normaliseEndpoints(syntheticResponse(poll++)), new Date(Date.now() + poll)));
  log(`page data p95 ${page.p95.toFixed(1)} ms; with history ${pageWithHistory.p95.toFixed(1)} ms; poll write p95 ${writeStats.p95.toFixed(1)} ms`);

  return {
    engine: name,
    version: version.split(" on ")[0].replace(/,.*$/, ""),
    rows,
    generateMs,
    bytesPerRow: bytes / rows,
    tableBytes: bytes,
    rollupAllMs,
    rollupSteadyMs,
    hourlyRows: after.hourly,
    hourlyBytesPerRow: after.hbytes / Math.max(1, after.hourly),
    rawAfter: after.raw,
    series,
    page,
    pageWithHistory,
    write: writeStats,
  };
}

const loadAtStart = os.loadavg().map((l) => l.toFixed(1)).join(" / ");
const ms = (v: number) => `${v.toFixed(1)} ms`;
const mark = (ok: boolean) => (ok ? "✅" : "❌");

function report(results: EngineResult[]): string {
  const cpus = os.cpus();
  const lines: string[] = [];
  lines.push("# Benchmark: history at a year's scale");
  lines.push("");
  lines.push(`Run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC with \`npm run bench\`. Data: **synthetic** (made up, not from OpenRouter): one model, ${ENDPOINTS} endpoints, a poll every 5 minutes for ${DAYS} days. Retention ${RETENTION_DAYS} days.`);
  lines.push("");
  lines.push("## Machine");
  lines.push("");
  lines.push(`- CPU: ${cpus.length} × ${cpus[0]?.model ?? "unknown"}, shared with other work while this ran (load average at the start ${loadAtStart}, at the end ${os.loadavg().map((l) => l.toFixed(1)).join(" / ")})`);
  lines.push(`- Memory: ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`);
  lines.push(`- OS: ${os.type()} ${os.release()} (${os.arch()})`);
  lines.push(`- Node.js ${process.version}`);
  for (const r of results) lines.push(`- ${r.engine}: ${r.version}`);
  lines.push("");
  lines.push("## What is measured");
  lines.push("");
  lines.push("- **Series**: `modelSeries()`, the one domain call behind `GET /api/models/{author}/{slug}/series` (HTTP and JSON encoding not included), after the year is in its steady state: the last 30 days raw, older hours rolled up. Each range × metric called " + SERIES_CALLS + " times after a warm-up.");
  lines.push("- **Page render**: the model page's server component data, `latestProviders()` (the page's only server-side query; the history section is a client component that fetches the series after hydration). \"With history\" adds what the history section fetches on load (5 series at 24 h and the first page of changes), run concurrently as the browser does.");
  lines.push("- **Poll write**: one `writeSnapshot()` of the 15 endpoints (endpoints, versions, samples, raw response, poll record and change detection against the previous snapshot), on the database holding the year.");
  lines.push("- **Bytes per endpoint-poll**: `pg_total_relation_size` of `EndpointSample` (heap, TOAST and indexes) over its row count, with the full year raw, before roll-up.");
  lines.push("");
  lines.push("## Results");
  lines.push("");
  const server = results.find((r) => r.engine.startsWith("PostgreSQL server"));
  lines.push(`| measure | ${results.map((r) => r.engine).join(" | ")} | target (server) |`);
  lines.push(`| --- | ${results.map(() => "---").join(" | ")} | --- |`);
  const row = (label: string, cell: (r: EngineResult) => string, target = "") => lines.push(`| ${label} | ${results.map(cell).join(" | ")} | ${target} |`);
  row("endpoint rows generated", (r) => r.rows.toLocaleString("en-US"));
  row("generation time (SQL generate_series)", (r) => `${(r.generateMs / 1000).toFixed(1)} s`);
  row("bytes per endpoint-poll (table + indexes)", (r) => r.bytesPerRow.toFixed(1), server ? `< 150 ${mark(server.bytesPerRow < 150)}` : "< 150");
  row("EndpointSample total size, a year raw", (r) => `${(r.tableBytes / 2 ** 20).toFixed(1)} MiB`);
  for (const range of RANGES) {
    for (const metric of ["uptime30m", "inputPrice"] as const) {
      const get = (r: EngineResult) => r.series.find((s) => s.range === range && s.metric === metric)!.stats;
      row(`series ${metric} ${range}: p50 / p95`, (r) => `${ms(get(r).p50)} / ${ms(get(r).p95)}`, server ? `p95 < 50 ms ${mark(get(server).p95 < 50)}` : "p95 < 50 ms");
    }
  }
  row("page render (server data): p50 / p95", (r) => `${ms(r.page.p50)} / ${ms(r.page.p95)}`, server ? `< 300 ms ${mark(server.page.p95 < 300)}` : "< 300 ms");
  row("page + history data on load: p50 / p95", (r) => `${ms(r.pageWithHistory.p50)} / ${ms(r.pageWithHistory.p95)}`, server ? `< 300 ms ${mark(server.pageWithHistory.p95 < 300)}` : "");
  row("one poll cycle's write (15 endpoints): p50 / p95", (r) => `${ms(r.write.p50)} / ${ms(r.write.p95)}`);
  row("roll-up of the year's backlog (one-off)", (r) => `${(r.rollupAllMs / 1000).toFixed(1)} s`);
  row("roll-up per cycle in steady state", (r) => ms(r.rollupSteadyMs));
  row("hourly rows after roll-up / raw rows kept", (r) => `${r.hourlyRows.toLocaleString("en-US")} / ${r.rawAfter.toLocaleString("en-US")}`);
  row("bytes per hourly row (table + index)", (r) => r.hourlyBytesPerRow.toFixed(1));
  lines.push("");
  if (server) {
    const rawMonth = (30 * 288 * server.bytesPerRow) / 2 ** 20;
    const hourlyMonth = (30 * 24 * server.hourlyBytesPerRow) / 2 ** 20;
    lines.push("## Storage a watched model costs");
    lines.push("");
    lines.push(`Per endpoint, measured on the server: raw rows cost ${server.bytesPerRow.toFixed(0)} bytes × 288 polls a day ≈ ${rawMonth.toFixed(2)} MiB per 30 days, kept for RETENTION_DAYS; after that an hour costs one ${server.hourlyBytesPerRow.toFixed(0)}-byte row ≈ ${hourlyMonth.toFixed(3)} MiB per month, kept indefinitely. A model with ${ENDPOINTS} endpoints at the default retention (30 days) holds about ${(rawMonth * ENDPOINTS).toFixed(0)} MiB of raw rows and grows by about ${(hourlyMonth * ENDPOINTS * 1024).toFixed(0)} KiB of hourly rows per month (plus poll records and distinct raw responses).`);
    lines.push("");
  }
  return lines.join("\n");
}

async function main() {
  await benchOnEngines<EngineResult>({ name: "bench", runOn, report, output: "bench/results.md" });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
