import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { LazyFidelitySection } from "@/components/fidelity/lazy-fidelity-section";
import { DemoBanner } from "@/components/layout/demo-banner";
import { LiveSnapshot, PollFreshness } from "@/components/models/live-snapshot";
import { ModelPicker } from "@/components/models/model-picker";
import { PollNowButton } from "@/components/models/poll-now-button";
import { PollStatus } from "@/components/models/poll-status";
import { ComparisonView } from "@/components/providers/comparison-view";
import { SavedViewNotice } from "@/components/providers/saved-view-notice";
import { SectionNav } from "@/components/models/page-sections";
import { env } from "@/lib/env";
import { formatUtc } from "@/lib/format";
import { modelIdFromParams } from "@/lib/http";
import { schedulerState } from "@/lib/jobs/poll";
import { comparisonForView, viewsForModel, watchedModelsForView } from "@/lib/queries/cached";
import { storedBudgetForView } from "@/lib/queries/stored-budget";
import { SLUG } from "@/lib/saved-views";

export const dynamic = "force-dynamic";

interface Props {
  params: Promise<{ author: string; slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const { view } = await searchParams;
  // A saved view's page offers its alerts feed to feed readers.
  const feed = typeof view === "string" && SLUG.test(view) ? { alternates: { types: { "application/atom+xml": `/v/${view}/feed.xml` } } } : {};
  return { title: modelIdFromParams(await params) ?? "Model", ...feed };
}

export default async function ModelPage({ params, searchParams }: Props) {
  const modelId = modelIdFromParams(await params);
  if (!modelId) notFound();
  const query = await searchParams;
  const [comparison, views, models, storedBudget] = await Promise.all([
    comparisonForView(modelId, query),
    viewsForModel(modelId),
    watchedModelsForView(),
    storedBudgetForView(),
  ]);
  if (!comparison) notFound();
  const { snapshot } = comparison;
  const openedView = typeof query.view === "string" ? (views.find((v) => v.slug === query.view) ?? null) : null;
  const activeView = openedView?.slug ?? null;

  return (
    <LiveSnapshot
      modelId={modelId}
      polledAt={snapshot.polledAt}
      failedAt={snapshot.lastFailure?.at ?? null}
      verdictsAt={comparison.probes[0]?.finishedAt ?? null}
      scheduler={schedulerState()}
      renderedAt={Date.now()}
    >
    <div className="space-y-5">
      {snapshot.demo && <DemoBanner />}
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
        <Link href="/" className="hover:text-slate-800">Models</Link> / <span className="font-mono">{modelId}</span>
      </nav>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{snapshot.model.name ?? modelId}</h1>
          <p className="mt-1 text-sm text-slate-600">
            {snapshot.polledAt ? `Snapshot of ${formatUtc(snapshot.polledAt)}` : "No snapshot yet"}
            {" · "}
            <PollFreshness />
            {" · "}
            {snapshot.endpoints.length} provider endpoints
          </p>
        </div>
        <div className="flex flex-wrap items-end gap-4">
          <ModelPicker current={modelId} models={models.map((m) => ({ id: m.id, name: m.name }))} />
          <PollNowButton />
        </div>
      </div>
      {openedView && <SavedViewNotice view={openedView} />}
      {snapshot.endpoints.length > 0 && <SectionNav />}
      {snapshot.lastFailure && (
        <div role="alert" aria-label="Last poll failed" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm">
          <PollStatus lastPoll={{ ...snapshot.lastFailure, ok: false }} lastSuccessAt={snapshot.polledAt} />
          {snapshot.polledAt && <p className="mt-1 text-slate-700">The table shows the last good data.</p>}
        </div>
      )}
      {snapshot.endpoints.length > 0 ? (
        <ComparisonView
          modelId={modelId}
          endpoints={snapshot.endpoints}
          known={comparison.known}
          views={views}
          activeView={activeView}
          ignored={comparison.ignored}
          uptimeThreshold={env.UPTIME_THRESHOLD}
          probes={comparison.probes}
          storedBudget={storedBudget}
        />
      ) : (
        <p className="rounded-md border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">
          No snapshot of this model yet. Press “Poll now” to fetch its providers.
        </p>
      )}
      {snapshot.endpoints.length > 0 && <LazyFidelitySection modelId={modelId} endpoints={snapshot.endpoints} />}
    </div>
    </LiveSnapshot>
  );
}
