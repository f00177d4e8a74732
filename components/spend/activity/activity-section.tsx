import { formatUtc } from "@/lib/format";
import type { ReconcileView } from "@/lib/activity/reconcile";
import type { ActivitySectionData } from "@/lib/queries/spend-page";
import { LazyActivityChart } from "./lazy-activity-chart";
import { ActualPricesTable, ReconciliationTable } from "./activity-tables";

/** A week of days with one view is shown open; more are collapsed behind their count. */
const SINGLE_VIEW_OPEN_UP_TO = 7;
const VIEW_NAME: Record<ReconcileView, string> = { imported: "imported records", activity: "OpenRouter activity", key: "pipeline key usage" };

/**
 * What OpenRouter actually charged, from its activity records (read hourly with the management key
 * and stored): per day and provider, per provider against the listed prices, and reconciled with
 * the imported records and the pipeline key's usage. The page shows it only with a management key;
 * its data is loaded by lib/queries/spend-page.ts.
 */
export function ActivitySection({ data }: { data: ActivitySectionData }) {
  const { days, chart, perProvider, status, reconciled, demo, pipelineKeyChosen, tolerance } = data;
  const comparable = reconciled.filter((d) => d.onlyView === null);
  const singleView = reconciled.filter((d) => d.onlyView !== null);
  const singleViewKinds = [...new Set(singleView.map((d) => VIEW_NAME[d.onlyView as ReconcileView]))].join(", ");
  const incompleteDays = chart.days.filter((d) => d.incomplete).map((d) => d.date);

  return (
    <section aria-labelledby="activity-heading" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <div>
        <h2 id="activity-heading" className="text-lg font-semibold">Actual spend per provider</h2>
        <p className="text-sm text-slate-600">
          OpenRouter’s own records (<code className="font-mono">/activity</code>) for the last {days} UTC days, read once an hour.
          {status.lastOk ? ` Last read ${formatUtc(status.lastOk.at)}.` : " Not read yet: the first poll cycle reads it."}
          {demo && <strong className="ml-1 text-amber-800">Demo data from the local replica.</strong>}
        </p>
      </div>
      {status.lastFailure && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          The last read of OpenRouter’s activity ({formatUtc(status.lastFailure.at)}) failed: {status.lastFailure.error}. The figures below are
          those stored before it, unchanged; the next poll cycle after an hour tries again.
        </p>
      )}
      {chart.days.length === 0 ? (
        <p className="text-sm text-slate-600">No activity stored yet.</p>
      ) : (
        <>
          <LazyActivityChart days={chart.days} providers={chart.providers} />
          {incompleteDays.length > 0 && (
            <p className="text-xs text-amber-800">* Not complete yet: {incompleteDays.join(", ")} was read before the day ended; its figures still grow.</p>
          )}
          <h3 className="text-sm font-semibold text-slate-700">Actual against listed prices</h3>
          <p className="text-xs text-slate-600">
            Each model a provider served is compared with that model’s own listed price at that provider, then added up per provider; a model
            without a listed price is shown apart and left out of “Actual ÷ listed”. OpenRouter reports one charge per day and endpoint, not split
            into input and output, so the actual $/M are the listed prices scaled by actual ÷ listed. The difference shows reasoning tokens, cache hits
            and price changes.
          </p>
          <ActualPricesTable rows={perProvider} />
        </>
      )}
      {reconciled.length > 0 && (
        <>
          <h3 className="text-sm font-semibold text-slate-700">Reconciliation</h3>
          <p className="text-xs text-slate-600">
            The imported records (by each record’s time), OpenRouter’s activity and the pipeline key’s usage for the day, side by side. A day is flagged
            when two of them differ by more than {tolerance.percent}% or by more than ${tolerance.usd}.
          </p>
          {comparable.length > 0 ? (
            <ReconciliationTable days={comparable} pipelineKeyChosen={pipelineKeyChosen} />
          ) : (
            <p className="text-sm text-slate-600">
              No day has two views to compare yet: import the pipeline’s records (with their times)
              {pipelineKeyChosen ? "; the pipeline key’s usage, read hourly, is compared on the days another view covers" : ", or choose a pipeline key"}.
            </p>
          )}
          {singleView.length > 0 && (
            <details open={singleView.length <= SINGLE_VIEW_OPEN_UP_TO} className="rounded-md border border-slate-200 px-3 py-2">
              <summary className="cursor-pointer text-sm text-slate-700">
                {singleView.length} day{singleView.length === 1 ? "" : "s"} with one view only ({singleViewKinds}): nothing to compare, not flagged
              </summary>
              <div className="mt-2">
                <ReconciliationTable days={singleView} pipelineKeyChosen={pipelineKeyChosen} label="Days with one view" />
              </div>
            </details>
          )}
        </>
      )}
    </section>
  );
}
