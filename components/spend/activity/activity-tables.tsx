import type { ProviderActualPrice } from "@/lib/activity/queries";
import type { ReconciledDay } from "@/lib/activity/reconcile";

const th = "px-2 py-1.5 text-left text-xs font-medium tracking-wide text-slate-500 uppercase";
const num = "px-2 py-1.5 text-right tabular-nums";
const dollars = (v: string | null) => (v === null ? "—" : `$${v}`);

/** Actual $/M per provider from OpenRouter's activity, next to the listed prices. */
export function ActualPricesTable({ rows }: { rows: ProviderActualPrice[] }) {
  return (
    <div className="overflow-x-auto">
      <table aria-label="Actual prices per provider" className="min-w-full divide-y divide-slate-200 text-sm">
        <thead>
          <tr>
            <th scope="col" className={th}>Provider</th>
            <th scope="col" className={`${th} text-right`}>Requests</th>
            <th scope="col" className={`${th} text-right`}>Input tokens</th>
            <th scope="col" className={`${th} text-right`}>Output tokens</th>
            <th scope="col" className={`${th} text-right`}>of which reasoning</th>
            <th scope="col" className={`${th} text-right`}>Actual</th>
            <th scope="col" className={`${th} text-right`}>At listed prices</th>
            <th scope="col" className={`${th} text-right`}>Listed $/M in · out</th>
            <th scope="col" className={`${th} text-right`}>Actual $/M in · out</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => (
            <tr key={r.provider}>
              <th scope="row" className="px-2 py-1.5 text-left font-medium">{r.provider}</th>
              <td className={num}>{r.requests.toLocaleString("en-US")}</td>
              <td className={num}>{BigInt(r.promptTokens).toLocaleString("en-US")}</td>
              <td className={num}>{BigInt(r.completionTokens).toLocaleString("en-US")}</td>
              <td className={num}>{BigInt(r.reasoningTokens).toLocaleString("en-US")}</td>
              <td className={`${num} font-medium`}>{dollars(r.actualUsd)}</td>
              <td className={num}>{dollars(r.listedUsd)}</td>
              <td className={num}>{r.listedInputPerM === null ? "not listed" : `$${r.listedInputPerM} · $${r.listedOutputPerM}`}</td>
              <td className={`${num} font-medium`}>
                {r.actualInputPerM === null ? "—" : `$${r.actualInputPerM} · $${r.actualOutputPerM}`}
                {r.ratio !== null && <span className="ml-1 text-xs text-slate-500">({(Number(r.ratio) * 100).toFixed(1)}%)</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The three views of each day's money side by side, with the days that disagree flagged. */
export function ReconciliationTable({ days, pipelineKeyChosen }: { days: ReconciledDay[]; pipelineKeyChosen: boolean }) {
  return (
    <div className="overflow-x-auto">
      <table aria-label="Reconciliation" className="min-w-full divide-y divide-slate-200 text-sm">
        <thead>
          <tr>
            <th scope="col" className={th}>Day (UTC)</th>
            <th scope="col" className={`${th} text-right`}>Imported records</th>
            <th scope="col" className={`${th} text-right`}>OpenRouter activity</th>
            <th scope="col" className={`${th} text-right`}>{pipelineKeyChosen ? "Pipeline key usage" : "Key usage (no pipeline key)"}</th>
            <th scope="col" className={th}>Check</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {days.map((d) => (
            <tr key={d.date} className={d.flagged ? "bg-red-50" : undefined}>
              <th scope="row" className="px-2 py-1.5 text-left font-medium whitespace-nowrap">
                {d.date}
                {d.incomplete && <span className="ml-1 text-xs font-normal text-amber-700">not complete yet</span>}
              </th>
              <td className={num}>
                {dollars(d.importedUsd)}
                {d.importedRecords > 0 && <span className="ml-1 text-xs text-slate-500">({d.importedRecords})</span>}
              </td>
              <td className={num}>{dollars(d.activityUsd)}</td>
              <td className={num}>{dollars(d.keyUsd)}</td>
              <td className="px-2 py-1.5">
                {d.flagged ? (
                  <span className="font-medium text-red-800">differs by ${d.largestGapUsd}</span>
                ) : d.largestGapUsd === null ? (
                  <span className="text-slate-500">one view only</span>
                ) : (
                  <span className="text-emerald-700">agrees</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
