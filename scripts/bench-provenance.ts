// `npm run bench` (its provenance part; alone: `npm run bench:provenance`): import, judge, page and
// export speed of provenance at scale. A few real polls of the replica's Kimi K2.5, a saved view,
// then BENCH_PROVENANCE_RECORDS synthetic usage records (default 200,000; made up) spread as a
// pipeline's would be: over the plan's six datasets (B3-B8, each run under the saved view), 90 UTC
// days and the providers, so the page's totals hold thousands of groups, imported in files of 40,000 lines through the app's own import (which judges
// each file's records). Then a full re-judgement, the page's summary and a streamed export. Runs
// on the embedded engine and, when DATABASE_URL or TEST_DATABASE_URL is set, on that server (a
// scratch database, dropped after). Writes bench/provenance.md.
import type { OpenedDb } from "../lib/db/engines";
import { benchOnEngines } from "./bench-engines";
import { createOpenRouterClient } from "../lib/openrouter/client";
import { runPollCycle } from "../lib/poller/cycle";
import { chooseDatasetView } from "../lib/provenance/choices";
import { exportStream } from "../lib/provenance/export";
import { listDatasets, provenanceSummary } from "../lib/provenance/queries";
import { rejudge } from "../lib/provenance/rejudge";
import { createView } from "../lib/saved-views";
import { importUsage } from "../lib/usage/import";
import { DEFAULT_PLAN } from "../lib/view-state/budget";
import { seedWatchedModels } from "../lib/watched-models";
import { startReplica } from "../replica/server";

const KIMI = "moonshotai/kimi-k2.5";
const RECORDS = Number(process.env.BENCH_PROVENANCE_RECORDS ?? 200_000);
const FILE_LINES = 40_000;
const PROVIDERS = ["Chutes", "Parasail", "DeepInfra", "Novita", "Leaky Labs"];
/** BENCH_PROVENANCE_SPREAD=0: every record in one minute of one dataset (how the bench ran before, 5 groups). */
const SPREAD = process.env.BENCH_PROVENANCE_SPREAD !== "0";
const DATASETS = SPREAD ? ["B3", "B4", "B5", "B6", "B7", "B8"] : ["B3"];
const DAYS = SPREAD ? 90 : 1;

interface Result {
  engine: string;
  records: number;
  importPerSecond: number;
  importMs: number;
  rejudgeMs: number;
  rewriteMs: number;
  summaryMs: number;
  /** The groups the page's totals are kept in (dataset, class, provider, UTC day), and its rows. */
  tallyGroups: number;
  tallyRows: number;
  exportMs: number;
  exportIds: number;
  exportRssGrowthMiB: number;
  /** The judgements' size on disk after the import (rows, indexes and their details), MiB. */
  judgementsMiB: number;
  byClass: Record<string, number>;
}

