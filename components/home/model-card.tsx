import Decimal from "decimal.js";
import Link from "next/link";
import { formatUsd } from "@/lib/budget/cost";
import type { ViewSummary } from "@/lib/dashboard/view-summary";
import { formatAgo, formatPercent, formatUtc } from "@/lib/format";
import type { ModelDashboard } from "@/lib/queries/dashboard";
import { Sparkline } from "./sparkline";

// One watched model on the home page: how its last poll went, what changed in the last day, and
// what each saved view (or the default view) includes now.

const WINDOW_NAMES = { "5m": "5 min", "30m": "30 min", "1d": "1 day" } as const;

export function ModelCard({ entry, now }: { entry: ModelDashboard; now: number }) {
  const { model, views, changes } = entry;
  const headingId = `model-${model.id.replace(/[^a-z0-9]/gi, "-")}`;
  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-x-6 gap-y-3 border-b border-slate-100 px-4 py-3 sm:px-5">
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-semibold">
            <Link href={`/models/${model.id}`} className="text-indigo-700 hover:underline">
              {model.name ?? model.id}
            </Link>
          </h2>
          <p className="font-mono text-xs break-all text-slate-500">{model.id}</p>
        </div>
        <LastPoll model={model} now={now} />
      </div>

      <div className="grid gap-4 px-4 py-4 sm:px-5 lg:grid-cols-[minmax(0,13rem)_minmax(0,1fr)]">
        <div aria-label="Changes in the last 24 hours" role="group" className="space-y-1.5">
          <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">Changes, last 24 h</p>
          <div className="flex items-end gap-3">
            <p className="text-2xl leading-none font-semibold tabular-nums">{changes.total}</p>
            <div>
              <Sparkline perHour={changes.perHour} label={changes.total === 1 ? "change" : "changes"} />
              <p aria-hidden className="mt-0.5 flex w-36 justify-between text-[10px] text-slate-600">
                <span>24 h ago</span>
                <span>now</span>
              </p>
            </div>
          </div>
          <p className="text-xs text-slate-500">
            <Link href={`/models/${model.id}#history`} className="text-indigo-700 hover:underline">
              Change log →
            </Link>
          </p>
        </div>

        <div className="min-w-0 space-y-2">
          <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">
            {entry.defaultView ? "No saved view yet: the default view" : `Saved views (${views.length})`}
          </p>
          {views.length === 0 ? (
            <p className="text-sm text-slate-600">No snapshot yet: nothing to decide on until the first poll succeeds.</p>
          ) : (
            <ul className="divide-y divide-slate-100 rounded-md border border-slate-200">
              {views.map((v) => (
                <ViewRow key={v.slug ?? "default"} view={v} isDefault={entry.defaultView} />
              ))}
            </ul>
          )}
          {entry.snapshotAt && (
            <p className="text-xs text-slate-500">Decided on the snapshot of {formatUtc(entry.snapshotAt)}, with the model page’s rules.</p>
          )}
        </div>
      </div>
    </section>
  );
}

function LastPoll({ model, now }: { model: ModelDashboard["model"]; now: number }) {
  const poll = model.lastPoll;
  if (!poll) return <p className="text-sm text-slate-500">Not polled yet</p>;
  return (
    <div className="text-sm sm:text-right" role="group" aria-label="Last poll">
      {poll.ok ? (
        <p className="font-medium text-emerald-700">
          <span aria-hidden>● </span>Last poll OK, {formatAgo(poll.at, now)}
        </p>
      ) : (
        <p className="font-medium text-red-700">
          <span aria-hidden>● </span>Last poll failed, {formatAgo(poll.at, now)}
        </p>
      )}
      <p className="text-xs text-slate-500">{formatUtc(poll.at)}</p>
      {!poll.ok && (
        <p className="max-w-sm text-xs break-words text-slate-600">
          {poll.error ?? poll.errorKind ?? "unknown error"}.{" "}
          {model.lastSuccessAt ? `Showing data from ${formatAgo(model.lastSuccessAt, now)}.` : "No successful poll yet."}
        </p>
      )}
    </div>
  );
}

function ViewRow({ view, isDefault }: { view: ViewSummary; isDefault: boolean }) {
  const figure = (label: string, value: React.ReactNode, detail?: React.ReactNode) => (
    <div className="min-w-0">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="font-semibold tabular-nums">{value}</dd>
      {detail && <dd className="text-xs break-words text-slate-600">{detail}</dd>}
    </div>
  );
  return (
    <li aria-label={`View ${view.name}`} className="grid gap-x-4 gap-y-2 px-3 py-2.5 sm:grid-cols-[minmax(0,1.1fr)_minmax(0,3fr)] sm:items-center">
      <div className="min-w-0">
        <Link href={view.href} className="font-medium break-words text-indigo-700 hover:underline">
          {view.name}
        </Link>
        <p className="text-xs text-slate-500">
          {isDefault ? "the model page without a saved view" : <span className="font-mono">/v/{view.slug}</span>}
        </p>
        {view.ignored.length > 0 && <p className="text-xs text-amber-800">Part of the link was not readable: {view.ignored.join(", ")}</p>}
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-3">
        {figure("Included", `${view.included} of ${view.total}`, view.unpriced ? `${view.unpriced} without a price` : undefined)}
        {figure(
          "Cheapest included, $/M in / out",
          view.cheapest ? `$${view.cheapest.inputPricePerM} / $${view.cheapest.outputPricePerM}` : "—",
          view.cheapest ? (
            <span title={`${view.cheapest.provider} (${view.cheapest.tag}): the plan costs ${formatUsd(new Decimal(view.cheapest.planCost))} there`}>
              {view.cheapest.provider} · plan {formatUsd(new Decimal(view.cheapest.planCost))}
            </span>
          ) : view.included === 0 ? (
            "nothing is included"
          ) : (
            "no included price"
          ),
        )}
        {figure(
          `Worst uptime (${WINDOW_NAMES[view.uptimeWindow]})`,
          view.worstUptime ? formatPercent(view.worstUptime.value) : "—",
          view.worstUptime ? view.worstUptime.provider : view.included === 0 ? "nothing is included" : "no uptime data",
        )}
      </dl>
    </li>
  );
}
