import { DemoBanner } from "@/components/layout/demo-banner";
import { ModelCard } from "@/components/home/model-card";
import { SpendSummary } from "@/components/home/spend-summary";
import { ModelPicker } from "@/components/models/model-picker";
import { PollNowButton } from "@/components/models/poll-now-button";
import { env } from "@/lib/env";
import { dashboardForView } from "@/lib/queries/cached-dashboard";

export const dynamic = "force-dynamic";

// The page a team opens each morning: per watched model, what each saved view includes now, the
// cheapest and the least reliable of it, the last day's changes and the last poll; and the spend.
export default async function HomePage() {
  const dashboard = await dashboardForView();
  const now = new Date(dashboard.at).getTime();
  const keyConfigured = Boolean(env.OPENROUTER_API_KEY); // only whether it is set leaves this line
  return (
    <div className="space-y-6">
      {dashboard.demo && <DemoBanner />}
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Watched models</h1>
          <p className="mt-1 text-sm text-slate-600">
            Each watched model as its saved views see it in the latest snapshot, what changed in the last day, and the spend.
          </p>
        </div>
        <div className="flex flex-wrap items-end gap-4">
          <ModelPicker models={dashboard.models.map((m) => ({ id: m.model.id, name: m.model.name }))} />
          <PollNowButton />
        </div>
      </div>
      <SpendSummary spend={dashboard.spend} keyConfigured={keyConfigured} now={now} />
      {dashboard.models.map((entry) => (
        <ModelCard key={entry.model.id} entry={entry} now={now} />
      ))}
      {dashboard.models.length === 0 && (
        <p className="rounded-md border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">
          No models are watched. Set WATCHED_MODELS or add one from a model page.
        </p>
      )}
    </div>
  );
}
