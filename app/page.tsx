import Link from "next/link";
import { DemoBanner } from "@/components/layout/demo-banner";
import { ModelPicker } from "@/components/models/model-picker";
import { PollNowButton } from "@/components/models/poll-now-button";
import { PollStatus } from "@/components/models/poll-status";
import { watchedModelsForView } from "@/lib/queries/cached";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const models = await watchedModelsForView();
  return (
    <div className="space-y-6">
      {models.some((m) => m.demo) && <DemoBanner />}
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Watched models</h1>
          <p className="mt-1 text-sm text-slate-600">
            Each poll stores every provider endpoint of these models: quantization, prices, status and uptime.
          </p>
        </div>
        <div className="flex flex-wrap items-end gap-4">
          <ModelPicker models={models.map((m) => ({ id: m.id, name: m.name }))} />
          <PollNowButton />
        </div>
      </div>
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
        <table className="min-w-full divide-y divide-slate-200 text-sm" aria-label="Watched models">
          <thead className="bg-slate-50 text-left text-xs font-medium tracking-wide text-slate-500 uppercase">
            <tr>
              <th scope="col" className="px-4 py-2">Model</th>
              <th scope="col" className="px-4 py-2">Providers</th>
              <th scope="col" className="px-4 py-2">Last poll</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {models.map((m) => (
              <tr key={m.id}>
                <td className="px-4 py-3">
                  <Link href={`/models/${m.id}`} className="font-medium text-indigo-700 hover:underline">
                    {m.name ?? m.id}
                  </Link>
                  <div className="font-mono text-xs text-slate-500">{m.id}</div>
                </td>
                <td className="px-4 py-3 tabular-nums">{m.endpointCount ?? "—"}</td>
                <td className="px-4 py-3">
                  <PollStatus lastPoll={m.lastPoll} lastSuccessAt={m.lastSuccessAt} />
                </td>
              </tr>
            ))}
            {models.length === 0 && (
              <tr>
                <td colSpan={3} className="px-4 py-6 text-center text-slate-500">
                  No models are watched. Set WATCHED_MODELS or add one from a model page.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}
