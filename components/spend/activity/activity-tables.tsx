import Decimal from "decimal.js";
import type { ProviderActualPrice } from "@/lib/activity/queries";
import type { ReconciledDay, ReconcileView } from "@/lib/activity/reconcile";
import { CompactTable, numCell } from "../../ui/compact-table";

const dollars = (v: string | null) => (v === null ? "—" : `$${v}`);

/** The part of a model id people read: "moonshotai/kimi-k2.5" → "kimi-k2.5". */
const modelName = (id: string) => id.slice(id.lastIndexOf("/") + 1);
const percent = (ratio: string) => `${new Decimal(ratio).times(100).toFixed(1)}%`;

/**
 * Actual $/M per provider from OpenRouter's activity, next to the listed prices: each model a
 * provider served is compared with that model's own listed price, and the provider's ratio adds
 * them up (models without a listed price are shown apart and left out of it).
 */
export function ActualPricesTable({ rows }: { rows: ProviderActualPrice[] }) {
  return (
    <CompactTable
      label="Actual prices per provider"
      columns={[
        "Provider",
        ...["Requests", "Input tokens", "Output tokens", "of which reasoning", "Actual", "At listed prices", "Actual ÷ listed", "Listed $/M in · out", "Actual $/M in · out"].map(
          (label) => ({ label, numeric: true }),
        ),
      ]}
    >
      {rows.map((r) => {
        const named = r.models.length > 1;
        return (
          <tr key={r.provider}>
            <th scope="row" className="px-2 py-1.5 text-left font-medium">{r.provider}</th>
            <td className={numCell}>{r.requests.toLocaleString("en-US")}</td>
            <td className={numCell}>{BigInt(r.promptTokens).toLocaleString("en-US")}</td>
            <td className={numCell}>{BigInt(r.completionTokens).toLocaleString("en-US")}</td>
            <td className={numCell}>{BigInt(r.reasoningTokens).toLocaleString("en-US")}</td>
            <td className={`${numCell} font-medium`}>
              {dollars(r.actualUsd)}
              {new Decimal(r.unlistedUsd).gt(0) && <span className="block text-xs font-normal text-slate-500">{dollars(r.unlistedUsd)} on models not listed</span>}
            </td>
            <td className={numCell}>{dollars(r.listedUsd)}</td>
            <td className={`${numCell} font-medium`}>{r.ratio === null ? "—" : percent(r.ratio)}</td>
            <td className={numCell}>
              {r.models.map((m) => (
                <span key={m.model} className="block whitespace-nowrap">
                  {named && <span className="text-xs text-slate-500">{modelName(m.model)}: </span>}
                  {m.listedInputPerM === null ? "not listed" : `$${m.listedInputPerM} · $${m.listedOutputPerM}`}
                </span>
              ))}
            </td>
            <td className={numCell}>
              {r.models.map((m) => (
                <span key={m.model} className="block whitespace-nowrap">
                  {named && <span className="text-xs text-slate-500">{modelName(m.model)}: </span>}
                  {m.actualInputPerM === null ? "—" : `$${m.actualInputPerM} · $${m.actualOutputPerM}`}
                  {named && m.ratio !== null && <span className="ml-1 text-xs text-slate-500">({percent(m.ratio)})</span>}
                </span>
              ))}
            </td>
          </tr>
        );
      })}
    </CompactTable>
  );
}

const VIEW_LABEL: Record<ReconcileView, string> = {
  imported: "imported records only",
  activity: "OpenRouter activity only",
  key: "pipeline key usage only",
};

/** The three views of each day's money side by side, with the days that disagree flagged and a day with one view labelled. */
export function ReconciliationTable({ days, pipelineKeyChosen, label = "Reconciliation" }: { days: ReconciledDay[]; pipelineKeyChosen: boolean; label?: string }) {
  return (
    <CompactTable
      label={label}
      columns={[
        "Day (UTC)",
        { label: "Imported records", numeric: true },
        { label: "OpenRouter activity", numeric: true },
        { label: pipelineKeyChosen ? "Pipeline key usage" : "Key usage (no pipeline key)", numeric: true },
        "Check",
      ]}
    >
      {days.map((d) => (
        <tr key={d.date} className={d.flagged ? "bg-red-50" : undefined}>
          <th scope="row" className="px-2 py-1.5 text-left font-medium whitespace-nowrap">
            {d.date}
            {d.incomplete && <span className="ml-1 text-xs font-normal text-amber-700">not complete yet</span>}
          </th>
          <td className={numCell}>
            {dollars(d.importedUsd)}
            {/* slate-600: slate-500 on a flagged day's red-50 is under 4.5:1 */}
            {d.importedRecords > 0 && <span className="ml-1 text-xs text-slate-600">({d.importedRecords})</span>}
          </td>
          <td className={numCell}>{dollars(d.activityUsd)}</td>
          <td className={numCell}>{dollars(d.keyUsd)}</td>
          <td className="px-2 py-1.5">
            {d.flagged ? (
              <span className="font-medium text-red-800">differs by ${d.largestGapUsd}</span>
            ) : d.onlyView !== null ? (
              <span className="text-slate-600">{VIEW_LABEL[d.onlyView]}: nothing to compare</span>
            ) : (
              <span className="text-emerald-700">agrees</span>
            )}
          </td>
        </tr>
      ))}
    </CompactTable>
  );
}