async function runOn(engine: string, opened: OpenedDb): Promise<Result> {
  const replica = await startReplica();
  try {
    const db = opened.db;
    await seedWatchedModels(db, [KIMI]);
    const client = createOpenRouterClient({ baseUrl: replica.baseUrl, timeoutMs: 5000, maxAttempts: 2 });
    for (let i = 0; i < 3; i++) await runPollCycle(db, client, { trigger: "cli" });
    const view = await createView(db, { name: "Bench pipeline", modelId: KIMI, query: "xp=deepinfra" });
    for (const dataset of DATASETS) await chooseDatasetView(db, { dataset, view: view.slug });
    // After the polls, so every record is judged against the snapshot in force (the latest).
    const from = Date.now();
    const line = (i: number) =>
      JSON.stringify({
        id: `bench-${i}`,
        provider: PROVIDERS[i % PROVIDERS.length],
        model: KIMI,
        dataset: DATASETS[Math.floor(i / PROVIDERS.length) % DATASETS.length],
        input_tokens: 200 + (i % 50),
        output_tokens: 800 + (i % 300),
        cost: "0.00231",
        occurred_at: new Date(from + (Math.floor(i / (PROVIDERS.length * DATASETS.length)) % DAYS) * 86_400_000 + (i % 60_000)).toISOString(),
      });
    let importMs = 0;
    for (let start = 0; start < RECORDS; start += FILE_LINES) {
      const body = Array.from({ length: Math.min(FILE_LINES, RECORDS - start) }, (_, k) => line(start + k)).join("\n");
      const t = performance.now();
      const result = await importUsage(db, `bench-${start}.jsonl`, body);
      importMs += performance.now() - t;
      if (result.rejected > 0) throw new Error(`bench file rejected ${result.rejected} lines`);
      process.stdout.write(`\r[bench:provenance] ${engine}: ${start + FILE_LINES} records imported`);
    }
    process.stdout.write("\n");
    // A full re-judgement that changes nothing (the facts are the import's: every stored judgement
    // stands, nothing is written), then one that writes every record (its stored digests cleared,
    // as when a fact changes the judgement of every generation).
    const [size] = await db.$queryRaw<Array<{ bytes: bigint }>>`
      SELECT (pg_total_relation_size('"ProvenanceJudgement"') + pg_total_relation_size('"ProvenanceDetail"'))::bigint AS bytes`;
    let t = performance.now();
    const full = await rejudge(db, {});
    const rejudgeMs = performance.now() - t;
    if (full.written !== 0) throw new Error(`a re-judgement of unchanged facts wrote ${full.written} judgements`);
    await db.$executeRaw`UPDATE "ProvenanceJudgement" SET detail = 'stale'`;
    t = performance.now();
    const rewritten = await rejudge(db, {});
    const rewriteMs = performance.now() - t;
    if (rewritten.written !== RECORDS) throw new Error(`a re-judgement after clearing the digests wrote ${rewritten.written} of ${RECORDS}`);
    // The page's first render reads the datasets and the summary (the totals kept as judgements
    // are written), as app/provenance/page.tsx does.
    t = performance.now();
    await listDatasets(db);
    const summary = await provenanceSummary(db, null, DEFAULT_PLAN);
    const summaryMs = performance.now() - t;
    const counted = summary.totals.reduce((n, c) => n + c.samples, 0) + summary.unjudged;
    if (counted !== RECORDS) throw new Error(`the page's totals count ${counted} generations of ${RECORDS}`);
    const [tally] = await db.$queryRaw<Array<{ groups: number; rows: number }>>`
      SELECT count(DISTINCT (dataset, class, provider, day))::int AS groups, count(*)::int AS rows FROM "ProvenanceTally"`;
    const largest = Object.entries(full.byClass).sort((a, b) => b[1] - a[1])[0][0] as "trusted";
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    let ids = 0;
    t = performance.now();
    const reader = exportStream(db, largest, null, "ids").getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const byte of value) if (byte === 10) ids++;
      peak = Math.max(peak, process.memoryUsage().rss);
    }
    const exportMs = performance.now() - t;
    return {
      engine,
      records: RECORDS,
      importMs,
      importPerSecond: (RECORDS / importMs) * 1000,
      rejudgeMs,
      rewriteMs,
      summaryMs,
      tallyGroups: tally.groups,
      tallyRows: tally.rows,
      exportMs,
      exportIds: ids,
      exportRssGrowthMiB: (peak - rssBefore) / 1024 / 1024,
      judgementsMiB: Number(size.bytes) / 1024 / 1024,
      byClass: full.byClass,
    };
  } finally {
    await replica.close();
  }
}

function report(results: Result[]): string {
  const lines = [
    "# Provenance bench",
    "",
    `Measured by \`npm run bench\` (provenance part, \`scripts/bench-provenance.ts\`) on ${new Date().toISOString().slice(0, 10)}, on the project's 2-core machine (shared: figures are indicative). Synthetic records (made up), ${RECORDS.toLocaleString("en-US")} per engine, ${PROVIDERS.length} providers (one a leak), ${DATASETS.length} datasets and ${DAYS} days, judged under one saved view over 3 polls of the replica. Import includes parsing, inserting and judging each file's records.`,
    "",
    "| engine | records | import (records/s) | full re-judgement, nothing changed | full re-judgement, every record written | page's datasets and summary (tally groups / rows) | export of the largest class | export RSS growth | judgements stored |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...results.map(
      (r) =>
        `| ${r.engine} | ${r.records.toLocaleString("en-US")} | ${Math.round(r.importPerSecond).toLocaleString("en-US")} (${(r.importMs / 1000).toFixed(1)} s) | ${(r.rejudgeMs / 1000).toFixed(1)} s | ${(r.rewriteMs / 1000).toFixed(1)} s | ${Math.round(r.summaryMs)} ms (${r.tallyGroups} / ${r.tallyRows}) | ${r.exportIds.toLocaleString("en-US")} ids in ${(r.exportMs / 1000).toFixed(1)} s | ${r.exportRssGrowthMiB.toFixed(0)} MiB | ${r.judgementsMiB.toFixed(0)} MiB |`,
    ),
    "",
    `Classes: ${results.map((r) => `${r.engine}: ${Object.entries(r.byClass).map(([c, n]) => `${c} ${n.toLocaleString("en-US")}`).join(", ")}`).join("; ")}.`,
    "",
    RECORDS >= 10_000_000
      ? "The issue's targets at this size (PostgreSQL): import ≥ 20,000 records/s, first render ≤ 1 s, full re-judgement ≤ 60 s."
      : "The issue's targets (10 million generations on PostgreSQL: import ≥ 20,000 records/s, first render ≤ 1 s, full re-judgement ≤ 60 s; 1 million on the embedded engine) are not measured at this size; scale the figures above linearly with care.",
  ];
  return lines.join("\n");
}

async function main() {
  await benchOnEngines<Result>({ name: "bench:provenance", runOn, report, output: "bench/provenance.md" });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
