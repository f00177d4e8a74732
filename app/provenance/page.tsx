import type { Metadata } from "next";
import Link from "next/link";
import { DemoBanner } from "@/components/layout/demo-banner";
import { DatasetViewForm } from "@/components/provenance/dataset-view-form";
import { ProvenanceTables } from "@/components/provenance/provenance-tables";
import { ProvenanceChart } from "@/components/provenance/provenance-chart";
import { LookupProgressPanel } from "@/components/provenance/lookup-progress";
import { RejudgeProgressPanel } from "@/components/provenance/rejudge-progress";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { formatUtc } from "@/lib/format";
import { listDatasetViews } from "@/lib/provenance/choices";
import { lookupProgress } from "@/lib/provenance/lookup";
import { rejudgeRequests } from "@/lib/provenance/rejudge-requests";
import { listDatasets, provenanceSummary } from "@/lib/provenance/queries";
import { showsDemoData } from "@/lib/queries/demo";
import { DEFAULT_PLAN } from "@/lib/view-state/budget";
import { NO_DATASET, readProvenanceDataset } from "@/lib/view-state/provenance";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Provenance" };

interface Props {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export default async function ProvenancePage({ searchParams }: Props) {
  const db = await getDb();
  const datasets = await listDatasets(db);
  const { dataset, unknown } = readProvenanceDataset((await searchParams).dataset, datasets);
  const [summary, choices, views, demo, lookups, rejudging] = await Promise.all([
    provenanceSummary(db, dataset, DEFAULT_PLAN),
    listDatasetViews(db),
    db.savedView.findMany({ orderBy: { name: "asc" }, select: { slug: true, name: true, modelId: true } }),
    showsDemoData(),
    lookupProgress(db),
    rejudgeRequests(db),
  ]);
  const param = (d: string) => (d === "" ? NO_DATASET : d);
  const exportQuery = dataset === null ? "" : `&dataset=${encodeURIComponent(param(dataset))}`;
  const total = summary.totals.reduce((s, t) => s + t.samples, 0);

  return (
    <div className="space-y-6">
      {demo && <DemoBanner />}
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Provenance</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          Every imported generation judged against what Routeboard knew when it was generated: the endpoint that served it, its
          probe verdicts before and after, whether the saved view its pipeline ran under included it in the snapshot then, and its
          status and quantization then. An endpoint the view excluded less than <strong>{env.PROVENANCE_GRACE_MINUTES} minutes</strong>{" "}
          before a generation makes it <em>suspect</em> rather than <em>excluded</em>: a pipeline may keep the allow-list it fetched that long
          (setting <code className="font-mono">PROVENANCE_GRACE_MINUTES</code>).
        </p>
      </div>

      <nav aria-label="Datasets" className="flex flex-wrap gap-2 text-sm">
        {[null, ...datasets].map((d) => {
          const active = d === dataset;
          return (
            <Link
              key={d ?? "all"}
              href={d === null ? "/provenance" : `/provenance?dataset=${encodeURIComponent(param(d))}`}
              aria-current={active ? "page" : undefined}
              className={`rounded-full border px-3 py-1 ${active ? "border-indigo-700 bg-indigo-700 text-white" : "border-slate-300 text-slate-700 hover:border-slate-500"}`}
            >
              {d === null ? "All datasets" : d === "" ? "(no dataset)" : d}
            </Link>
          );
        })}
      </nav>
      {unknown && (
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-950">
          No imported records of dataset “{unknown}”; showing all datasets.
        </p>
      )}

      <RejudgeProgressPanel requests={rejudging} formatTime={formatUtc} />

      {total === 0 && summary.unjudged === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-600">
          No usage imported yet. Import the pipeline’s records on the <Link href="/spend" className="text-indigo-700 underline">Spend</Link> page
          (or <code className="font-mono">POST /api/usage?view=&lt;slug&gt;</code>), and choose the saved view each dataset ran under below.
        </p>
      ) : (
        <>
          <dl className="grid gap-3 sm:grid-cols-3">
            <div className="rounded-lg border border-slate-200 bg-white p-4">
              <dt className="text-xs font-medium text-slate-500 uppercase">Plan trusted (B3–B8)</dt>
              <dd className="mt-1 text-2xl font-semibold tabular-nums" data-testid="plan-trusted">
                {summary.planTrustedPercent === null ? "—" : `${summary.planTrustedPercent}%`}
              </dd>
              <dd className="text-xs text-slate-500">
                {summary.planOutputTokens > 0
                  ? `${Number(summary.planTrustedOutputTokens).toLocaleString("en-US")} of ${summary.planOutputTokens.toLocaleString("en-US")} planned output tokens`
                  : "this dataset is not in the plan"}
              </dd>
            </div>
            <div className="rounded-lg border border-slate-200 bg-white p-4">
              <dt className="text-xs font-medium text-slate-500 uppercase">Spent on samples to drop</dt>
              <dd className="mt-1 text-2xl font-semibold tabular-nums" data-testid="drop-cost">${summary.dropCostUsd}</dd>
              <dd className="text-xs text-slate-500">suspect and excluded generations</dd>
            </div>
            <div className="rounded-lg border border-slate-200 bg-white p-4">
              <dt className="text-xs font-medium text-slate-500 uppercase">Generations judged</dt>
              <dd className="mt-1 text-2xl font-semibold tabular-nums">{total.toLocaleString("en-US")}</dd>
              <dd className="text-xs text-slate-500">{summary.unjudged > 0 ? `${summary.unjudged} not judged yet` : "all imported generations"}</dd>
            </div>
          </dl>

          <ProvenanceTables summary={summary} exportQuery={exportQuery} formatTime={Object.fromEntries(summary.totals.map((t) => [t.class, t.computedAt ? formatUtc(t.computedAt) : "—"]))} />

          <section aria-labelledby="per-day-heading" className="space-y-2 rounded-lg border border-slate-200 bg-white p-4">
            <h2 id="per-day-heading" className="text-lg font-semibold">Output tokens per day</h2>
            <ProvenanceChart days={summary.byDay} />
          </section>
        </>
      )}

      <LookupProgressPanel progress={lookups} hasKey={Boolean(env.OPENROUTER_API_KEY)} formatTime={formatUtc} />

      <section aria-labelledby="views-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="views-heading" className="text-lg font-semibold">The view each dataset ran under</h2>
        <p className="text-sm text-slate-600">
          An import can name its own view (<code className="font-mono">POST /api/usage?view=&lt;slug&gt;</code>), which wins over its dataset’s.
        </p>
        {choices.length > 0 && (
          <ul className="text-sm">
            {choices.map((c) => (
              <li key={c.dataset}>
                <strong>{c.dataset === "" ? "(no dataset)" : c.dataset}</strong>: <Link href={`/v/${c.view.slug}`} className="text-indigo-700 underline">{c.view.name}</Link> ({c.view.modelId})
              </li>
            ))}
          </ul>
        )}
        <DatasetViewForm datasets={datasets} views={views} chosen={Object.fromEntries(choices.map((c) => [c.dataset, c.view.slug]))} />
      </section>
    </div>
  );
}
